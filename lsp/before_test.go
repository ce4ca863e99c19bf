package lsp

import (
	"testing"
	"time"
)

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

// TestBaseMark: a check's baseline reaches back to the first version of
// a changed document sent after the last one a check answered
// (delivered), unless that version is a forced re-check of the same
// text, which changed nothing the server knew (make test's soak, seed
// 419546779337726231, Go #3: reaching back to one put a revert's
// baseline before the check that fixed its callers); a plain re-send of
// the same text (another hook of the file) still counts
// (TestLoadConcurrentHooks).
func TestBaseMark(t *testing.T) {
	const uri = "file:///w/singleflight.go"
	now := time.Now()
	cases := []struct {
		name      string
		delivered int32
		sent      []sentVersion
		want      uint64
	}{
		{"all delivered", 2, []sentVersion{{version: 1, mark: 4, changes: true, at: now}, {version: 2, mark: 10, changes: true, at: now}}, 23},
		{"a new text undelivered", 1, []sentVersion{{version: 1, mark: 4, changes: true, at: now}, {version: 2, mark: 16, changes: true, at: now}}, 16},
		{"forced re-checks of the same text undelivered", 2, []sentVersion{{version: 2, mark: 10, changes: true, at: now}, {version: 3, mark: 16, forced: true, at: now}, {version: 4, mark: 19, forced: true, at: now}}, 23},
		{"a forced re-check, then a new text, undelivered", 2, []sentVersion{{version: 3, mark: 16, forced: true, at: now}, {version: 4, mark: 19, changes: true, at: now}}, 19},
		{"another hook's re-send of the same text undelivered", 2, []sentVersion{{version: 2, mark: 10, changes: true, at: now}, {version: 3, mark: 16, at: now}}, 16},
		{"a new text undelivered, long ago", 1, []sentVersion{{version: 2, mark: 16, changes: true, at: now.Add(-time.Hour)}}, 23},
	}
	for _, tc := range cases {
		c := &Client{docs: map[string]*document{uri: {delivered: tc.delivered, sent: tc.sent}}, watched: map[string]sentWatch{}}
		if got := c.baseMark(map[string]int32{uri: 5}, 23); got != tc.want {
			t.Errorf("%s: baseMark = %d, want %d", tc.name, got, tc.want)
		}
	}
}
