package soak

import (
	"slices"
	"testing"
)

// truthOf builds a truth from "file:line" errors.
func truthOf(errs map[string][]int) *truth {
	t := newTruth("")
	for f, lines := range errs {
		for _, n := range lines {
			t.add(f, n)
		}
	}
	return t
}

// blockOf parses a lint block, failing the test when it is malformed.
func blockOf(t *testing.T, block string) answer {
	t.Helper()
	a, err := parseBlock(block)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

const (
	blockAThis  = "LSP errors detected in this file, please fix:\n<diagnostics file=\"a.go\">\nERROR [3:2] undefined: x (UndeclaredName)\n</diagnostics>"
	blockBOther = "LSP errors detected in other files:\n<diagnostics file=\"b.go\">\nERROR [7:1] too many arguments\n</diagnostics>"
	blockGhost  = "LSP errors detected in other files:\n<diagnostics file=\"gone.go\">\nERROR [1:1] x\n</diagnostics>"
	noteTimeout = "lsp-hook: no fresh diagnostics from gopls (timeout); errors it would report are unknown, not absent."
	noteMtime   = "lsp-hook: files changed since 10:04:05 were found by modification time and git (the daemon started after it); a file the command gave an older time, or an untracked file it deleted, is not checked"
	noteNamesA  = "lsp-hook: gopls has not confirmed it holds a.go as on disk again (timeout): run lsp_diagnostics on it"
	noteImports = "lsp-hook: gopls: files importing a changed one were not checked again: 4 past the first 10 (x.go, …); errors the change made there are unknown, not absent."
)

// TestJudge runs judge over one case of each class and the rules that
// keep the soak honest: unknown and partial files unjudged, notes
// excusing silence only about what they own up to, the older hook of a race judged against either text.
func TestJudge(t *testing.T) {
	files := []string{"a.go", "b.go", "c.go"}
	for _, tc := range []struct {
		name          string
		tool          string
		changed       []string
		block         string
		now, before   map[string][]int
		older         map[string][]int // nil: not a race
		unknown       []string
		partial       []string
		want          []class
		broken, clean bool
	}{
		{name: "clean and silent", changed: []string{"a.go"}, want: []class{correct}, clean: true},
		{name: "error shown", changed: []string{"a.go"}, block: blockAThis, now: map[string][]int{"a.go": {3}},
			want: []class{correct}, broken: true},
		{name: "error on another line is stale, and the line missed", changed: []string{"a.go"}, block: blockAThis, now: map[string][]int{"a.go": {4}},
			want: []class{stale, missedLine}, broken: true},
		{name: "error after the fix is stale", changed: []string{"a.go"}, block: blockAThis, before: map[string][]int{"a.go": {3}},
			want: []class{stale}, clean: true},
		{name: "silence over an error is a false clean", changed: []string{"a.go"}, now: map[string][]int{"a.go": {3}},
			want: []class{falseClean}, broken: true},
		{name: "a note makes silence honest", changed: []string{"a.go"}, block: noteTimeout, now: map[string][]int{"a.go": {3}},
			want: []class{timeoutNote}, broken: true},
		{name: "a note on something else excuses nothing", changed: []string{"a.go"}, block: noteMtime, now: map[string][]int{"a.go": {3}},
			want: []class{otherNote, falseClean}, broken: true},
		{name: "a note that a server did not check excuses", changed: []string{"a.go"},
			block: "lsp-hook: the lsp-hook daemon was lost during this check, so gopls did not check this change; errors it would report are unknown, not absent.",
			now:   map[string][]int{"a.go": {3}}, want: []class{otherNote}, broken: true},
		{name: "a note naming the file excuses it", changed: []string{"a.go"}, block: noteNamesA, now: map[string][]int{"a.go": {3}},
			want: []class{otherNote}, broken: true},
		{name: "a note naming another file excuses nothing", changed: []string{"a.go"}, block: noteNamesA, now: map[string][]int{"b.go": {7}},
			want: []class{otherNote, falseClean}, broken: true},
		{name: "importers unchecked excuses a broken caller", changed: []string{"a.go"}, block: noteImports, now: map[string][]int{"b.go": {7}},
			want: []class{otherNote}, broken: true},
		{name: "importers unchecked does not excuse the changed file", changed: []string{"a.go"}, block: noteImports, now: map[string][]int{"a.go": {3}},
			want: []class{otherNote, falseClean}, broken: true},
		{name: "an error line left out is missed", changed: []string{"a.go"}, block: blockAThis, now: map[string][]int{"a.go": {3, 9}},
			want: []class{missedLine}, broken: true},
		{name: "an error line left out past a fatal error is not judged", changed: []string{"a.go"}, block: blockAThis, now: map[string][]int{"a.go": {3, 9}},
			partial: []string{"a.go"}, want: []class{correct}, broken: true},
		{name: "silence over a broken caller is a false clean", changed: []string{"a.go"}, now: map[string][]int{"b.go": {7}},
			want: []class{falseClean}, broken: true},
		{name: "a broken caller not shown is missed", tool: "Edit", changed: []string{"a.go"}, block: blockAThis,
			now: map[string][]int{"a.go": {3}, "b.go": {7}}, want: []class{missedCross}, broken: true},
		{name: "after Bash it is counted apart", tool: "Bash", changed: []string{"a.go"}, block: blockAThis,
			now: map[string][]int{"a.go": {3}, "b.go": {7}}, want: []class{missedCrossBash}, broken: true},
		{name: "a broken caller shown", changed: []string{"a.go"}, block: blockAThis + "\n" + blockBOther,
			now: map[string][]int{"a.go": {3}, "b.go": {7}}, want: []class{correct}, broken: true},
		{name: "an old error elsewhere need not be shown", changed: []string{"a.go"}, block: blockAThis,
			now: map[string][]int{"a.go": {3}, "b.go": {7}}, before: map[string][]int{"b.go": {7}}, want: []class{correct}, broken: true},
		{name: "a file that is gone is a ghost", changed: []string{"a.go"}, block: blockGhost, want: []class{ghost}, clean: true},
		{name: "lines in unknown files are not judged", changed: []string{"a.go"}, block: blockBOther, unknown: []string{"b.go"},
			want: []class{correct}, clean: true},
		{name: "lines past a fatal error are not judged", changed: []string{"a.go"}, block: blockBOther, partial: []string{"b.go"},
			now: map[string][]int{"b.go": {1}}, before: map[string][]int{"b.go": {1}}, want: []class{correct}},
		{name: "the older hook may answer for its text", changed: []string{"a.go"}, block: blockAThis,
			older: map[string][]int{"a.go": {3}}, want: []class{correct}, clean: true},
		{name: "the older hook may answer for the newer text", changed: []string{"a.go"},
			now: map[string][]int{"a.go": {3}}, older: map[string][]int{}, want: []class{correct}},
		{name: "the older hook is silent over two broken texts", changed: []string{"a.go"},
			now: map[string][]int{"a.go": {3}}, older: map[string][]int{"a.go": {5}}, want: []class{falseClean}, broken: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := judgement{
				tool: tc.tool, changed: tc.changed, answer: blockOf(t, tc.block),
				exists: func(f string) bool { return slices.Contains(files, f) },
				now:    truthOf(tc.now), before: truthOf(tc.before),
			}
			if tc.older != nil {
				j.older = truthOf(tc.older)
			}
			for _, f := range tc.unknown {
				j.now.unknown[f] = true
			}
			for _, f := range tc.partial {
				j.now.partial[f], j.before.partial[f] = true, true
			}
			v := judge(j)
			var got []class
			for c := range nClasses {
				if len(v.found[c]) > 0 {
					got = append(got, c)
				}
			}
			if !slices.Equal(got, tc.want) || v.broken != tc.broken || v.clean != tc.clean {
				t.Errorf("judge = %v (%v), broken %v, clean %v; want %v, broken %v, clean %v",
					got, v.found, v.broken, v.clean, tc.want, tc.broken, tc.clean)
			}
		})
	}
}

// TestTruthMissing: an answer must show a line of each error; an error a
// server may rightly show on either of two lines (addEither) is shown by
// either, and merged truths keep that.
func TestTruthMissing(t *testing.T) {
	one := newTruth("")
	one.addEither("shapes.h", 7, 9)
	all := newTruth("")
	all.merge(one)
	all.add("shapes.h", 12)
	for _, tc := range []struct {
		shown []int
		want  []int
	}{
		{[]int{9, 12}, nil},
		{[]int{7, 12}, nil},
		{[]int{12}, []int{7}},
		{[]int{9}, []int{12}},
		{nil, []int{7, 12}},
	} {
		shown := make(map[int]bool)
		for _, n := range tc.shown {
			shown[n] = true
		}
		if got := all.missing("shapes.h", shown); !slices.Equal(got, tc.want) {
			t.Errorf("missing with %v shown = %v, want %v", tc.shown, got, tc.want)
		}
	}
}

// TestNames: a note names a file by its whole relative path, or as the
// end of an absolute path; not as a part of another name.
func TestNames(t *testing.T) {
	for _, tc := range []struct {
		note, file string
		want       bool
	}{
		{"lsp-hook: gopls has not confirmed it holds a.go as on disk again", "a.go", true},
		{"lsp-hook: skipped /tmp/ws/src/api.ts: lstat: no such file", "src/api.ts", true},
		{"lsp-hook: src/api.ts not checked: no server.", "src/api.ts", true},
		{"lsp-hook: (src/api.ts)", "src/api.ts", true},
		{"lsp-hook: gopls has not confirmed it holds data.go as on disk again", "a.go", false},
		{"lsp-hook: src/api.ts not checked", "api.ts", false},
		{"lsp-hook: src/api.tsx not checked", "src/api.ts", false},
		{"lsp-hook: lib/src/api.ts not checked, nor src/api.ts.", "src/api.ts", true},
	} {
		if got := names(tc.note, tc.file); got != tc.want {
			t.Errorf("names(%q, %q) = %v, want %v", tc.note, tc.file, got, tc.want)
		}
	}
}
