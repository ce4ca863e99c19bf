package session

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
)

// clock is a Registry.Now that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newTest(maxSessions, maxFiles int) (*Registry, *clock) {
	c := &clock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	r := New(slog.New(slog.NewTextHandler(io.Discard, nil)))
	r.Now, r.MaxSessions, r.MaxFiles, r.Idle = c.now, maxSessions, maxFiles, time.Hour
	return r, c
}

func TestTouchAndBaseline(t *testing.T) {
	r, c := newTest(0, 0)
	if first := r.Touch("s1", "claude", []string{"/w/a.go", "/w/b.go"}); !slices.Equal(first, []string{"/w/a.go", "/w/b.go"}) {
		t.Fatalf("first touch = %q", first)
	}
	r.SetBefore("s1", "/w/a.go", []byte("package a\n"))
	c.t = c.t.Add(time.Minute)
	if first := r.Touch("s1", "claude", []string{"/w/a.go", "/w/c.go"}); !slices.Equal(first, []string{"/w/c.go"}) {
		t.Errorf("second touch = %q, want only the new file", first)
	}
	files, ok := r.Files("s1")
	if !ok || len(files) != 3 || files[0].Path != "/w/a.go" || !files[0].BeforeKnown || string(files[0].Before) != "package a\n" ||
		files[1].BeforeKnown || !files[2].FirstTouch.Equal(c.t) {
		t.Errorf("files = %+v", files)
	}
	if first := r.Touch("", "claude", []string{"/w/a.go"}); first != nil {
		t.Errorf("a session without an id recorded %q", first)
	}
	if _, ok := r.Files("unknown"); ok {
		t.Errorf("an unknown session has files")
	}
	r.SetBefore("unknown", "/w/a.go", nil) // no panic, nothing recorded
	r.SetBefore("s1", "/w/b.go", make([]byte, MaxBefore+1))
	if files, _ := r.Files("s1"); files[1].BeforeKnown {
		t.Errorf("a text over MaxBefore was kept")
	}
}

func TestBounds(t *testing.T) {
	r, c := newTest(2, 2)
	r.Touch("s1", "", []string{"/a", "/b", "/c"})
	files, _ := r.Files("s1")
	if len(files) != 2 || files[0].Path != "/b" {
		t.Errorf("past MaxFiles: %+v, want the oldest dropped", files)
	}
	c.t = c.t.Add(time.Second)
	r.Touch("s2", "", []string{"/a"})
	c.t = c.t.Add(time.Second)
	r.Touch("s3", "", []string{"/a"}) // drops s1, the least recently seen
	if _, ok := r.Files("s1"); ok {
		t.Errorf("s1 kept past MaxSessions")
	}
	c.t = c.t.Add(2 * time.Hour)
	r.Touch("s4", "", []string{"/a"}) // drops s2
	if gone := r.Sweep(); !slices.Equal(gone, []string{"s3"}) {
		t.Errorf("Sweep = %q, want the idle session", gone)
	}
	r.End("s4")
	if got := r.Summaries(); len(got) != 0 {
		t.Errorf("after End and Sweep: %+v", got)
	}
}

func TestStoppedAndSummaries(t *testing.T) {
	r, _ := newTest(0, 0)
	r.Touch("s", "gemini", []string{"/a"})
	if got := r.Summaries(); len(got) != 1 || got[0].OpenErrors != -1 || got[0].Agent != "gemini" || got[0].Files != 1 {
		t.Errorf("summaries = %+v", got)
	}
	if n := r.Stopped("s", 2, true); n != 1 || r.BlockedInARow("s") != 1 {
		t.Errorf("after a block: %d in a row", n)
	}
	if n := r.Stopped("s", 2, false); n != 0 {
		t.Errorf("after an allowed end: %d in a row", n)
	}
	if got := r.Summaries()[0].OpenErrors; got != 2 {
		t.Errorf("open errors %d", got)
	}
	if n := r.Stopped("nobody", 1, true); n != 0 {
		t.Errorf("unknown session: %d", n)
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name       string
		mode       string
		introduced int
		active     bool
		inARow     int
		want       Decision
	}{
		{"clean", GateBlock, 0, false, 0, Allow},
		{"errors it introduced", GateBlock, 2, false, 0, Block},
		{"the agent says a stop hook already blocked", GateBlock, 2, true, 0, Warn},
		{"we blocked the last end of turn", GateBlock, 2, false, 1, Warn},
		{"warn mode", GateWarn, 2, false, 0, Warn},
		{"off", GateOff, 2, false, 0, Allow},
		{"warn mode, clean", GateWarn, 0, false, 0, Allow},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Decide(tc.mode, tc.introduced, tc.active, tc.inARow); got != tc.want {
				t.Errorf("Decide = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestOthersBefore: the first baseline heard of each other file is kept,
// later ones are not; the count is bounded by MaxFiles; an unknown session
// keeps nothing.
func TestOthersBefore(t *testing.T) {
	r, _ := newTest(0, 2)
	e := func(msg string) []diag.Diagnostic { return []diag.Diagnostic{{Path: "/w/m.c", Line: 3, Message: msg}} }
	r.Touch("s", "claude", []string{"/w/g.h"})
	r.SetOthersBefore("s", map[string][]diag.Diagnostic{"/w/m.c": nil})
	r.SetOthersBefore("s", map[string][]diag.Diagnostic{"/w/m.c": e("later"), "/w/l.c": e("first")})
	r.SetOthersBefore("s", map[string][]diag.Diagnostic{"/w/x.c": e("over the bound")})
	r.SetOthersBefore("unknown", map[string][]diag.Diagnostic{"/w/m.c": e("x")})
	got := r.OthersBefore("s")
	if len(got) != 2 || len(got["/w/m.c"]) != 0 || len(got["/w/l.c"]) != 1 {
		t.Errorf("OthersBefore = %+v, want m.c's first (clean) and l.c's, nothing over MaxFiles", got)
	}
	if _, ok := got["/w/m.c"]; !ok {
		t.Errorf("a clean baseline was not kept")
	}
	if r.OthersBefore("unknown") != nil {
		t.Errorf("an unknown session has baselines")
	}
}

// TestSharedSince: a file another session touched after this one first
// did is shared — whether that session goes on or has ended — and one it
// touched only before is not; the touches survive Save and Load, and go
// with Sweep after Idle.
func TestSharedSince(t *testing.T) {
	r, c := newTest(0, 0)
	r.Touch("b", "claude", []string{"/w/greet.go", "/w/main.go"})
	c.t = c.t.Add(time.Second)
	r.Touch("a", "claude", []string{"/w/greet.go", "/w/loud.go"})
	c.t = c.t.Add(time.Second)
	r.Touch("b", "claude", []string{"/w/loud.go"})
	r.Touch("c", "codex", []string{"/w/main.go"})
	c.t = c.t.Add(time.Second)
	r.End("c")
	tests := []struct {
		session string
		want    map[string]string
	}{
		{"b", map[string]string{"/w/greet.go": "a", "/w/main.go": "c"}}, // loud.go: a's touch came before b's first
		{"a", map[string]string{"/w/loud.go": "b"}},                     // greet.go: b's touch came before a's first
		{"c", nil},       // ended: no record of its own
		{"unknown", nil}, // never seen
	}
	check := func(r *Registry, when string) {
		t.Helper()
		for _, tt := range tests {
			if got := r.SharedSince(tt.session); !maps.Equal(got, tt.want) {
				t.Errorf("%s: SharedSince(%q) = %v, want %v", when, tt.session, got, tt.want)
			}
		}
	}
	check(r, "running")
	var buf bytes.Buffer
	if _, err := r.Save(&buf); err != nil {
		t.Fatal(err)
	}
	next := New(r.log)
	next.Now, next.Idle = c.now, time.Hour
	if _, err := next.Load(&buf); err != nil {
		t.Fatal(err)
	}
	check(next, "after Save and Load")
	c.t = c.t.Add(time.Hour)
	next.Touch("d", "claude", nil)
	next.Sweep()
	if len(next.touches) != 0 {
		t.Errorf("touches kept past Idle: %v", next.touches)
	}
}

// TestTouchesBounded: at most maxTouchers sessions' touches are kept per
// file, the latest, and at most maxTouchedFactor × MaxFiles files.
func TestTouchesBounded(t *testing.T) {
	r, c := newTest(0, 2)
	for i := range maxTouchers + 3 {
		c.t = c.t.Add(time.Second)
		r.Touch(fmt.Sprint("s", i), "", []string{"/w/a.go"})
	}
	ts := r.touches["/w/a.go"]
	if len(ts) != maxTouchers || ts[0].Session != "s3" || ts[len(ts)-1].Session != fmt.Sprint("s", maxTouchers+2) {
		t.Errorf("touches of a.go = %v, want the latest %d, oldest first", ts, maxTouchers)
	}
	for i := range maxTouchedFactor*2 + 5 {
		c.t = c.t.Add(time.Second)
		r.Touch("s", "", []string{fmt.Sprint("/w/f", i)})
	}
	if len(r.touches) != maxTouchedFactor*2 {
		t.Errorf("%d files' touches kept, want %d", len(r.touches), maxTouchedFactor*2)
	}
	if _, ok := r.touches["/w/a.go"]; ok {
		t.Error("the file touched least recently was kept past the bound")
	}
}

// TestOthersTouched: the files other sessions touched since a session
// began — ended sessions too — that it never touched itself.
func TestOthersTouched(t *testing.T) {
	r, c := newTest(0, 0)
	r.Touch("b", "claude", []string{"/w/early.go", "/w/main.go"})
	c.t = c.t.Add(time.Second)
	r.Touch("a", "claude", []string{"/w/greet.go"})
	r.SetBegan("a", "HEAD") // a began now: b's touches before are not a's business
	c.t = c.t.Add(time.Second)
	r.Touch("b", "claude", []string{"/w/main.go"})
	r.Touch("c", "codex", []string{"/w/gone.go", "/w/greet.go"})
	r.End("c")
	tests := []struct {
		session string
		want    map[string]string
	}{
		{"a", map[string]string{"/w/main.go": "b", "/w/gone.go": "c"}},  // early.go: before a began; greet.go: a's own
		{"b", map[string]string{"/w/greet.go": "c", "/w/gone.go": "c"}}, // b never began by SetBegan: every touch counts
		{"c", nil}, // ended
	}
	for _, tt := range tests {
		if got := r.OthersTouched(tt.session); !maps.Equal(got, tt.want) {
			t.Errorf("OthersTouched(%q) = %v, want %v", tt.session, got, tt.want)
		}
	}
}

// TestRecordMade: the latest change sure to have made an error owns it;
// one that only may have (what was there before unknown) owns it only
// when none does; the record survives Save and Load.
func TestRecordMade(t *testing.T) {
	r, _ := newTest(0, 0)
	r.RecordMade("a", []string{"e1", "e2"}, false)
	r.RecordMade("b", []string{"e1"}, true)
	r.RecordMade("c", []string{"e1", "e2", "e3"}, false)
	r.RecordMade("d", []string{"e3"}, true)
	r.RecordMade("", []string{"e4"}, true)
	r.Touch("s", "claude", nil) // a session, so that Save writes the record
	var buf bytes.Buffer
	if _, err := r.Save(&buf); err != nil {
		t.Fatal(err)
	}
	next := New(r.log)
	next.Now, next.Idle = r.Now, time.Hour
	if _, err := next.Load(&buf); err != nil {
		t.Fatal(err)
	}
	for _, reg := range []*Registry{r, next} {
		for key, want := range map[string]string{"e1": "b", "e2": "a", "e3": "d", "e4": "", "e5": ""} {
			if got := reg.MadeBy(key); got != want {
				t.Errorf("MadeBy(%q) = %q, want %q", key, got, want)
			}
		}
	}
}
