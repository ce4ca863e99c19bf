package lsp

import (
	"context"
	"slices"
	"sync"
	"time"
)

// publication is one textDocument/publishDiagnostics as received: seq is the
// store-wide arrival number (1, 2, …), version the document version the
// server tied it to (nil when it did not).
type publication struct {
	seq         uint64
	version     *int32
	diagnostics []Diagnostic
}

// pullReport is the latest successful textDocument/diagnostic answer for
// one (URI, identifier) (LSP 3.17 "Pull Diagnostics"): seq is its arrival
// number on the same scale as publications, version the document version
// the request was sent for (0 for a document not open), resultID the id to
// send as previousResultId next time, and items the diagnostics — for an
// "unchanged" report, the items of the report it referred to.
type pullReport struct {
	seq      uint64
	version  int32
	resultID string
	items    []Diagnostic
	// asked is the client's send count when the request went out
	// (Client.sends): the server answered with every text sent by then.
	asked uint64
	// since is the send count of the request whose answer worked items
	// out: asked for a "full" report; for an "unchanged" one, that of the
	// report it refers to, which may be older than texts sent since (a
	// pyright pull answered "unchanged" right after a didOpen of the file
	// an importer uses, before re-checking the importer).
	since uint64
}

// store keeps the latest push publication per document URI and the latest
// pull report per (URI, identifier), and lets waiters learn that something
// arrived. Freshness is judged against seq: a change records store.mark()
// before it is sent, and only arrivals with a higher seq can describe the
// changed text.
type store struct {
	mu        sync.Mutex // guards every field below
	seq       uint64
	versioned bool                             // the server has tied a push to a document version
	byURI     map[string][]publication         // URI → its last pushHistory pushes, oldest first
	pulls     map[string]map[string]pullReport // URI → identifier → report
	replaced  map[string]map[string]pullReport // URI → identifier → the report pulls' replaced (for asOf)
	inflight  map[string]int                   // URI → pulls sent and not yet answered
	arrived   chan struct{}                    // closed and replaced on every arrival
	first     time.Time                        // when the first answer arrived (zero before)
}

func newStore() *store {
	return &store{
		byURI: make(map[string][]publication), pulls: make(map[string]map[string]pullReport),
		replaced: make(map[string]map[string]pullReport),
		inflight: make(map[string]int), arrived: make(chan struct{}),
	}
}

// poke wakes every waiter without recording anything: something a wait
// consults besides the store changed (a file's status).
func (s *store) poke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wakeLocked()
}

// wakeLocked tells every waiter that something changed.
func (s *store) wakeLocked() {
	close(s.arrived)
	s.arrived = make(chan struct{})
}

// pushHistory is how many pushes the store keeps per document: a check
// whose text the server answered under a version just before a newer one
// (two hooks on one file) still finds its own answer (freshness.go).
const pushHistory = 8

// publish records p and wakes every waiter. A push tied to an older
// document version than the newest one stored is dropped: it arrived late
// and describes a text the server has since replaced.
func (s *store) publish(p PublishDiagnosticsParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	hist := s.byURI[p.URI]
	if old, ok := newest(hist); ok && old.version != nil && p.Version != nil && *p.Version < *old.version {
		return
	}
	s.versioned = s.versioned || p.Version != nil
	s.countLocked()
	if len(hist) >= pushHistory {
		hist = slices.Delete(hist, 0, len(hist)-pushHistory+1)
	}
	s.byURI[p.URI] = append(hist, publication{seq: s.seq, version: p.Version, diagnostics: p.Diagnostics})
	s.wakeLocked()
}

// countLocked numbers an arrival (seq), noting when the first came.
func (s *store) countLocked() {
	if s.seq++; s.seq == 1 {
		s.first = time.Now()
	}
}

// firstAnswer returns when the server's first answer (a push or a pull
// report) arrived; zero before it has.
func (s *store) firstAnswer() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first
}

// newest returns the last push of hist.
func newest(hist []publication) (publication, bool) {
	if len(hist) == 0 {
		return publication{}, false
	}
	return hist[len(hist)-1], true
}

// pullBegin counts a pull for uri as in flight.
func (s *store) pullBegin(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight[uri]++
}

// pullEnd counts a pull for uri as answered (or abandoned) and wakes every
// waiter.
func (s *store) pullEnd(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inflight[uri]--; s.inflight[uri] <= 0 {
		delete(s.inflight, uri)
	}
	s.wakeLocked()
}

// recordPull stores r as the latest report for (uri, identifier), unless a
// report for a newer document version is already there (an answer that
// arrived late); it reports whether r was stored. A report for a document
// not open (version 0) replaces any: one kept from when the document was
// open describes a text since closed, and the caller checks that the
// document is still closed.
func (s *store) recordPull(uri, identifier string, r pullReport) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.pulls[uri]
	if m == nil {
		m = make(map[string]pullReport)
		s.pulls[uri] = m
	}
	old, ok := m[identifier]
	if ok && old.version > r.version && r.version != 0 {
		return false
	}
	if ok {
		if s.replaced[uri] == nil {
			s.replaced[uri] = make(map[string]pullReport)
		}
		s.replaced[uri][identifier] = old
	}
	s.countLocked()
	r.seq = s.seq
	m[identifier] = r
	s.wakeLocked()
	return true
}

// pulling reports whether a pull for uri is in flight.
func (s *store) pulling(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inflight[uri] > 0
}

// pullingOther reports whether a pull is in flight for a document other
// than those in except (URI → anything).
func (s *store) pullingOther(except map[string]int32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for uri := range s.inflight {
		if _, ok := except[uri]; !ok {
			return true
		}
	}
	return false
}

// waitPulled waits until no pull for any of uris is in flight, or ctx
// ends; it reports whether they all ended.
func (s *store) waitPulled(ctx context.Context, uris []string) bool {
	for {
		s.mu.Lock()
		busy := slices.ContainsFunc(uris, func(u string) bool { return s.inflight[u] > 0 })
		arrived := s.arrived
		s.mu.Unlock()
		if !busy {
			return true
		}
		select {
		case <-arrived: // pullEnd wakes every waiter
		case <-ctx.Done():
			return false
		}
	}
}

// lastPull returns the latest report for (uri, identifier).
func (s *store) lastPull(uri, identifier string) (pullReport, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.pulls[uri][identifier]
	return r, ok
}

// reopen drops what is stored for uri: the document is being opened anew
// (its versions start again at 1) or was closed because its file is gone,
// and what was said about the old text no longer applies.
func (s *store) reopen(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.byURI, uri)
	delete(s.pulls, uri)
	delete(s.replaced, uri)
	s.wakeLocked()
}

// asOf returns what the store held for uri when its arrival number was
// mark — the newest push and, per identifier, the newest pull report that
// had arrived by then — as lists of diagnostics, and whether anything had.
// It is a file's state before a change, to tell what the change introduced
// in it; an answer older than what the store keeps (pushHistory pushes,
// two reports per identifier) is unknown. bases says, for each list, what
// the server had been sent when it answered (answerBasis).
func (s *store) asOf(uri string, mark uint64) (lists [][]Diagnostic, bases []answerBasis, known bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	hist := s.byURI[uri]
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].seq <= mark {
			lists, known = append(lists, hist[i].diagnostics), true
			bases = append(bases, answerBasis{version: hist[i].version})
			break
		}
	}
	for id, r := range s.pulls[uri] {
		if r.seq > mark {
			r = s.replaced[uri][id]
		}
		if r.seq != 0 && r.seq <= mark {
			lists, known = append(lists, r.items), true
			bases = append(bases, answerBasis{pulled: true, asked: r.asked, since: r.since})
		}
	}
	return lists, bases, known
}

// answerBasis tells what a server had been sent when it gave an answer:
// for a pull report, every text sent before its request (asked, a send
// count), and before the request whose answer worked its items out
// (since: pullReport.since); for a push, the text of the version it names
// (nil: unknown) and everything sent before that.
type answerBasis struct {
	pulled       bool
	asked, since uint64
	version      *int32
}

// answers returns what the store holds for uri, for judging a check of it
// (freshness.go): its kept pushes, oldest first, its pull reports, whether
// a pull for it is in flight, and whether the server versions its pushes.
func (s *store) answers(uri string) (pushes []publication, pulls []pullReport, pulling, versioned bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.pulls[uri] {
		pulls = append(pulls, r)
	}
	return slices.Clone(s.byURI[uri]), pulls, s.inflight[uri] > 0, s.versioned
}

// mark returns the current arrival number and a channel closed at the next
// arrival.
func (s *store) mark() (uint64, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.arrived
}

// snapshot is what the store holds for one URI: the push publication (nil
// when none qualifies) and the pull reports by identifier.
type snapshot struct {
	push  *publication
	pulls map[string]pullReport
}

// since returns, by URI, every publication and pull report that arrived
// after mark.
func (s *store) since(mark uint64) map[string]snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]snapshot)
	for uri, hist := range s.byURI {
		if p, ok := newest(hist); ok && p.seq > mark {
			out[uri] = snapshot{push: &p}
		}
	}
	for uri, m := range s.pulls {
		for id, r := range m {
			if r.seq <= mark {
				continue
			}
			snap := out[uri]
			if snap.pulls == nil {
				snap.pulls = make(map[string]pullReport)
			}
			snap.pulls[id] = r
			out[uri] = snap
		}
	}
	return out
}

// all returns, by URI, the latest push publication and pull reports.
func (s *store) all() map[string]snapshot {
	return s.since(0)
}
