package lsp

import (
	"bytes"
	"context"
	"os"
	"slices"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
)

// This file is the baseline of a change's other files: what the server
// said of them before the change reached it, to tell what the change
// introduced there (output.other_files: introduced). A change can reach
// the server before its check: the workspace watcher passes a write on —
// a didChange for an open document (a run of equal texts, freshness.go),
// a workspace/didChangeWatchedFiles event for a closed one — as soon as it
// sees it, and the server re-publishes the files the change broke at
// once. The baseline is taken from before the earliest of these.

// watchedWindow bounds how far back a watched-file event can move a
// check's baseline: the write an agent's hook reports happened moments
// before the hook.
const watchedWindow = 30 * time.Second

// maxWatched bounds the watched-file events a client remembers.
const maxWatched = 4096

// sentWatch is a watched-file event sent for a file: the store's arrival
// number before it went out, and when.
type sentWatch struct {
	mark uint64
	seq  uint64 // the client's send count with the event (Client.sends)
	at   time.Time
}

// noteWatched remembers the watched-file events about to be sent.
func (c *Client) noteWatched(changes []fileEventWire) {
	mark, _ := c.store.mark()
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.watched) >= maxWatched {
		clear(c.watched)
	}
	c.sends++ // a watched-file event, too, can cut a server's pass short (sendCount)
	c.changed = c.sends
	for _, ch := range changes {
		c.watched[ch.URI] = sentWatch{mark: mark, seq: c.sends, at: now}
	}
}

// baseMark returns the arrival number from before the changed documents
// (want) reached the server: mark (the beginning of their runs of equal
// texts), or earlier when, within watchedWindow, the watcher sent a
// watched-file event for one of them, or a version of one was sent whose
// check told nothing (superseded by this one, or a watcher's re-sync no
// check answered: the first version after the last one a check answered
// fresh, document.delivered). A warm-up's version reaches back only with
// this check's text — a prewarm that read the change from disk before its
// hook came; one with another text did not carry the change, and
// reaching back to it took a prewarm's open of the text before an
// earlier hook as the baseline of a later one, past the check that fixed
// the callers (the soak, seed 278276786903321841, Go #165: the callers'
// new errors were then "synced since" by that check, a false clean). A
// forced re-check of the same text (a check's own re-ask:
// forceOutdatedRuns, recheckUnloaded) changed nothing the server knew and
// is no reason to reach back: doing so put a revert's
// baseline before the check that fixed its callers, whose later sends
// made before() take the callers' diagnostics after the change as their
// baseline (make test's soak, seed 419546779337726231, Go #3: a false
// clean). A plain re-send of the same text (another hook of the same
// file) still is: reaching back past it keeps concurrent hooks' other
// files "synced since" (before), whose baseline would otherwise be the
// answer to a re-send in flight, which gopls can first give empty
// (TestLoadConcurrentHooks: a ghost). The watched-file events it used are
// forgotten.
func (c *Client) baseMark(want map[string]int32, mark uint64) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	for uri := range want {
		if w, ok := c.watched[uri]; ok {
			delete(c.watched, uri)
			if time.Since(w.at) <= watchedWindow && w.mark < mark {
				c.log.Debug("baseline reaches back to a watched-file event", "uri", uri, "mark", mark, "to", w.mark)
				mark = w.mark
			}
		}
		d, ok := c.docs[uri]
		if !ok {
			continue
		}
		ours, known := d.sentVersion(want[uri])
		for _, s := range d.sent {
			if s.warmUp && known && s.hash != ours.hash {
				continue // a warm-up's other text: not this change, reaching the server early
			}
			if s.version > d.delivered && (s.changes || !s.forced) {
				if time.Since(s.at) <= watchedWindow && s.mark < mark {
					c.log.Debug("baseline reaches back to an undelivered version", "uri", uri, "mark", mark, "to", s.mark,
						"version", s.version, "delivered", d.delivered, "changes", s.changes, "forced", s.forced, "warm_up", s.warmUp)
					mark = s.mark
				}
				break
			}
		}
	}
	return mark
}

// maxSpans bounds the spans of checks in flight a client keeps per file.
const maxSpans = 4

// span is when a file's checks were in flight, as the store's arrival
// numbers: from the first check's start (from) to the last one's end (to),
// open while one runs (n counts them). Overlapping checks of a file make
// one span.
type span struct {
	from, to uint64
	n        int
}

// noteCheckingLocked records, for path, that a check of it began (delta
// +1) or ended (-1) at the store's arrival number mark: a span opens when
// the first begins and closes when the last ends. It keeps maxSpans spans
// per file, and the spans of at most maxWatched files (all are forgotten
// past that: a file then has no span, as before any check). c.mu must be
// held.
func (c *Client) noteCheckingLocked(path string, delta int, mark uint64) {
	spans := c.checking[path]
	open := len(spans) > 0 && spans[len(spans)-1].n > 0
	switch {
	case delta > 0 && open:
		spans[len(spans)-1].n += delta
	case delta > 0:
		if _, ok := c.checking[path]; !ok && len(c.checking) >= maxWatched {
			clear(c.checking)
		}
		if len(spans) == maxSpans {
			spans = slices.Delete(spans, 0, 1)
		}
		c.checking[path] = append(spans, span{from: mark, n: delta})
	case open:
		last := &spans[len(spans)-1]
		if last.n += delta; last.n <= 0 {
			last.n, last.to = 0, mark
		}
	}
}

// checkingAt reports whether a check of path was in flight when the
// store's arrival number was mark, and something arrived during it after
// mark: what the server had said of the file then may be a pass's first
// word, not its answer — gopls can publish a file it was just sent under
// the new version with no diagnostics before the pass for that version
// has run (passes_test.go).
func (c *Client) checkingAt(path string, mark uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.checking[path] {
		if s.from <= mark && (s.n > 0 || s.to > mark) {
			return true
		}
	}
	return false
}

// told is what a check whose answer reaches an agent said of one of its
// documents: the lists of diagnostics it answered with (a push, pull
// reports), and the store's arrival number when it ended.
type told struct {
	lists [][]Diagnostic
	at    uint64
}

// noteDelivered records that a check answered the documents of fresh at
// the versions of want, and what it said of each of its changed
// documents (told; not of the importers it re-checked, rechecked, whose
// answer tells only what the change introduced; for at most maxWatched
// documents, all forgotten past that).
func (c *Client) noteDelivered(fresh map[string]verdict, want map[string]int32, rechecked map[string]bool) {
	at, _ := c.store.mark()
	c.mu.Lock()
	defer c.mu.Unlock()
	for uri, vd := range fresh {
		if d, ok := c.docs[uri]; ok && want[uri] > d.delivered {
			d.delivered = want[uri]
		}
		if rechecked[uri] {
			continue
		}
		if _, ok := c.told[uri]; !ok && len(c.told) >= maxWatched {
			clear(c.told)
		}
		var lists [][]Diagnostic
		if vd.push != nil {
			lists = append(lists, vd.push.diagnostics)
		}
		for _, r := range vd.pulls {
			lists = append(lists, r.items)
		}
		c.told[uri] = told{lists: lists, at: at}
	}
}

// toldAfter returns what the last check of path whose answer reaches an
// agent said of it, when that check ended after mark and none of path is
// in flight now: a check still running will say what it finds, one that
// ended has said all it will.
func (c *Client) toldAfter(path, uri string, mark uint64) ([][]Diagnostic, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if spans := c.checking[path]; len(spans) > 0 && spans[len(spans)-1].n > 0 {
		return nil, false
	}
	t, ok := c.told[uri]
	if !ok || t.at <= mark {
		return nil, false
	}
	return t.lists, true
}

// baseline is what a check knows of when its change reached the server,
// to find the other files' state before it (Client.before).
type baseline struct {
	// mark is the store's arrival number before the change reached the
	// server: what had arrived by then was said before it (baseMark).
	mark uint64
	// floor is the client's send count with showBefore's first send of
	// the text before the change (sentVersion.seq; 0 when it sent none).
	// Before it the server had another text of the changed documents — a
	// prewarm's, read from disk, may be the changed one — so an answer
	// about a re-checked importer given before the server had it is no
	// baseline (saidAfter), even one that came after: clangd does not
	// re-check other translation units when a header's buffer changes,
	// and a pull asked before is answered after.
	floor uint64
	// ceiling is the client's first send after floor of a changed
	// document's text other than its text before (changeSentAfter; 0
	// when floor is 0 or there was none): an answer about a re-checked
	// importer asked once it went out may already know the change
	// (saidBefore).
	ceiling uint64
	// touchedAt is the store's arrival number when the server first gave
	// a whole answer (Client.touchedAt, or showBefore's), 0 when it has
	// not.
	touchedAt uint64
	// importers holds the URIs of the importers of changed files this
	// check re-checked.
	importers map[string]bool
	// changed returns the paths of the check's documents when one of
	// them changes a text (changedTexts), asked only when needed.
	changed func() []string
	// blind holds the changed files the server may have read from disk
	// as it started (olderThanServer) and that showBefore could not show
	// it as they were before the change: all it said of the files they
	// can reach may already know the change.
	blind []string
}

// before returns, for each file of others, what the server had said of it
// at b.mark (store.asOf) — the baseline that tells what a change
// introduced there; a file left out had nothing wrong. A file the server
// had said nothing of had nothing wrong when it is an importer of a
// changed file this check re-checked (b.importers: the callers a change
// breaks; better a pre-existing error shown than a broken caller missed),
// or when it was not open then (an open document's answer may just not
// have come yet), the server diagnoses files it does not have open
// (config.Server.OpenDependents false: gopls), and it had given a whole
// answer by mark (b.touchedAt; a check whose run of equal texts began
// before the server's first answer — the warm-up's text, hooked again —
// has no such answer behind its baseline). A re-checked importer whose
// answer was given before the server had the text before (b.floor), or
// a pull answer worked out once a changed text had gone out after it
// (b.ceiling), counts as said nothing of. Otherwise a file's state
// before is unknown, and so is a file synced since mark by another
// check, or whose own check was in flight at mark (checkingAt: what the
// server had said of it then may be a pass's empty first word;
// TestLoadConcurrentHooks, a ghost) —
// its errors are that check's: once that check has ended, what it told is
// the baseline (toldAfter: it may have answered before this change reached
// the server, and an error it did not tell is this change's to tell;
// TestConcurrentCallerAndCallee, a false clean), else its current
// diagnostics; all the other unknown ones get their current diagnostics
// as baseline, so that nothing in them counts as introduced —
// except, for a server that had given no whole answer by mark, a file the
// check's change can reach (brokenBy) when the check changes a text
// (b.changed). Then everything the server said of it may already know
// the change: a prewarm that read the changed file from disk answered
// first, or sent it while showBefore waited for the text before the
// change. Hiding its errors as old would be a false clean, so it has no
// baseline (TestPrewarmRacesFirstEdit).
//
// A file a change can reach has no baseline either when the server may
// have read that change from disk as it started and could not be shown
// the text before it (b.blind): what it said of the file since, at any
// mark, may know the change (TestChangeOlderThanServer).
//
// sure holds the files whose baseline is what the server said before the
// change (or nothing it said), not a stand-in: their current diagnostics,
// or no baseline at all.
func (c *Client) before(b baseline, others map[string][]diag.Diagnostic) (out map[string][]diag.Diagnostic, sure map[string]bool) {
	touched := b.touchedAt != 0 && b.touchedAt <= b.mark
	out = make(map[string][]diag.Diagnostic)
	sure = make(map[string]bool)
	for path, cur := range others {
		uri := pathToURI(path)
		lists, bases, known := c.store.asOf(uri, b.mark)
		openAt, syncedSince := c.openAt(uri, b.mark)
		var why string
		switch {
		case len(b.blind) > 0 && c.brokenBy(path, b.blind):
			why = "the server may have read the change as it started: none"
		case b.importers[uri] && known && c.saidAfter(uri, bases, b.floor) && saidBefore(bases, b.ceiling):
			out[path], why = c.merge(path, uri, lists), "a re-checked importer: said at mark"
			sure[path] = true
		case b.importers[uri]:
			why = "a re-checked importer: none"
			sure[path] = true
		case syncedSince || c.checkingAt(path, b.mark):
			// Its errors are its own check's to tell: what that check
			// said, when it has ended; else what it will find.
			if lists, ok := c.toldAfter(path, uri, b.mark); ok {
				out[path], why = c.merge(path, uri, lists), "synced since mark or its check in flight: what its check told"
				sure[path] = true
			} else {
				out[path], why = cur, "synced since mark or its check in flight: current"
			}
		case known:
			out[path], why = c.merge(path, uri, lists), "said at mark"
			sure[path] = true
		case openAt || c.server.OpenDependents:
			out[path], why = cur, "unknown, open at mark: current"
		case !touched && (b.changed() == nil || !c.brokenBy(path, b.changed())):
			out[path], why = cur, "unknown, before a whole answer: current"
		default:
			why = "unknown: none"
		}
		c.log.Debug("baseline of another file", "path", path, "mark", b.mark, "floor", b.floor, "ceiling", b.ceiling, "bases", bases,
			"baseline", why, "before", len(out[path]), "now", len(cur))
	}
	return out, sure
}

// olderThanServer returns the paths of the changed documents of docs
// (those with a Doc.Before, not a Mirror) whose file was last written
// before the server's first answer (store.firstAnswer; none when it has
// given none), that no check has answered to an agent since
// (document.delivered), and whose text before differs from their text
// (changesText). The server may have read their changed text from disk
// as it loaded the workspace — gopls diagnoses every package it loads,
// open or not — so what it has said of other files, a prewarm's answer
// or another file's check, may already know the change, and is no
// baseline of what the change introduced there. Their hook came late: a
// Bash edit, a slow hook runner, the other hook of parallel tool calls
// starting the daemon (TestChangeOlderThanServer; make test's soak, seed
// 5339203591661381269, Go #11). A file whose text is its git HEAD's, or
// whose text before is unknown, is taken as unchanged, as everywhere
// else: 50 hooks at once of files committed as they are would otherwise
// each list the others' old errors (TestLoadConcurrentHooks). A file
// system whose modification times are coarse (FAT's 2 s, HFS+'s 1 s)
// rounds them down: a write just after the answer may be listed too,
// which costs showBefore's round trip, never a baseline.
func (c *Client) olderThanServer(docs []Doc) []string {
	first := c.store.firstAnswer()
	if first.IsZero() {
		return nil
	}
	var out []string
	for _, d := range docs {
		if d.Before == nil || d.Mirror {
			continue
		}
		fi, err := os.Stat(d.Path)
		if err != nil || !fi.ModTime().Before(first) {
			continue
		}
		c.mu.Lock()
		doc, open := c.docs[pathToURI(d.Path)]
		delivered := open && doc.delivered > 0
		c.mu.Unlock()
		if !delivered && changesText(d) {
			out = append(out, d.Path)
		}
	}
	return out
}

// unshowableChanged returns the paths of the changed documents of docs
// whose text before the server cannot be shown as it was
// once it loaded the changed text from disk: one it takes only as saved
// (config.Server.SavedOnlyFiles) whose text before differs from its text
// (changesText) — a server that loads the workspace reads it from disk,
// changed — and a Go file whose build constraint differs from the one its
// text before had (constraintChanged): gopls builds its packages' files
// from what it loaded from disk, and an open document's constraint does
// not take the file back into its package or out of it (the soak's
// constraint-added, Go: a cold gopls shown helpers.go's text before, with
// no constraint, kept it out of package jobs and jobs.go's call of scale
// undefined, which then stood as jobs.go's baseline: a false clean), or
// other //go:embed patterns (go list reads them on disk):
// diskReadChangedFrom.
func (c *Client) unshowableChanged(docs []Doc) []string {
	var out []string
	for _, d := range docs {
		if d.Mirror {
			continue
		}
		if c.server.IsSavedOnly(d.Path) && changesText(d) || c.diskReadChangedFrom(d) {
			out = append(out, d.Path)
		}
	}
	return out
}

// diskReadChangedFrom reports whether d's text differs from its text
// before, when that is known, in what a Go server reads from the file on
// disk whatever it was shown: its build constraint (constraintChanged,
// for a server that re-checks such files: RecheckUnloaded) or its
// //go:embed patterns (GoEmbedPatterns, for one that reloads embedding
// packages: EmbedReloadCommand).
func (c *Client) diskReadChangedFrom(d Doc) bool {
	if d.Before == nil || !isGoFile(d.Path) || !c.server.RecheckUnloaded && c.server.EmbedReloadCommand == "" {
		return false
	}
	before, ok := d.Before()
	if !ok {
		return false
	}
	text, ok := docText(d)
	return ok && (c.constraintChanged(d.Path, before, text) ||
		c.server.EmbedReloadCommand != "" && !slices.Equal(embedPatterns(before), embedPatterns(text)))
}

// addBlindOthers adds to out.Others the errors the server has published,
// since it started, in the files the blind changes can reach (brokenBy)
// and that out does not hold yet. The server read those changes from disk
// as it loaded, so what it said of those files then was already their
// answer, and it may say nothing again: gopls publishes a file when its
// diagnostics change, and a text it loaded — or a go.mod, which it reads
// only as saved (config.Server.SavedOnlyFiles) — changes none
// (TestSavedOnlyChangeOlderThanServer: a go.mod lowered to go 1.20 before
// another file's hook started gopls, whose load published the file the
// change broke, and nothing after). A server that diagnoses open files
// only re-checks the importers instead. A file with nothing wrong adds
// nothing.
func (c *Client) addBlindOthers(out *Outcome, blind []string) {
	skip := make(map[string]bool, len(out.Files)+len(out.Others))
	for p := range out.Files {
		skip[p] = true
	}
	for p := range out.Others {
		skip[p] = true
	}
	c.addReachable(out.Others, skip, blind)
}

// addReachable adds to others the errors the server has published since
// it started in each file, neither in skip nor in others, that a change
// of changed can reach (brokenBy): what it said of them as it loaded a
// workspace that already held the change (addBlindOthers; a deletion
// older than the server, Manager's re-check after it). A file it said
// nothing wrong of adds nothing, and is not read.
func (c *Client) addReachable(others map[string][]diag.Diagnostic, skip map[string]bool, changed []string) {
	for path, ds := range c.publishedSince(0, skip) {
		if _, have := others[path]; !have && len(ds) > 0 && c.brokenBy(path, changed) {
			others[path] = ds
		}
	}
}

// changedTexts returns the paths of docs when one of them changes a text
// (changesText); else nil.
func changedTexts(docs []Doc) []string {
	if !slices.ContainsFunc(docs, changesText) {
		return nil
	}
	paths := make([]string, len(docs))
	for i, d := range docs {
		paths[i] = d.Path
	}
	return paths
}

// changesText reports whether d changes its document's text: its text
// before (Doc.Before) differs from its text (a nil Text, read from disk
// by sync, is read here too). Unknown is no change — unless the session
// changed the file before (Doc.Revisited): then its text may be one the
// server never had, brought back to git HEAD's (a revert of the
// session's own edit; make soak, seed 6008365553603227565, Go #18: the
// daemon restarted mid-session, and the callers the revert broke were
// hidden as old by a server with no answer to compare with).
func changesText(d Doc) bool {
	if d.Before == nil {
		return false
	}
	before, ok := d.Before()
	if !ok {
		return d.Revisited
	}
	text, ok := docText(d)
	return ok && !bytes.Equal(before, text)
}

// docText is d's text: d.Text, else the file's on disk (ok false when it
// cannot be read).
func docText(d Doc) (text []byte, ok bool) {
	if d.Text != nil {
		return d.Text, true
	}
	b, err := readBounded(d.Path, maxConvertRead)
	return b, err == nil
}

// openAt reports whether the document uri was open when the store's
// arrival number was mark, and whether a check other than a warm-up sent
// it a version after that. A warm-up's answer reaches no agent (a
// prewarm's re-checks of a file go on for a while after its first
// answer): the errors a change put in a file it re-sent are the change's
// to tell (the soak, seed 278276786903321841, Go #3: a missed caller).
func (c *Client) openAt(uri string, mark uint64) (open, syncedSince bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.docs[uri]
	if !ok || len(d.sent) == 0 {
		return false, false
	}
	for i := len(d.sent) - 1; i >= 0 && d.sent[i].mark > mark; i-- {
		if !d.sent[i].warmUp {
			syncedSince = true
			break
		}
	}
	return d.sent[0].mark <= mark, syncedSince
}

// showBefore sends the text before the change (Doc.Before) of each of docs
// that has one to a server that has not answered yet, and waits, for at
// most half of what is left of ctx, for its answers: what it then says of
// the other files is what was wrong before the change. It reports whether
// every such document was answered and no other text was sent while the
// server worked (whole: the server has said what was wrong everywhere:
// see sendCount; a cold server flooded by concurrent hooks has not), the
// client's send count with its first send (floor, 0 when it sent nothing:
// see baseline), and the store's arrival number when it stopped waiting
// (shown, 0 when it sent nothing, or when another text was sent
// meanwhile): what arrived until then was said of the text before the
// change, even where that text is the changed one (an edit that restored
// it), whose run of equal texts then began with showBefore's send. It
// also waits for the pulls of the other open documents: a pull server
// says nothing of them unasked. A document the server takes only as
// saved (config.Server.SavedOnlyFiles: gopls's go.mod) cannot be shown
// its text before: when one changes a text, the answer is not whole.
func (c *Client) showBefore(ctx context.Context, docs []Doc) (whole bool, floor, shown uint64) {
	want := make(map[string]int32)
	unshown := false
	for _, d := range docs {
		if d.Before == nil {
			continue
		}
		if c.server.IsSavedOnly(d.Path) {
			unshown = unshown || changesText(d)
			continue
		}
		before, ok := d.Before()
		if !ok {
			continue
		}
		if uri, v, err := c.sync(Doc{Path: d.Path, Text: before}); err == nil {
			want[uri] = v
			if s := c.sentSeq(uri, v); s != 0 && (floor == 0 || s < floor) {
				floor = s
			}
		}
	}
	if len(want) == 0 {
		return false, floor, 0
	}
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Until(dl)/2)
		defer cancel()
	}
	sends := c.sendCount()
	w := c.waitSent(ctx, want, EditSettle) // the server is cold: every progress counts (waitFresh)
	// A pull server says nothing of the other files unasked: waitSent
	// pulled the other open documents (tsserver's, an inter-file
	// source's), and until those answers come, what the store holds of
	// them was said of an earlier text — a prewarm's, which may be the
	// changed text read from disk. A pull in flight when the text before
	// went out is pulled again after it (startPull), so the wait ends
	// with answers about the text before.
	var others []string
	for _, d := range c.openDocuments() {
		if _, changed := want[d.uri]; !changed {
			others = append(others, d.uri)
		}
	}
	c.store.waitPulled(ctx, others)
	overtaken := c.sendCount() != sends
	c.log.Debug("showed the text before the change", "files", len(want), "answered", len(w.fresh), "overtaken", overtaken, "floor", floor)
	if overtaken {
		// Another check sent while the server worked: what arrived may be
		// about its texts, not the text before the change — a prewarm
		// that read the changed file from disk, whose answers already
		// hold the errors the change made in other files. None of it is
		// a baseline (TestPrewarmRacesFirstEdit).
		return false, floor, 0
	}
	shown, _ = c.store.mark()
	return len(w.fresh) == len(want) && !unshown, floor, shown
}

// saidBefore reports whether each pull answer of bases (store.asOf) was
// worked out before the send numbered ceiling went out (0: any answer):
// its report's since (the request of a "full" report, the referent of an
// "unchanged" one) is below it. A push does not say which texts its
// server had, and passes. Two hooks of one file racing a cold pyright
// (the soak, seed 2827776134180446085, Python #34): both checks' texts
// before were overtaken, and the newer one's baseline for an importer was
// a pull asked after the older one's check had sent the changed text,
// holding the error it made: a missed caller.
func saidBefore(bases []answerBasis, ceiling uint64) bool {
	if ceiling == 0 {
		return true
	}
	for _, b := range bases {
		if b.pulled && b.since >= ceiling {
			return false
		}
	}
	return true
}

// changeSentAfter returns the client's first send after floor (a send
// count) of a text of a changed document of docs (one with Doc.Before)
// other than its text before: 0 when floor is 0 or there was none. A
// changed file of another root (Doc.Mirror) counts as the root's own do:
// showBefore shows its text before to this server too, and the importers
// it breaks here (app/main.py, under pkg/service.py's root) are re-checked
// by this server alone (make soak, seed 5190439362589873575, Python #14:
// leaving mirrors out left the rule below blind to its own race).
func (c *Client) changeSentAfter(docs []Doc, floor uint64) uint64 {
	if floor == 0 {
		return 0
	}
	var first uint64
	for _, d := range docs {
		if d.Before == nil {
			continue
		}
		before, ok := d.Before()
		if !ok {
			continue
		}
		h := textHash(before)
		c.mu.Lock()
		if doc, open := c.docs[pathToURI(d.Path)]; open {
			for _, s := range doc.sent {
				if s.seq > floor && s.hash != h && (first == 0 || s.seq < first) {
					first = s.seq
				}
			}
		}
		c.mu.Unlock()
	}
	return first
}

// saidAfter reports whether each of the answers about uri described by
// bases (store.asOf) was given with the server holding the send numbered
// floor (a send count; 0: any answer): a pull asked once it was sent —
// and, for an "unchanged" report, whose referent was too (pyright answers
// an importer's pull "unchanged" right after the text before the change
// was opened, before it re-checked the importer: the answer a prewarm got
// from the changed file on disk stood as the baseline, a false clean;
// TestPrewarmRacesCrossRoot) — or a push about a version of uri sent with
// it or after. A push without a version, or about a version no longer in
// the document's history, was not.
func (c *Client) saidAfter(uri string, bases []answerBasis, floor uint64) bool {
	if floor == 0 {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range bases {
		switch {
		case b.pulled:
			if b.since < floor { // an "unchanged" report is as old as the one it refers to
				return false
			}
		case b.version == nil:
			return false
		default:
			if seq := c.sentSeqLocked(uri, *b.version); seq == 0 || seq < floor {
				return false
			}
		}
	}
	return true
}

// sentSeq returns the client's send count with version v of uri
// (sentVersion.seq), 0 when it is not in the document's history.
func (c *Client) sentSeq(uri string, v int32) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sentSeqLocked(uri, v)
}

// sentSeqLocked is sentSeq with c.mu held.
func (c *Client) sentSeqLocked(uri string, v int32) uint64 {
	if d, ok := c.docs[uri]; ok {
		for _, s := range d.sent {
			if s.version == v {
				return s.seq
			}
		}
	}
	return 0
}
