package sidecar

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// A daemon is replaced while agent sessions go on: a config written
// mid-session (the next hook replaces it), its idle timeout, `lsp-hook
// stop`, an upgrade. Its memory of the sessions' hooks must go on too: a
// new daemon's watcher starts after the span a shell hook asks about, so
// the span is searched by modification time from where the chain's
// previous hook left off — and without that mark it started at the
// command's start by the event's timing, which a hook arriving late has
// already passed (make soak, seed 6079122614619537867, C #207: a shell
// command wrote .lsp-hook.yaml and broke src/math.c, its hook ran 2.8 s
// later and, in the daemon that replaced the config's, looked back 1 s
// past a 3 ms command: src/math.c went unchecked, a false clean). The
// daemon writes its marks as it runs and when it stops (saveHookMarks,
// records.go) and the next one reads them when it starts (loadHookMarks),
// beside the sessions' record.

// savedMarksVersion is the format of hookMarks.save's output; load refuses
// another.
const savedMarksVersion = 1

// savedMarks is hookMarks.save's JSON document:
// {"version": 1, "chains": [{"key": "<hex>", "at": …}, …]}, most recently
// marked first.
type savedMarks struct {
	Version int         `json:"version"`
	Chains  []savedMark `json:"chains"`
}

// savedMark is one chain's mark: its key (the hex SHA-256 of the chain),
// when its last hook asked, whether that hook examined every change
// before then, and when its last shell hook examined the disk. The texts
// its file tools' hooks checked are not kept: their sums are this
// process's (textSum's seed), so the next daemon's first shell hook of
// the chain checks those files again.
type savedMark struct {
	Key        string    `json:"key"`
	At         time.Time `json:"at"`
	Examined   bool      `json:"examined,omitempty"`
	ExaminedAt time.Time `json:"examined_at,omitzero"`
}

// save writes every chain marked within hookChainIdle before now to w as
// one savedMarks document; it reports how many.
func (h *hookMarks) save(w io.Writer, now time.Time) (int, error) {
	h.mu.Lock()
	h.expireLocked(now)
	doc := savedMarks{Version: savedMarksVersion, Chains: make([]savedMark, 0, h.order.Len())}
	for e := h.order.Front(); e != nil; e = e.Next() {
		m := e.Value.(*hookMark)
		doc.Chains = append(doc.Chains, savedMark{Key: hex.EncodeToString(m.key[:]), At: m.at, Examined: m.examined, ExaminedAt: m.examinedAt})
	}
	h.mu.Unlock()
	return len(doc.Chains), json.NewEncoder(w).Encode(doc)
}

// load adds the chains save wrote to r, except those marked more than
// hookChainIdle before now and those this daemon has marked already
// (its own mark is newer), within maxHookChains, behind the chains this
// daemon marked. It reports how many it
// added; an error names what was wrong with the document, and then
// nothing is added.
func (h *hookMarks) load(r io.Reader, now time.Time) (int, error) {
	var doc savedMarks
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return 0, fmt.Errorf("hook marks: %w", err)
	}
	if doc.Version != savedMarksVersion {
		return 0, fmt.Errorf("hook marks: version %d, this lsp-hook reads %d", doc.Version, savedMarksVersion)
	}
	marks := make([]hookMark, 0, len(doc.Chains))
	for i, c := range doc.Chains {
		var m hookMark
		if len(c.Key) != hex.EncodedLen(len(m.key)) {
			return 0, fmt.Errorf("hook marks: chain %d: key %q is not a hex SHA-256", i, c.Key)
		}
		if _, err := hex.Decode(m.key[:], []byte(c.Key)); err != nil {
			return 0, fmt.Errorf("hook marks: chain %d: key %q is not a hex SHA-256", i, c.Key)
		}
		m.at, m.examined, m.examinedAt = c.At, c.Examined, c.ExaminedAt
		marks = append(marks, m)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byKey == nil {
		h.byKey = make(map[[sha256.Size]byte]*list.Element)
	}
	n := 0
	// Behind the chains this daemon marked, in the saved order (most
	// recently marked first): the back is the first to expire or go.
	for _, m := range marks {
		if now.Sub(m.at) > hookChainIdle || h.order.Len() >= maxHookChains {
			continue
		}
		if _, ok := h.byKey[m.key]; ok {
			continue
		}
		h.byKey[m.key] = h.order.PushBack(&m)
		n++
	}
	return n, nil
}

// saveHookMarks writes the hook marks for the next daemon of this socket
// (loadHookMarks), or removes them when none is left (writeRecord; final:
// Shutdown's). The caller holds records.mu.
func (s *Server) saveHookMarks(final bool) {
	s.writeRecord(wire.HookMarksPath(s.socket), "hook marks", func(w io.Writer) (int, error) { return s.hooks.save(w, time.Now()) }, final)
}

// loadHookMarks reads the hook marks an earlier daemon of this socket left
// (saveHookMarks), and removes them. A document that
// cannot be read is logged and removed: the chains' next shell hooks then
// look back to their commands' starts and the last minute. The caller
// holds the socket's lock.
func (s *Server) loadHookMarks() {
	s.readRecord(wire.HookMarksPath(s.socket), "hook marks", func(r io.Reader) (int, error) { return s.hooks.load(r, time.Now()) })
}
