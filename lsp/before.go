package lsp

import (
	"bytes"
	"context"
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
		c.watched[ch.URI] = sentWatch{mark: mark, at: now}
	}
}

// baseMark returns the arrival number from before the changed documents
// (want) reached the server: mark (the beginning of their runs of equal
// texts), or earlier when, within watchedWindow, the watcher sent a
// watched-file event for one of them, or a version of one was sent whose
// check told nothing (superseded by this one, or a watcher's re-sync no
// check answered: the first version after the last one a check answered
// fresh, document.delivered). The watched-file events it used are
// forgotten.
func (c *Client) baseMark(want map[string]int32, mark uint64) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	for uri := range want {
		if w, ok := c.watched[uri]; ok {
			delete(c.watched, uri)
			if time.Since(w.at) <= watchedWindow && w.mark < mark {
				mark = w.mark
			}
		}
		d, ok := c.docs[uri]
		if !ok {
			continue
		}
		for _, s := range d.sent {
			if s.version > d.delivered {
				if time.Since(s.at) <= watchedWindow && s.mark < mark {
					mark = s.mark
				}
				break
			}
		}
	}
	return mark
}

// noteDelivered records that a check answered the documents of fresh at
// the versions of want.
func (c *Client) noteDelivered(fresh map[string]verdict, want map[string]int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for uri := range fresh {
		if d, ok := c.docs[uri]; ok && want[uri] > d.delivered {
			d.delivered = want[uri]
		}
	}
}

// before returns, for each file of others, what the server had said of it
// at mark (store.asOf) — the baseline that tells what a change introduced
// there; a file left out had nothing wrong. A file the server had said
// nothing of had nothing wrong when it is an importer of a changed file
// this check re-checked (importers: the callers a change breaks; better a
// pre-existing error shown than a broken caller missed), or when it was
// not open then (an open document's answer may just not have come yet),
// the server diagnoses files it does not have open
// (config.Server.OpenDependents false: gopls), and it had given a whole
// answer by mark (touchedAt, the store's arrival number when it first
// did; 0 when it has not: a check whose run of equal texts began before
// the server's first answer — the warm-up's text, hooked again — has no
// such answer behind its baseline). Otherwise its state before is
// unknown, and so is a file synced since mark by another check (its
// errors are that check's); both get their current diagnostics as
// baseline, so that nothing in them counts as introduced — except, for a
// server that had given no whole answer by mark, a file the check's
// change can reach (brokenBy) when the check changes a text (changed,
// asked only then: the documents, when one's Doc.Before, or else its
// committed text by Doc.Head, differs from its text; else nil).
// Then everything the server said of it may already know the change: a
// prewarm that read the changed file from disk answered first, or sent
// it while showBefore waited for the text before the change. Hiding its
// errors as old would be a false clean, so it has no baseline
// (TestPrewarmRacesFirstEdit).
func (c *Client) before(mark uint64, others map[string][]diag.Diagnostic, touchedAt uint64, importers map[string]bool, changed func() []string) map[string][]diag.Diagnostic {
	touched := touchedAt != 0 && touchedAt <= mark
	out := make(map[string][]diag.Diagnostic)
	for path, cur := range others {
		uri := pathToURI(path)
		lists, known := c.store.asOf(uri, mark)
		openAt, syncedSince := c.openAt(uri, mark)
		switch {
		case importers[uri] && known:
			out[path] = c.merge(path, uri, lists)
		case importers[uri]:
		case syncedSince:
			out[path] = cur
		case known:
			out[path] = c.merge(path, uri, lists)
		case openAt || c.server.OpenDependents:
			out[path] = cur
		case !touched && (changed() == nil || !c.brokenBy(path, changed())):
			out[path] = cur
		}
	}
	return out
}

// changedTexts returns the paths of docs when one of them changes a text:
// its text before the change (Doc.Before, else its committed text by
// Doc.Head) is another (a nil Text, read from disk by sync, is read here
// too); else nil.
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
// before (Doc.Before, else the committed one by Doc.Head) differs from
// its text. Unknown is no change.
func changesText(d Doc) bool {
	before := d.Before
	if before == nil && d.Head != nil {
		head, tracked := d.Head()
		if !tracked {
			return false
		}
		before = head
	}
	if before == nil {
		return false
	}
	text := d.Text
	if text == nil {
		b, err := readBounded(d.Path, maxConvertRead)
		if err != nil {
			return false
		}
		text = b
	}
	return !bytes.Equal(before, text)
}

// openAt reports whether the document uri was open when the store's
// arrival number was mark, and whether it was sent a version after that.
func (c *Client) openAt(uri string, mark uint64) (open, syncedSince bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.docs[uri]
	if !ok || len(d.sent) == 0 {
		return false, false
	}
	return d.sent[0].mark <= mark, d.sent[len(d.sent)-1].mark > mark
}

// showBefore sends the text before the change (Doc.Before) of each of docs
// that has one to a server that has not answered yet, and waits, for at
// most half of what is left of ctx, for its answers: what it then says of
// the other files is what was wrong before the change. It reports whether
// every such document was answered and no other text was sent while the
// server worked (the server has said what was wrong everywhere: see
// sendCount; a cold server flooded by concurrent hooks has not), and the
// store's arrival number when it stopped waiting (0 when it sent nothing,
// or when another text was sent meanwhile): what arrived until then was
// said of the text before the change, even where that text is the
// changed one (an edit that restored it), whose run of equal texts then
// began with showBefore's send.
func (c *Client) showBefore(ctx context.Context, docs []Doc) (whole bool, shown uint64) {
	want := make(map[string]int32)
	for _, d := range docs {
		if d.Before == nil {
			continue
		}
		if uri, v, err := c.sync(Doc{Path: d.Path, Text: d.Before}); err == nil {
			want[uri] = v
		}
	}
	if len(want) == 0 {
		return false, 0
	}
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Until(dl)/2)
		defer cancel()
	}
	sends := c.sendCount()
	w := c.waitSent(ctx, want, EditSettle) // the server is cold: every progress counts (waitFresh)
	overtaken := c.sendCount() != sends
	c.log.Debug("showed the text before the change", "files", len(want), "answered", len(w.fresh), "overtaken", overtaken)
	if overtaken {
		// Another check sent while the server worked: what arrived may be
		// about its texts, not the text before the change — a prewarm
		// that read the changed file from disk, whose answers already
		// hold the errors the change made in other files. None of it is
		// a baseline (TestPrewarmRacesFirstEdit).
		return false, 0
	}
	shown, _ = c.store.mark()
	return len(w.fresh) == len(want), shown
}
