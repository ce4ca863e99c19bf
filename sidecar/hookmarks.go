package sidecar

import (
	"container/list"
	"crypto/sha256"
	"sync"
	"time"
)

// This file is the daemon's memory of agent sessions for changed_files:
// when each session's last hook asked, and whether it examined the disk up
// to then, so that its next shell hook checks what changed since, however
// late that hook arrives.

const (
	// maxHookChains bounds how many sessions' hook chains are remembered;
	// the least recently marked is forgotten first.
	maxHookChains = 1024
	// hookChainIdle is how long a chain is remembered without a hook (the
	// daemon's own default idle time): an older previous hook is as good
	// as none, and its span would take in every change since.
	hookChainIdle = 30 * time.Minute
)

// hookMarks remembers, per hook chain (an agent session and hook event:
// changed_files' session), when its last hook asked: at most
// maxHookChains chains, each for hookChainIdle after its last hook. The
// zero value is empty and ready; it must not be copied.
type hookMarks struct {
	mu    sync.Mutex // guards order and byKey
	order list.List  // of *hookMark, most recently marked first
	byKey map[[sha256.Size]byte]*list.Element
}

// hookMark is one chain's last hook: the chain's key (a hash, so that a
// long session name costs no more than a short one), when it asked, and
// whether it examined every change before then (a shell hook's
// changed_files) or only recorded its time (record_only).
type hookMark struct {
	key      [sha256.Size]byte
	at       time.Time
	examined bool
}

// last returns when the chain's last hook asked and whether it examined
// the changes before then; at is zero when the chain is unknown (""
// included) or was last marked more than hookChainIdle before now.
func (h *hookMarks) last(chain string, now time.Time) (at time.Time, examined bool) {
	if chain == "" {
		return time.Time{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked(now)
	if e, ok := h.byKey[sha256.Sum256([]byte(chain))]; ok && now.Sub(e.Value.(*hookMark).at) <= hookChainIdle {
		m := e.Value.(*hookMark)
		return m.at, m.examined
	}
	return time.Time{}, false
}

// mark records that the chain's hook asked at at, having examined the
// changes before then or not; a mark never moves a chain back in time
// (hooks of one chain may overlap).
func (h *hookMarks) mark(chain string, at time.Time, examined bool) {
	if chain == "" {
		return
	}
	key := sha256.Sum256([]byte(chain))
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byKey == nil {
		h.byKey = make(map[[sha256.Size]byte]*list.Element)
	}
	if e, ok := h.byKey[key]; ok {
		m := e.Value.(*hookMark)
		if at.After(m.at) {
			m.at, m.examined = at, examined
		}
		h.order.MoveToFront(e)
	} else {
		h.byKey[key] = h.order.PushFront(&hookMark{key: key, at: at, examined: examined})
	}
	for h.order.Len() > maxHookChains {
		h.removeLocked(h.order.Back())
	}
	h.expireLocked(at)
}

// expireLocked forgets the chains last marked more than hookChainIdle
// before now. h.mu must be held.
func (h *hookMarks) expireLocked(now time.Time) {
	for e := h.order.Back(); e != nil && now.Sub(e.Value.(*hookMark).at) > hookChainIdle; e = h.order.Back() {
		h.removeLocked(e)
	}
}

func (h *hookMarks) removeLocked(e *list.Element) {
	delete(h.byKey, e.Value.(*hookMark).key)
	h.order.Remove(e)
}
