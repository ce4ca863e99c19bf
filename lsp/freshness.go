package lsp

import (
	"hash/maphash"
	"time"
)

// This file is the freshness rule of one document: given the versions the
// client sent and what the server answered, is a check of the document
// done, and with what? It is a pure function (judge) that the wait in
// Update consults on every arrival, so each race agents produce is a row of
// its table test:
//
//   - The watcher sent the new text before the hook came (version v), and
//     the hook's text is the same (version v+1): the server may never
//     answer v+1 (clangd publishes nothing for an unchanged text), so an
//     answer for v counts. Versions whose texts are equal and consecutive
//     form a run; an answer for any version of the check's run, sent after
//     the run began, describes the check's text.
//   - Two hooks on one file, with different texts: the later version's
//     answer is never taken by the check of the earlier one, nor the
//     reverse (a push carries its version; a pull report the version it
//     was sent for). When a version with another text was sent after the
//     check's own before its answer came, the check is superseded and says
//     so: its answer may never come (the server skips straight to the
//     newer text), and waiting out the budget would look like a timeout.
//     When the newest text sent is another one, the check is superseded
//     even with its answer in: that answer is no longer the file's state,
//     and the other files' answers may be about either text.
//   - The file on disk changed under a check of text read from it (a
//     newer write whose hook has not come yet, or a read that caught a
//     write half done): superseded when the check ends (Update).
//   - A document closed (its file deleted) or opened anew (versions start
//     again at 1) under a check: superseded too.

// sentVersion is one version of an open document as the client sent it:
// its number, a hash of its text, the store's arrival number just before
// it went out (anything about it arrives later), and when.
type sentVersion struct {
	version int32
	hash    uint64
	mark    uint64
	at      time.Time
	// forced marks a version sent again to force a fresh pass over the
	// same text (Doc.Recheck, config.Server.RecheckUnloaded): it begins a
	// run of its own, so no answer to an earlier version counts for it
	// (while its answer counts for the earlier versions of the same text).
	forced bool
	// seq is the client's send count with this version (Client.sends):
	// the order of everything sent, where mark only orders arrivals.
	seq uint64
	// changes says the version changed what the server sees: a text
	// other than the one sent before, or a document opened — unless a
	// re-check opened it with its file's text (an importer of a changed
	// file: whatever else uses it read that same text from the file). A
	// changed file's own first open changes what the server sees even
	// with the text on disk: the server may have read the file before it
	// changed (clangd's preambles of its importers), and the watcher may
	// not have told it yet.
	changes bool
	// warmUp marks a version a warm-up sent (Doc.WarmUp): its answer
	// reaches no agent, so it makes no file "synced since" a check's
	// mark (openAt).
	warmUp bool
}

// sentHistory is how many sent versions a document keeps: enough for every
// check still waiting on it (a check is superseded once its version has
// left the history).
const sentHistory = 16

// textSeed keys textHash; it only has to be the same within one daemon.
var textSeed = maphash.MakeSeed()

// textHash is the hash of a document text that the freshness rule compares.
func textHash(b []byte) uint64 { return maphash.Bytes(textSeed, b) }

// docState is where the check of one document stands.
type docState int

const (
	docWaiting    docState = iota // no answer for the check's text yet
	docFresh                      // an answer for the check's text arrived
	docSuperseded                 // the server moved on to another text, or the document closed, before an answer came
)

// verdict is judge's answer: the state, and when fresh, the push and pull
// reports that make up the answer (push nil when only pulls count).
type verdict struct {
	state docState
	push  *publication
	pulls []pullReport
}

// run is the check's run of equal texts among the sent versions: versions
// lo..hi (inclusive) have the check's text; mark and at are when lo was
// sent; next is the arrival number when the first later version with
// another text was sent (0 when there is none); overtaken says the newest
// version sent has another text than the run's.
type run struct {
	lo, hi    int32
	mark      uint64
	seq       uint64 // the client's send count with the run's first version (sentVersion.seq)
	at        time.Time
	next      uint64
	overtaken bool
}

// findRun returns the run of sent holding version v, and false when v is
// no longer in sent (the document was closed or re-opened, or v left the
// history).
func findRun(sent []sentVersion, v int32) (run, bool) {
	i := -1
	for j, s := range sent {
		if s.version == v {
			i = j
			break
		}
	}
	if i < 0 {
		return run{}, false
	}
	lo, hi := i, i
	for lo > 0 && !sent[lo].forced && sent[lo-1].hash == sent[i].hash {
		lo--
	}
	for hi+1 < len(sent) && sent[hi+1].hash == sent[i].hash {
		hi++ // a later forced version of the same text answers this one too
	}
	r := run{lo: sent[lo].version, hi: sent[hi].version, mark: sent[lo].mark, seq: sent[lo].seq, at: sent[lo].at,
		overtaken: sent[len(sent)-1].hash != sent[i].hash}
	if hi+1 < len(sent) {
		r.next = sent[hi+1].mark
	}
	return r, true
}

// judge decides the check of version v of a document, from the versions
// sent (oldest first) and the store's answers for it: pushes (oldest
// first), the pull reports, whether a pull is in flight, and whether the
// server ties pushes to versions (store.versioned).
//
// A push counts when it arrived after the run began and is tied to a
// version of the run — or, from a server that does not version its pushes,
// when it arrived after the run began and before another text was sent.
// Once the server has shown it versions pushes, an unversioned push for an
// open document is left over from before it was opened (gopls publishes
// closed files without a version) and never counts. A pull report counts
// when no pull is in flight, it arrived after the run began, and it was
// sent for a version of the run. The newest push that counts is the
// answer, with every pull report that counts.
//
// A check whose text is no longer the newest one sent is superseded, even
// when its own answer came: the answer describes a text the file no longer
// has, and what the server says of the other files by then may already be
// about the newer text, or still about the older one (the newer check
// reports both). Update judges each answered document once more when its
// wait ends, so an answer overtaken before the check returns is never
// shown as the file's state.
func judge(sent []sentVersion, v int32, pushes []publication, pulls []pullReport, pulling, versioned bool) verdict {
	r, ok := findRun(sent, v)
	if !ok || r.overtaken {
		return verdict{state: docSuperseded}
	}
	var out verdict
	for i := len(pushes) - 1; i >= 0; i-- {
		p := pushes[i]
		if p.seq <= r.mark {
			break
		}
		if p.version != nil && *p.version >= r.lo && *p.version <= r.hi ||
			p.version == nil && !versioned && (r.next == 0 || p.seq <= r.next) {
			out.push = &p
			break
		}
	}
	if !pulling {
		for _, rep := range pulls {
			if rep.seq > r.mark && rep.version >= r.lo && rep.version <= r.hi {
				out.pulls = append(out.pulls, rep)
			}
		}
	}
	switch {
	case out.push != nil || len(out.pulls) > 0:
		out.state = docFresh
	case r.next != 0:
		out.state = docSuperseded
	}
	return out
}

// forceOutdatedRuns sends again, as forced versions, the changed documents
// (want: URI → version sent) whose text is unchanged since before another
// document was sent or a watched-file event went out: an answer to their
// run may predate that change (a header restored by `git checkout`, after
// which clangd's answer for the unchanged .c file still saw the old
// header), so only an answer to a new version counts. want is updated.
func (c *Client) forceOutdatedRuns(docs []Doc, want map[string]int32) {
	var outdated []Doc
	c.mu.Lock()
	for _, d := range docs {
		uri := pathToURI(d.Path)
		doc, ok := c.docs[uri]
		if !ok {
			continue
		}
		r, ok := findRun(doc.sent, want[uri])
		if ok && r.lo < want[uri] && c.changedSinceLocked(uri, r.seq) {
			outdated = append(outdated, Doc{Path: d.Path, Text: doc.text, Recheck: true})
		}
	}
	c.mu.Unlock()
	for _, d := range outdated {
		if uri, v, err := c.sync(d); err == nil {
			want[uri] = v
		}
	}
}

// changedSinceLocked reports whether a document other than uri was sent a
// new text (not the same text again, as a forced re-check sends it), or a
// watched-file event went out, after the client's send count was seq —
// the order of sends, not of the store's arrivals: two texts sent with no
// answer arriving between them share a mark, and a caller whose text went
// out (the watcher's re-sync) just before its callee's was taken to have
// seen the callee's change (TestConcurrentCallerAndCallee, the caller's own
// answer stale in 8 of 50 runs). c.mu must be held.
func (c *Client) changedSinceLocked(uri string, seq uint64) bool {
	for other, d := range c.docs {
		if other == uri {
			continue
		}
		for i := len(d.sent) - 1; i >= 0 && d.sent[i].seq > seq; i-- {
			if d.sent[i].changes {
				return true
			}
		}
	}
	for _, w := range c.watched {
		if w.seq > seq {
			return true
		}
	}
	return false
}
