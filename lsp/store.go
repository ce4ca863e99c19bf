package lsp

import (
	"sync"
)

// publication is one textDocument/publishDiagnostics as received: seq is the
// store-wide arrival number (1, 2, …), version the document version the
// server tied it to (nil when it did not).
type publication struct {
	seq         uint64
	version     *int32
	diagnostics []Diagnostic
}

// store keeps the latest publication per document URI and lets waiters learn
// that something arrived. Freshness is judged against seq: a change records
// store.mark() before it is sent, and only publications with a higher seq
// can describe the changed text.
type store struct {
	mu      sync.Mutex // guards seq, byURI and arrived
	seq     uint64
	byURI   map[string]publication
	arrived chan struct{} // closed and replaced on every publication
}

func newStore() *store {
	return &store{byURI: make(map[string]publication), arrived: make(chan struct{})}
}

// publish records p and wakes every waiter.
func (s *store) publish(p PublishDiagnosticsParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	s.byURI[p.URI] = publication{seq: s.seq, version: p.Version, diagnostics: p.Diagnostics}
	close(s.arrived)
	s.arrived = make(chan struct{})
}

// mark returns the current arrival number and a channel closed at the next
// arrival.
func (s *store) mark() (uint64, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.arrived
}

// get returns the latest publication for uri.
func (s *store) get(uri string) (publication, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.byURI[uri]
	return p, ok
}

// since returns every publication that arrived after mark, by URI.
func (s *store) since(mark uint64) map[string]publication {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]publication)
	for uri, p := range s.byURI {
		if p.seq > mark {
			out[uri] = p
		}
	}
	return out
}

// all returns the latest publication of every URI.
func (s *store) all() map[string]publication {
	return s.since(0)
}

// fresh reports whether p can describe the document at version want sent
// after mark: a push tied to that version (or a later one, from a concurrent
// change), or an unversioned push that arrived after the change was sent. A
// push tied to an older version never counts, whenever it arrived.
func (p publication) fresh(mark uint64, want int32) bool {
	if p.seq <= mark {
		return false
	}
	if p.version == nil {
		return true
	}
	return *p.version >= want
}
