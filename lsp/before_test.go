package lsp

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// TestSaidAfter: an answer about a re-checked importer is a baseline only
// when the server had the text before the change (its send numbered
// floor) when it gave it: a pull asked once it was sent (an "unchanged"
// one: whose referent was), a push about a version of the importer sent
// with it or after.
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
		{"pull asked before", []answerBasis{{pulled: true, asked: 4, since: 4}}, 5, false},
		{"pull asked once it was sent", []answerBasis{{pulled: true, asked: 5, since: 5}}, 5, true},
		{"pull answered unchanged, its referent asked before", []answerBasis{{pulled: true, asked: 6, since: 3}}, 5, false},
		{"pull answered unchanged, its referent asked after", []answerBasis{{pulled: true, asked: 8, since: 6}}, 5, true},
		{"one of two answers before", []answerBasis{{version: v(3)}, {pulled: true, asked: 4, since: 4}}, 5, false},
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

// TestSaidBefore: a pull answer about a re-checked importer is a baseline
// only when it was worked out before a changed text went out after the
// text before (ceiling); a push cannot say, and passes.
func TestSaidBefore(t *testing.T) {
	v := func(n int32) *int32 { return &n }
	cases := []struct {
		name    string
		bases   []answerBasis
		ceiling uint64
		want    bool
	}{
		{"no change sent after the text before", []answerBasis{{pulled: true, asked: 9, since: 9}}, 0, true},
		{"pull asked before the change went out", []answerBasis{{pulled: true, asked: 2, since: 2}}, 3, true},
		{"pull asked once the change went out", []answerBasis{{pulled: true, asked: 3, since: 3}}, 3, false},
		{"unchanged, its referent asked before", []answerBasis{{pulled: true, asked: 5, since: 2}}, 3, true},
		{"unchanged, its referent asked after", []answerBasis{{pulled: true, asked: 6, since: 4}}, 3, false},
		{"a push", []answerBasis{{version: v(1)}}, 3, true},
		{"one of two pulls after", []answerBasis{{pulled: true, asked: 2, since: 2}, {pulled: true, asked: 4, since: 4}}, 3, false},
	}
	for _, tc := range cases {
		if got := saidBefore(tc.bases, tc.ceiling); got != tc.want {
			t.Errorf("%s: saidBefore = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestChangeSentAfter: the first send after the text before of a changed
// document's other text — by this check or another (the soak, seed
// 2827776134180446085, Python #34: the older hook's check sent it) — and
// none for a re-send of the text before or a document not changed.
func TestChangeSentAfter(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "service.py"), filepath.Join(dir, "api.py")
	before, older, newer := []byte("def greet(): pass\n"), []byte("def hello(): pass\n"), []byte("def hi(): pass\n")
	c := &Client{docs: map[string]*document{
		pathToURI(p): {sent: []sentVersion{
			{version: 1, seq: 1, hash: textHash(newer)},  // a prewarm's open of the file on disk
			{version: 2, seq: 2, hash: textHash(before)}, // the text before (floor)
			{version: 3, seq: 4, hash: textHash(before)}, // the text before again
			{version: 4, seq: 5, hash: textHash(older)},  // the older hook's text, sent by its check
			{version: 5, seq: 7, hash: textHash(newer)},  // this check's
		}},
		pathToURI(q): {sent: []sentVersion{{version: 1, seq: 3, hash: textHash(before)}}},
	}}
	doc := func(path string, before []byte) Doc {
		return Doc{Path: path, Text: newer, Before: func() ([]byte, bool) { return before, true }}
	}
	cases := []struct {
		name  string
		docs  []Doc
		floor uint64
		want  uint64
	}{
		{"no text before shown", []Doc{doc(p, before)}, 0, 0},
		{"the older hook's text", []Doc{doc(p, before)}, 2, 5},
		{"from after it", []Doc{doc(p, before)}, 6, 7},
		{"a document not changed", []Doc{{Path: q, Text: before}}, 2, 0},
		// A changed file of another root, sent to this server: its
		// importers here have no other server to tell of them.
		{"a mirror", []Doc{{Path: p, Text: newer, Mirror: true, Before: func() ([]byte, bool) { return before, true }}}, 2, 5},
	}
	for _, tc := range cases {
		if got := c.changeSentAfter(tc.docs, tc.floor); got != tc.want {
			t.Errorf("%s: changeSentAfter = %d, want %d", tc.name, got, tc.want)
		}
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
		// A prewarm read the change from disk before its hook came: the
		// change reached the server with the warm-up's version.
		{"a warm-up's open of this text", 0, []sentVersion{{version: 1, mark: 4, changes: true, warmUp: true, hash: 7, at: now}, {version: 5, mark: 20, hash: 7, at: now}}, 4},
		// A prewarm opened the text before an earlier hook, which another
		// check answered under a later version: not this change.
		{"a warm-up's open of another text", 0, []sentVersion{{version: 1, mark: 4, changes: true, warmUp: true, hash: 6, at: now},
			{version: 2, mark: 5, warmUp: true, forced: true, hash: 6, at: now}, {version: 5, mark: 20, changes: true, hash: 7, at: now}}, 20},
	}
	for _, tc := range cases {
		c := &Client{docs: map[string]*document{uri: {delivered: tc.delivered, sent: tc.sent}}, watched: map[string]sentWatch{}, log: slog.New(slog.DiscardHandler)}
		if got := c.baseMark(map[string]int32{uri: 5}, 23); got != tc.want {
			t.Errorf("%s: baseMark = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestBeforeWhileItsCheckRuns: what the server said of another file while
// that file's own check was in flight is no baseline — gopls can first
// publish a file it was just sent with no diagnostics, and taking that
// empty list as the file's state before made its old error "introduced"
// (make test, TestLoadConcurrentHooks/warm_daemon: a ghost); the file's
// current diagnostics are its baseline then. Once its check has ended,
// what the server said is a baseline again, so an error the change
// introduced there is still told.
func TestBeforeWhileItsCheckRuns(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "file06.go")
	uri := pathToURI(other)
	old := Diagnostic{Range: Range{Start: Position{Line: 4, Character: 30}}, Severity: 1, Message: json.RawMessage(`"undefined: undefGo06"`)}
	added := Diagnostic{Range: Range{Start: Position{Line: 5, Character: 1}}, Severity: 1, Message: json.RawMessage(`"undefined: Value04"`)}
	v := func(n int32) *int32 { return &n }
	type step struct {
		publish  []Diagnostic // published for the other file, as the next arrival
		version  *int32
		checking int  // +1: the other file's own check begins; -1: it ends
		warmUp   bool // that check is a warm-up's (Doc.WarmUp: its answer reaches no agent)
	}
	cases := []struct {
		name  string
		steps []step // before the check's mark, taken after them
		now   []Diagnostic
		want  []string // the baseline's messages
	}{
		{"no check of it", []step{{publish: []Diagnostic{old}}}, []Diagnostic{old, added},
			[]string{"undefined: undefGo06"}},
		{"its check's empty first word at mark", []step{{publish: []Diagnostic{old}}, {checking: +1}, {publish: []Diagnostic{}, version: v(1)}},
			[]Diagnostic{old}, []string{"undefined: undefGo06"}},
		{"its check in flight, an error added", []step{{publish: []Diagnostic{old}}, {checking: +1}, {publish: []Diagnostic{}, version: v(1)}},
			[]Diagnostic{old, added}, []string{"undefined: Value04", "undefined: undefGo06"}},
		{"its check ended before mark", []step{{publish: []Diagnostic{old}}, {checking: +1}, {publish: []Diagnostic{}, version: v(1)}, {publish: []Diagnostic{old}, version: v(1)}, {checking: -1}},
			[]Diagnostic{old, added}, []string{"undefined: undefGo06"}},
		{"its check began and ended with nothing arriving", []step{{publish: []Diagnostic{old}}, {checking: +1}, {checking: -1}},
			[]Diagnostic{old, added}, []string{"undefined: undefGo06"}},
		// A warm-up's answer reaches no agent: the error the change added
		// there is this check's to tell (make test's soak, seed
		// 4301323269619798994, Go #5: a false clean while a prewarm's
		// check of the test file ran).
		{"a warm-up's check of it in flight", []step{{publish: []Diagnostic{old}}, {checking: +1, warmUp: true}},
			[]Diagnostic{old, added}, []string{"undefined: undefGo06"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(config.Server{Name: "gopls"}, dir, slog.New(slog.DiscardHandler))
			for _, s := range tc.steps {
				switch {
				case s.checking != 0:
					c.markUpdating([]Doc{{Path: other, WarmUp: s.warmUp}}, s.checking)
				default:
					c.store.publish(PublishDiagnosticsParams{URI: uri, Version: s.version, Diagnostics: s.publish})
				}
			}
			mark, _ := c.store.mark()
			if msgs := baselineAfter(c, mark, other, tc.now); !slices.Equal(msgs, tc.want) {
				t.Errorf("baseline of file06.go = %q, want %q", msgs, tc.want)
			}
		})
	}
}

// TestBeforeSyncedSince: another file a check other than a warm-up sent a
// version of after the mark has its current diagnostics as baseline while
// that check runs (its errors are that check's to tell), and what that
// check told once it has ended; versions a warm-up sent make no
// difference — a prewarm's re-checks of a caller while the change of its
// callee went out made the caller's new error look old (the soak, seed
// 278276786903321841, Go #3: a missed caller).
func TestBeforeSyncedSince(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "jobs.go")
	uri := pathToURI(other)
	old := Diagnostic{Range: Range{Start: Position{Line: 34, Character: 9}}, Severity: 1, Message: json.RawMessage(`"flights.Forget undefined"`)}
	added := Diagnostic{Range: Range{Start: Position{Line: 34, Character: 9}}, Severity: 1, Message: json.RawMessage(`"flights.ForgetKey undefined"`)}
	cases := []struct {
		name    string
		after   []sentVersion // sent after the mark
		told    []Diagnostic  // what that check answered, when it ended after the mark (nil: it has not)
		running bool          // a check of it is in flight now
		want    []string      // the baseline's messages
	}{
		{"nothing sent since", nil, nil, false, []string{"flights.Forget undefined"}},
		{"a warm-up's re-checks since", []sentVersion{{version: 2, warmUp: true, forced: true}, {version: 3, warmUp: true, forced: true}}, nil, false,
			[]string{"flights.Forget undefined"}},
		{"a hook's check since, running", []sentVersion{{version: 2, changes: true}}, nil, true, []string{"flights.ForgetKey undefined"}},
		{"a hook's check, then a warm-up's", []sentVersion{{version: 2}, {version: 3, warmUp: true, forced: true}}, nil, true, []string{"flights.ForgetKey undefined"}},
		// The caller's own hook answered before the callee's change
		// reached the server, clean: the error is the callee's to tell
		// (TestConcurrentCallerAndCallee).
		{"a hook's check since, ended clean", []sentVersion{{version: 2, changes: true}}, []Diagnostic{}, false, nil},
		{"a hook's check since, ended telling the error", []sentVersion{{version: 2, changes: true}}, []Diagnostic{added}, false, []string{"flights.ForgetKey undefined"}},
		{"a hook's check ended clean, another running", []sentVersion{{version: 2, changes: true}, {version: 3}}, []Diagnostic{}, true, []string{"flights.ForgetKey undefined"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(config.Server{Name: "gopls"}, dir, slog.New(slog.DiscardHandler))
			c.store.publish(PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{old}})
			mark, _ := c.store.mark()
			d := &document{path: other, version: 1, sent: []sentVersion{{version: 1, mark: mark, changes: true}}}
			for _, s := range tc.after {
				s.mark = mark + 1
				d.sent = append(d.sent, s)
			}
			c.docs[uri] = d
			if tc.told != nil {
				c.told[uri] = told{lists: [][]Diagnostic{tc.told}, at: mark + 1}
			}
			if tc.running {
				c.checking[other] = []span{{from: mark, n: 1}}
			}
			if msgs := baselineAfter(c, mark, other, []Diagnostic{added}); !slices.Equal(msgs, tc.want) {
				t.Errorf("baseline of jobs.go = %q, want %q", msgs, tc.want)
			}
		})
	}
}

// baselineAfter has the server publish now for the file other after mark
// (the change's answer), and returns the messages, sorted, of the
// baseline before gives that file for a check whose mark is mark and
// whose server had answered whole before it.
func baselineAfter(c *Client, mark uint64, other string, now []Diagnostic) []string {
	uri := pathToURI(other)
	c.store.publish(PublishDiagnosticsParams{URI: uri, Diagnostics: now})
	cur := c.merge(other, uri, [][]Diagnostic{now})
	got, _ := c.before(baseline{mark: mark, touchedAt: 1, changed: func() []string { return nil }}, map[string][]diag.Diagnostic{other: cur})
	var msgs []string
	for _, d := range got[other] {
		msgs = append(msgs, d.Message)
	}
	slices.Sort(msgs)
	return msgs
}

// TestChangesText: a document changes its text when its text before
// differs from its text (read from disk when nil); a text before that is
// unknown, or the same, is no change — unless the session changed the
// file before (Revisited: a revert to git HEAD's text is a change).
func TestChangesText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(path, []byte("package a // now\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := func(text string, ok bool) func() ([]byte, bool) {
		return func() ([]byte, bool) { return []byte(text), ok }
	}
	tests := []struct {
		name string
		doc  Doc
		want bool
	}{
		{"no text before asked", Doc{Path: path}, false},
		{"no text before asked, revisited", Doc{Path: path, Revisited: true}, false},
		{"text before differs", Doc{Path: path, Text: []byte("b"), Before: before("a", true)}, true},
		{"text before differs from the disk's", Doc{Path: path, Before: before("package a // then\n", true)}, true},
		{"text before the same", Doc{Path: path, Text: []byte("a"), Before: before("a", true)}, false},
		{"text before unknown or HEAD's", Doc{Path: path, Text: []byte("a"), Before: before("", false)}, false},
		{"text before unknown or HEAD's, revisited", Doc{Path: path, Text: []byte("a"), Before: before("", false), Revisited: true}, true},
	}
	for _, tt := range tests {
		if got := changesText(tt.doc); got != tt.want {
			t.Errorf("%s: changesText = %v, want %v", tt.name, got, tt.want)
		}
	}
}
