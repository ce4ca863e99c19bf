package sidecar

import (
	"container/list"
	"crypto/sha256"
	"errors"
	"hash/maphash"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
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
	mu       sync.Mutex // guards order, byKey, inflight and serial
	order    list.List  // of *hookMark, most recently marked first
	byKey    map[[sha256.Size]byte]*list.Element
	inflight map[uint64]inflightCheck // file tools' hooks still checking, by serial (checking)
	serial   uint64
}

// inflightCheck is a file tool's hook whose check has begun and not yet
// ended: the hash of its chain's session (sessionKey) and the texts it
// is checking (checkedTexts).
type inflightCheck struct {
	session [sha256.Size]byte
	checked map[string]checkedText
}

// hookMark is one chain's last hook: the chain's key (a hash, so that a
// long session name costs no more than a short one), when it asked, and
// whether it examined every change before then (a shell hook's
// changed_files) or only recorded its time (record_only, a file tool's
// checked change). examinedAt is when its last shell hook examined the
// disk (zero: none yet). checked holds the files a file tool's hook of
// the chain checked since, each with the text it checked and when
// (checkedText), at most maxCheckedFiles (overflow: more were, and none
// is known).
type hookMark struct {
	key        [sha256.Size]byte
	session    [sha256.Size]byte // the hash of the chain's session (sessionKey)
	at         time.Time
	examined   bool
	examinedAt time.Time
	checked    map[string]checkedText
	overflow   bool
	// claimed holds every file the chain's hooks checked (file tools'
	// marked, shell commands' claimed as their span is answered), each
	// with the latest text checked (or absent: deleted), at most
	// maxCheckedFiles (the oldest dropped), whatever the chain's shell
	// hooks examined since: the changes of its session, for othersChecked.
	claimed map[string]checkedText
}

// checkedText is one file a file tool's hook checked: the textSum of the
// text it checked, and when that sum was taken, right before the check
// began (the tool's write came before it).
type checkedText struct {
	sum  uint64
	at   time.Time
	gone bool // checked as deleted: the file was absent (sum unused)
}

// maxCheckedFiles bounds a chain's memory of the files its file tools'
// hooks checked; past it, a shell hook checks them again.
const maxCheckedFiles = 512

// last returns a copy of the chain's last hook, ok false when the chain
// is unknown ("" included) or was last marked more than hookChainIdle
// before now.
func (h *hookMarks) last(chain string, now time.Time) (m hookMark, ok bool) {
	if chain == "" {
		return hookMark{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked(now)
	e, ok := h.byKey[sha256.Sum256([]byte(chain))]
	if !ok || now.Sub(e.Value.(*hookMark).at) > hookChainIdle {
		return hookMark{}, false
	}
	m = *e.Value.(*hookMark)
	m.checked, m.claimed = maps.Clone(m.checked), nil // claimed is othersChecked's, under h.mu
	return m, true
}

// checkedUnchanged reports whether a file tool's hook of the chain (m)
// checked path with the text it has now, and nothing changed it since:
// changedAfter(path, t) reports whether path was changed after t (the
// watcher saw it, or its modification time says so). The text alone
// cannot tell: a file checked broken, fixed by another hand (the user, a
// hook of another chain), then broken the same way by a shell command,
// has the text that was checked, and the answer the agent had since for
// it was the fix's; taken as unchanged, the command's error went
// unreported (make soak, seed 4827202654485640545, TypeScript #24, a
// false clean).
func (m hookMark) checkedUnchanged(path string, changedAfter func(path string, t time.Time) bool) bool {
	c, ok := m.checked[path]
	return ok && !m.overflow && c.unchanged(path, changedAfter)
}

// unchanged reports whether the file at path has the text c is of (is
// absent, for c.gone), and nothing changed it after c was taken
// (changedAfter, as for hookMark.checkedUnchanged).
func (c checkedText) unchanged(path string, changedAfter func(path string, t time.Time) bool) bool {
	if changedAfter(path, c.at) {
		return false
	}
	if c.gone {
		_, err := os.Lstat(path)
		return errors.Is(err, fs.ErrNotExist)
	}
	now, ok := fileSum(path)
	return ok && now == c.sum
}

// textSums seeds textSum: the sums live as long as the daemon.
var textSums = maphash.MakeSeed()

// textSum is the hash of a file's text, for hookMark.checked.
func textSum(text []byte) uint64 { return maphash.Bytes(textSums, text) }

// maxSummedFile is the largest file whose text a hook mark keeps a sum
// of; a larger one a shell hook checks again.
const maxSummedFile = 4 << 20

// fileSum is textSum of the file at path; ok is false when it cannot be
// read or is larger than maxSummedFile.
func fileSum(path string) (sum uint64, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxSummedFile+1))
	if err != nil || len(text) > maxSummedFile {
		return 0, false
	}
	return textSum(text), true
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

// sessionKey is what tells chain's agent session from another's: its
// session chain (sessionOf), or chain itself when it names no hook (a
// session chain) or no session.
func sessionKey(chain string) string {
	if s := sessionOf(chain); s != "" {
		return s
	}
	return chain
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
// command's start by the event's timing. It also returns the span's floor
// (spanStart): since when every change was examined by a shell hook of
// the chain, or is not the session's. That is the chain's last shell
// hook; else the session's start, when it came before the chain's last
// hook; else zero, unknown.
func (h *hookMarks) lastOrSession(chain string, now time.Time) (m hookMark, floor time.Time) {
	m, ok := h.last(chain, now)
	s, sok := h.last(sessionOf(chain), now)
	switch {
	case !ok:
		return s, s.at
	case !m.examinedAt.IsZero():
		return m, m.examinedAt
	case sok && !s.at.After(m.at):
		return m, s.at
	}
	return m, time.Time{}
}

// mark records that the chain's hook asked at at, having examined the
// changes before then or not; a mark never moves a chain back in time
// (hooks of one chain may overlap).
func (h *hookMarks) mark(chain string, at time.Time, examined bool) {
	h.markWith(chain, at, examined, nil)
}

// markChecked records a file tool's hook of the chain answered at at
// (mark, examining nothing) that checked the files of sums (absolute,
// clean path → the text checked; none for record_only), so that the
// chain's next shell hook, whose span may reach back past it, does not
// check them again while nothing changed them.
func (h *hookMarks) markChecked(chain string, at time.Time, sums map[string]checkedText) {
	h.markWith(chain, at, false, sums)
}

// markWith is mark, adding sums (markChecked) to the chain's checked
// files.
func (h *hookMarks) markWith(chain string, at time.Time, examined bool, sums map[string]checkedText) {
	if chain == "" {
		return
	}
	key := sha256.Sum256([]byte(chain))
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.markLocked(key)
	m.session = sha256.Sum256([]byte(sessionKey(chain)))
	if at.After(m.at) {
		m.at, m.examined = at, examined
	}
	if examined && at.After(m.examinedAt) {
		// The next span starts here: what file tools' hooks checked
		// before is no longer in it.
		m.examinedAt, m.checked, m.overflow = at, nil, false
	}
	m.addClaims(sums)
	if len(sums) > 0 && !m.overflow {
		if m.checked == nil {
			m.checked = make(map[string]checkedText, len(sums))
		}
		maps.Copy(m.checked, sums)
		if len(m.checked) > maxCheckedFiles {
			m.checked, m.overflow = nil, true
		}
	}
	h.expireLocked(at)
}

// addClaims adds sums to the mark's claimed files, keeping the latest
// maxCheckedFiles. The hookMarks' mu must be held.
func (m *hookMark) addClaims(sums map[string]checkedText) {
	if len(sums) == 0 {
		return
	}
	if m.claimed == nil {
		m.claimed = make(map[string]checkedText, len(sums))
	}
	maps.Copy(m.claimed, sums)
	if over := len(m.claimed) - maxCheckedFiles; over > 0 {
		byAge := slices.SortedFunc(maps.Keys(m.claimed), func(a, b string) int { return m.claimed[a].at.Compare(m.claimed[b].at) })
		for _, p := range byAge[:over] {
			delete(m.claimed, p)
		}
	}
}

// claim adds sums (the files a shell hook of chain is about to check:
// Server.spanTexts) to the chain's claimed files, for othersChecked,
// marking nothing else. An empty chain claims nothing.
func (h *hookMarks) claim(chain string, sums map[string]checkedText) {
	if chain == "" || len(sums) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.markLocked(sha256.Sum256([]byte(chain)))
	m.session = sha256.Sum256([]byte(sessionKey(chain)))
	m.addClaims(sums)
}

// othersChecked returns, for those of paths that a hook of another agent
// session than chain's checked (hookMark.claimed), or a file tool's hook
// of one is checking (checking), the texts each checked: path → one
// checkedText per chain and check. Chains last marked more than
// hookChainIdle before now are left out.
func (h *hookMarks) othersChecked(chain string, paths []string, now time.Time) map[string][]checkedText {
	if len(paths) == 0 {
		return nil
	}
	session := sha256.Sum256([]byte(sessionKey(chain)))
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked(now)
	var out map[string][]checkedText
	add := func(checked map[string]checkedText) {
		for _, p := range paths {
			if c, ok := checked[p]; ok {
				if out == nil {
					out = make(map[string][]checkedText)
				}
				out[p] = append(out[p], c)
			}
		}
	}
	for e := h.order.Front(); e != nil; e = e.Next() {
		if m := e.Value.(*hookMark); m.session != session && now.Sub(m.at) <= hookChainIdle {
			add(m.claimed)
		}
	}
	for _, c := range h.inflight {
		if c.session != session {
			add(c.checked)
		}
	}
	return out
}

// checking records that a file tool's hook of chain has begun to check
// the texts of checked (checkedTexts), for othersChecked: a shell hook of
// another session that asks while the check runs leaves those files out
// as it will once the hook is marked (markChecked). done forgets it; the
// hook marks its chain after.
func (h *hookMarks) checking(chain string, checked map[string]checkedText) (done func()) {
	if len(checked) == 0 {
		return func() {}
	}
	c := inflightCheck{sha256.Sum256([]byte(sessionKey(chain))), checked}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inflight == nil {
		h.inflight = make(map[uint64]inflightCheck)
	}
	h.serial++
	id := h.serial
	h.inflight[id] = c
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.inflight, id)
	}
}

// markLocked returns the chain's mark, made empty (its time zero) when
// the chain is new, and moved to the front. h.mu must be held.
func (h *hookMarks) markLocked(key [sha256.Size]byte) *hookMark {
	if h.byKey == nil {
		h.byKey = make(map[[sha256.Size]byte]*list.Element)
	}
	if e, ok := h.byKey[key]; ok {
		h.order.MoveToFront(e)
		return e.Value.(*hookMark)
	}
	m := &hookMark{key: key}
	h.byKey[key] = h.order.PushFront(m)
	for h.order.Len() > maxHookChains {
		h.removeLocked(h.order.Back())
	}
	return m
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
