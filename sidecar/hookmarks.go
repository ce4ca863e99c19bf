package sidecar

import (
	"container/list"
	"crypto/sha256"
	"strings"
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

// sessionChain is the chain that stands for every hook of an agent
// session (its hook name empty): session_start marks it, and a chain of
// that session with no hook of its own looks back to it (sessionOf). A
// chain is "agent/Hook/session" (the hooks package's chainOf).
func sessionChain(agent, session string) string {
	if agent == "" || session == "" {
		return ""
	}
	return agent + "//" + session
}

// sessionOf returns the session chain of chain, "" when chain does not
// name an agent, a hook and a session.
func sessionOf(chain string) string {
	agent, rest, ok := strings.Cut(chain, "/")
	if !ok {
		return ""
	}
	hook, session, ok := strings.Cut(rest, "/")
	if !ok || hook == "" {
		return ""
	}
	return sessionChain(agent, session)
}

// lastOrSession is last for chain, or, when chain has no hook of its own,
// for its session's chain (the session's start): a new daemon, or one
// restarted since the chain's last hook, still knows when the session
// began, and a late shell hook looks back to that, not only to its
// command's start by the event's timing.
func (h *hookMarks) lastOrSession(chain string, now time.Time) (at time.Time, examined bool) {
	if at, examined = h.last(chain, now); at.IsZero() {
		at, examined = h.last(sessionOf(chain), now)
	}
	return at, examined
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
