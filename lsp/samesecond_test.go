package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestSameSecondReopens: the open documents are re-opened only for a
// server that tells files by whole-second times, for a changed file
// others include, modified in a second a text went out in.
func TestSameSecondReopens(t *testing.T) {
	dir := workspace(t, map[string]string{"a.h": "", "a.c": "", "b.c": "", "c.c": ""})
	at := func(name string) string { return filepath.Join(dir, name) }
	modified := time.Date(2026, 11, 26, 10, 0, 0, 500e6, time.UTC)
	if err := os.Chtimes(at("a.h"), modified, modified); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		flag   bool
		sentAt []time.Time // sends noted, in order
		deps   []string
		want   []string
	}{
		{name: "a server that reads times to the nanosecond", sentAt: []time.Time{modified}, deps: []string{"a.c"}, want: []string{"a.c"}},
		{name: "a file nothing includes", flag: true, sentAt: []time.Time{modified}, want: nil},
		{name: "no send in its second", flag: true, sentAt: []time.Time{modified.Add(-time.Second), modified.Add(time.Second)}, deps: []string{"a.c"}, want: []string{"a.c"}},
		{name: "a send earlier in its second", flag: true, sentAt: []time.Time{modified.Add(-400 * time.Millisecond)}, deps: []string{"a.c"}, want: []string{"a.c", "b.c", "c.c"}},
		{name: "a send later in its second", flag: true, sentAt: []time.Time{modified.Add(400 * time.Millisecond)}, deps: []string{"b.c"}, want: []string{"b.c", "a.c", "c.c"}},
		{name: "its second among many", flag: true, sentAt: []time.Time{modified.Add(-3 * time.Second), modified, modified.Add(2 * time.Second)}, deps: []string{"a.c"}, want: []string{"a.c", "b.c", "c.c"}},
		{name: "its second forgotten", flag: true, sentAt: append([]time.Time{modified}, seconds(modified.Add(time.Second), sentSeconds)...), deps: []string{"a.c"}, want: []string{"a.c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Client{server: config.Server{MtimeSeconds: tt.flag}, log: testLogger(t), docs: make(map[string]*document)}
			for _, name := range []string{"a.h", "a.c", "b.c", "c.c"} {
				c.docs[pathToURI(at(name))] = &document{path: at(name)}
			}
			for _, s := range tt.sentAt {
				c.noteSentSecondLocked(s)
			}
			var deps, want []string
			for _, d := range tt.deps {
				deps = append(deps, at(d))
			}
			for _, d := range tt.want {
				want = append(want, at(d))
			}
			if got := c.sameSecondReopens([]Doc{{Path: at("a.h")}}, deps); !slices.Equal(got, want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// seconds returns n times one second apart from t.
func seconds(t time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = t.Add(time.Duration(i) * time.Second)
	}
	return out
}
