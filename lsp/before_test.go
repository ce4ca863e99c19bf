package lsp

import "testing"

// TestSaidAfter: an answer about a re-checked importer is a baseline only
// when the server had the text before the change (its send numbered
// floor) when it gave it: a pull asked once it was sent, a push about a
// version of the importer sent with it or after.
func TestSaidAfter(t *testing.T) {
	const uri = "file:///w/main.c"
	v := func(n int32) *int32 { return &n }
	c := &Client{docs: map[string]*document{uri: {version: 3, sent: []sentVersion{
		{version: 1, seq: 2}, // the prewarm's open, before the text before went out
		{version: 3, seq: 7}, // a re-check after it
	}}}}
	cases := []struct {
		name  string
		bases []answerBasis
		floor uint64
		want  bool
	}{
		{"no text before sent", []answerBasis{{version: v(1)}}, 0, true},
		{"push about a version sent before", []answerBasis{{version: v(1)}}, 5, false},
		{"push about a version sent after", []answerBasis{{version: v(3)}}, 5, true},
		{"push about a version sent with it", []answerBasis{{version: v(3)}}, 7, true},
		{"push without a version", []answerBasis{{}}, 5, false},
		{"push about a version out of the history", []answerBasis{{version: v(2)}}, 5, false},
		{"pull asked before", []answerBasis{{pulled: true, asked: 4}}, 5, false},
		{"pull asked once it was sent", []answerBasis{{pulled: true, asked: 5}}, 5, true},
		{"one of two answers before", []answerBasis{{version: v(3)}, {pulled: true, asked: 4}}, 5, false},
	}
	for _, tc := range cases {
		if got := c.saidAfter(uri, tc.bases, tc.floor); got != tc.want {
			t.Errorf("%s: saidAfter = %v, want %v", tc.name, got, tc.want)
		}
	}
	if c.saidAfter("file:///w/other.c", []answerBasis{{version: v(1)}}, 5) {
		t.Error("a push about a document not open: saidAfter = true, want false")
	}
}

// TestOpenAt: another file counts as changed since the baseline's mark
// (its current diagnostics are then its baseline) only for a new text
// sent after the mark; the same text sent again, as a check's no-change
// version or a forced re-check, leaves the baseline to what was said
// before the mark (make test's soak, seed 419546779337726231, Go #3).
func TestOpenAt(t *testing.T) {
	const uri = "file:///w/jobs.go"
	cases := []struct {
		name              string
		sent              []sentVersion
		mark              uint64
		open, syncedSince bool
	}{
		{"opened before the mark, nothing since", []sentVersion{{mark: 4, changes: true}}, 16, true, false},
		{"opened after the mark", []sentVersion{{mark: 20, changes: true}}, 16, false, true},
		{"a new text at the mark", []sentVersion{{mark: 4, changes: true}, {mark: 16, changes: true}}, 16, true, false},
		{"a new text after the mark", []sentVersion{{mark: 4, changes: true}, {mark: 21, changes: true}}, 16, true, true},
		{"the same text again after the mark", []sentVersion{{mark: 16, changes: true}, {mark: 21}}, 16, true, false},
		{"a new text, then the same again", []sentVersion{{mark: 4, changes: true}, {mark: 18, changes: true}, {mark: 21}}, 16, true, true},
		{"a re-check's first open after the mark", []sentVersion{{mark: 20}}, 16, false, false},
	}
	for _, tc := range cases {
		c := &Client{docs: map[string]*document{uri: {sent: tc.sent}}}
		open, synced := c.openAt(uri, tc.mark)
		if open != tc.open || synced != tc.syncedSince {
			t.Errorf("%s: openAt = %v, %v; want %v, %v", tc.name, open, synced, tc.open, tc.syncedSince)
		}
	}
	if open, synced := (&Client{docs: map[string]*document{}}).openAt(uri, 16); open || synced {
		t.Error("a document never sent: openAt = true")
	}
}
