package lsp

import (
	"maps"
	"slices"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

// TestDropMirrors: a file of another root sent as a Doc.Mirror is left
// out of the server's answers — that check's and every later one's, as a
// changed file or another — and nothing else is.
func TestDropMirrors(t *testing.T) {
	d := []diag.Diagnostic{{Line: 1, Column: 1, Severity: diag.SeverityError, Message: "m"}}
	c := &Client{}
	steps := []struct {
		name       string
		docs       []Doc
		files      []string
		others     []string
		wantFiles  []string
		wantOthers []string
	}{
		{"the mirror's own check", []Doc{{Path: "/w/lib/a.ts", Mirror: true}},
			[]string{"/w/lib/a.ts"}, []string{"/w/app/main.ts"}, nil, []string{"/w/app/main.ts"}},
		{"a later check of the root's own file", []Doc{{Path: "/w/app/main.ts"}},
			[]string{"/w/app/main.ts"}, []string{"/w/lib/a.ts", "/w/app/b.ts"}, []string{"/w/app/main.ts"}, []string{"/w/app/b.ts"}},
		{"no mirror ever sent of it", []Doc{{Path: "/w/app/main.ts"}},
			[]string{"/w/app/main.ts"}, []string{"/w/lib/other.ts"}, []string{"/w/app/main.ts"}, []string{"/w/lib/other.ts"}},
	}
	for _, st := range steps {
		o := Outcome{Files: map[string][]diag.Diagnostic{}, Others: map[string][]diag.Diagnostic{},
			OthersBefore: map[string][]diag.Diagnostic{}, OthersBeforeKnown: map[string]bool{}}
		for _, p := range st.files {
			o.Files[p] = d
		}
		for _, p := range st.others {
			o.Others[p], o.OthersBefore[p], o.OthersBeforeKnown[p] = d, nil, true
		}
		c.dropMirrors(st.docs, &o)
		if got := slices.Sorted(maps.Keys(o.Files)); !slices.Equal(got, st.wantFiles) {
			t.Errorf("%s: files %v, want %v", st.name, got, st.wantFiles)
		}
		if got := slices.Sorted(maps.Keys(o.Others)); !slices.Equal(got, st.wantOthers) {
			t.Errorf("%s: others %v, want %v", st.name, got, st.wantOthers)
		}
		if got := slices.Sorted(maps.Keys(o.OthersBeforeKnown)); !slices.Equal(got, st.wantOthers) {
			t.Errorf("%s: others' baselines %v, want %v", st.name, got, st.wantOthers)
		}
	}
}
