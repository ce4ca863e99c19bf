// Package session is the daemon's record of agent sessions (DESIGN.md
// "Sessions"): per session — an agent's session_id or its equivalent —
// the files it touched, each file's text before the session's first touch
// when the agent's event carried it (so the Stop gate never blocks for
// errors older than the session: the engine checks that text for the
// baseline), what the servers had said of the other files its changes
// re-published before the first such change, when it was last seen, and
// how the Stop gate answered its last end of turn. It is bounded (MaxSessions, MaxFiles:
// the oldest dropped, and logged) and forgets a session at its end event
// or after Idle without a hook.
//
// It imports only the standard library and diag: the engine decides what
// a baseline is, the hooks what a session is.
package session

import (
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Defaults of Registry's bounds.
const (
	// DefaultMaxSessions bounds the sessions remembered at once.
	DefaultMaxSessions = 64
	// DefaultMaxFiles bounds the files remembered per session.
	DefaultMaxFiles = 2000
	// DefaultIdle is how long a session is kept without a hook.
	DefaultIdle = 2 * time.Hour
)

// File is one file a session touched: its absolute path, when the session
// first touched it, and its text before that touch when the agent's event
// carried it (BeforeKnown; an empty Before for a file the touch created).
// Without it the engine falls back to the file's text at the commit the
// session began on (Registry.Began), and a file with neither is only
// warned about: the gate never blocks on a guess.
type File struct {
	Path        string
	FirstTouch  time.Time
	Before      []byte
	BeforeKnown bool
}

// MaxBefore bounds the text before a touch a session keeps per file (1
// MiB); a larger one is not kept (BeforeKnown stays false).
const MaxBefore = 1 << 20

// Summary is one session in `status`: its ID, agent, when it was last
// seen, how many files it touched, and how many errors its last Stop
// check found that it introduced (-1 before any).
type Summary struct {
	ID         string    `json:"id"`
	Agent      string    `json:"agent,omitempty"`
	LastSeen   time.Time `json:"last_seen"`
	Files      int       `json:"files"`
	OpenErrors int       `json:"open_errors"`
}

// Registry is the record of every session. The zero value is not ready:
// use New.
type Registry struct {
	// MaxSessions, MaxFiles and Idle bound the record (see the package
	// comment); zero means the default.
	MaxSessions, MaxFiles int
	Idle                  time.Duration
	// Now is the clock (time.Now unless a test sets it).
	Now func() time.Time
	log *slog.Logger

	mu       sync.Mutex // guards sessions and touches
	sessions map[string]*record
	// touches is, per file any session touched, each session's latest
	// touch of it (at most maxTouchers, the latest last): kept past the
	// session's end, for Idle, so that another session's Stop gate knows
	// its changes (SharedSince).
	touches map[string][]Touch
	swept   time.Time // when Sweep last looked at touches
	// made is, per error a session's change introduced in a file it did
	// not change (engine.ErrorKey), the session (RecordMade).
	made map[string]string
}

// Touch is a session's latest touch of a file: the session's ID and when
// (the registry's clock).
type Touch struct {
	Session string    `json:"session"`
	At      time.Time `json:"at"`
}

// Bounds of the touches kept for SharedSince.
const (
	// maxTouchers bounds the sessions whose touches of one file are kept.
	maxTouchers = 8
	// maxTouchedFactor times MaxFiles bounds the files whose touches are
	// kept; past it the file touched least recently is forgotten.
	maxTouchedFactor = 4
	// sweepTouchesEvery is how often Sweep looks for touches past Idle.
	sweepTouchesEvery = time.Minute
)

// record is one session's state.
type record struct {
	agent      string
	seen       time.Time
	files      map[string]*File
	order      []string // paths, oldest first touch first
	blocked    int      // ends of turn the gate blocked in a row
	openErrors int
	// othersBefore is, per file a check of the session's changes found
	// re-published, what its servers had said of it before that change,
	// kept from the first such check (SetOthersBefore).
	othersBefore map[string][]diag.Diagnostic
	// began is the commit git's HEAD named when the session began ("":
	// none), once beganKnown (SetBegan).
	began        string
	beganAt      time.Time // when SetBegan recorded began (0: a record saved before it was kept)
	beganKnown   bool
	beganClaimed bool // ClaimBegan answered true once
}

// New returns an empty registry logging to log.
func New(log *slog.Logger) *Registry {
	return &Registry{Now: time.Now, log: log, sessions: make(map[string]*record)}
}

func (r *Registry) maxSessions() int { return cmpOr(r.MaxSessions, DefaultMaxSessions) }
func (r *Registry) maxFiles() int    { return cmpOr(r.MaxFiles, DefaultMaxFiles) }
func (r *Registry) idle() time.Duration {
	if r.Idle > 0 {
		return r.Idle
	}
	return DefaultIdle
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// sessionLocked returns the record of id, creating it (and dropping the
// least recently seen session past MaxSessions). r.mu must be held.
func (r *Registry) sessionLocked(id, agent string) *record {
	s, ok := r.sessions[id]
	if !ok {
		if len(r.sessions) >= r.maxSessions() {
			oldest := ""
			for k, v := range r.sessions {
				if oldest == "" || v.seen.Before(r.sessions[oldest].seen) {
					oldest = k
				}
			}
			delete(r.sessions, oldest)
			r.log.Warn("session record full; dropped the least recently seen session", "session", oldest, "max", r.maxSessions())
		}
		s = &record{agent: agent, files: make(map[string]*File), openErrors: -1}
		r.sessions[id] = s
	}
	if agent != "" {
		s.agent = agent
	}
	s.seen = r.Now()
	return s
}

// Touch records that session id (of agent) touched the files at paths,
// and returns those it had not touched before: the caller gives their
// texts before the touch, where it has them, to SetBefore. An empty id
// records nothing.
func (r *Registry) Touch(id, agent string, paths []string) (first []string) {
	if id == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sessionLocked(id, agent)
	now := r.Now()
	for _, p := range paths {
		r.touchedLocked(p, Touch{id, now})
		if _, ok := s.files[p]; ok {
			continue
		}
		if len(s.order) >= r.maxFiles() {
			old := s.order[0]
			s.order = s.order[1:]
			delete(s.files, old)
			r.log.Warn("session touched too many files; forgot the first touched", "session", id, "file", old, "max", r.maxFiles())
		}
		s.files[p] = &File{Path: p, FirstTouch: now}
		s.order = append(s.order, p)
		first = append(first, p)
	}
	return first
}

// touchedLocked records t as its session's latest touch of path, within
// maxTouchers per file and maxTouchedFactor × MaxFiles files. r.mu must
// be held.
func (r *Registry) touchedLocked(path string, t Touch) {
	if r.touches == nil {
		r.touches = make(map[string][]Touch)
	}
	ts := slices.DeleteFunc(r.touches[path], func(o Touch) bool { return o.Session == t.Session })
	ts = append(ts, t)
	slices.SortStableFunc(ts, func(a, b Touch) int { return a.At.Compare(b.At) }) // Load's may come in any order
	if len(ts) > maxTouchers {
		ts = slices.Delete(ts, 0, len(ts)-maxTouchers)
	}
	if _, ok := r.touches[path]; !ok && len(r.touches) >= maxTouchedFactor*r.maxFiles() {
		oldest, at := "", time.Time{}
		for q, qs := range r.touches {
			if last := qs[len(qs)-1].At; oldest == "" || last.Before(at) {
				oldest, at = q, last
			}
		}
		delete(r.touches, oldest)
	}
	r.touches[path] = ts
}

// SharedSince returns the files of session id that another session
// touched after id first did — its own or one since ended: path → that
// session's ID (the latest). The Stop gate's texts before are the
// session's at its first touch, so the other's changes since count as
// this session's: of what it finds there, it blocks only on the errors a
// hook saw this session's change make (MadeBy).
func (r *Registry) SharedSince(id string) map[string]string {
	return r.othersAfter(id, func(s *record, each func(path string, after time.Time)) {
		for p, f := range s.files {
			each(p, f.FirstTouch)
		}
	})
}

// othersAfter returns, for each file files gives with a time (r.mu held;
// s is session id's record), the latest session other than id that
// touched it after that time: path → that session's ID; nil when there
// is none, or id is not recorded.
func (r *Registry) othersAfter(id string, files func(s *record, each func(path string, after time.Time))) map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sessions[id]
	if !ok {
		return nil
	}
	var out map[string]string
	files(s, func(p string, after time.Time) {
		if other := lastOtherAfter(r.touches[p], id, after); other != "" {
			if out == nil {
				out = make(map[string]string)
			}
			out[p] = other
		}
	})
	return out
}

// lastOtherAfter returns the session of the latest touch of ts (oldest
// first) by a session other than id after t; "" when there is none.
func lastOtherAfter(ts []Touch, id string, t time.Time) string {
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].Session != id && ts[i].At.After(t) {
			return ts[i].Session
		}
	}
	return ""
}

// OthersTouched returns the files other sessions touched since session
// id began (when SetBegan recorded its commit; every touch kept, when
// not recorded) that id never touched: path → the latest such session's
// ID. A file the gate finds deleted that is among them was deleted by
// another session's hook, not unseen by this session's.
func (r *Registry) OthersTouched(id string) map[string]string {
	return r.othersAfter(id, func(s *record, each func(path string, after time.Time)) {
		for p := range r.touches {
			if _, mine := s.files[p]; !mine {
				each(p, s.beganAt)
			}
		}
	})
}

// RecordMade records that a change of session id introduced the errors
// of keys (engine.ErrorKey) in files it did not change — for sure, or
// maybe (they were there after it, what was there before unknown): the
// latest change sure to have introduced an error owns it, one that only
// may have owns it when none does, for MadeBy. At most maxTouchedFactor ×
// MaxFiles errors are kept (past it, all are forgotten: their makers
// unknown, a Stop gate only warns on them).
func (r *Registry) RecordMade(id string, keys []string, sure bool) {
	if id == "" || len(keys) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.made == nil || len(r.made)+len(keys) > maxTouchedFactor*r.maxFiles() {
		r.made = make(map[string]string)
	}
	for _, k := range keys {
		if _, owned := r.made[k]; sure || !owned {
			r.made[k] = id
		}
	}
}

// MadeBy returns the session whose change RecordMade last recorded as
// introducing the error of key; "" when none is recorded.
func (r *Registry) MadeBy(key string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.made[key]
}

// SetBefore records the text file path had before session id first
// touched it (at most MaxBefore bytes; a larger text is not kept).
// Nothing happens for a session or file not recorded.
func (r *Registry) SetBefore(id, path string, text []byte) {
	if len(text) > MaxBefore {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok {
		if f, ok := s.files[path]; ok {
			f.Before, f.BeforeKnown = slices.Clone(text), true
		}
	}
}

// SetOthersBefore keeps, for the files of before (path → diagnostics) it
// has none for yet, what the servers had said of them before a change of
// session id (engine.CheckBaselines): the Stop gate's baseline for the
// files the session's changes broke. At most MaxFiles are kept per
// session; later ones are dropped. Nothing happens for a session not
// recorded.
func (r *Registry) SetOthersBefore(id string, before map[string][]diag.Diagnostic) {
	if len(before) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sessions[id]
	if !ok {
		return
	}
	if s.othersBefore == nil {
		s.othersBefore = make(map[string][]diag.Diagnostic)
	}
	for path, ds := range before {
		if _, ok := s.othersBefore[path]; ok {
			continue
		}
		if len(s.othersBefore) >= r.maxFiles() {
			r.log.Warn("session's baselines of other files full; not kept", "session", id, "file", path, "max", r.maxFiles())
			continue
		}
		s.othersBefore[path] = slices.Clip(ds)
	}
}

// SetBegan records, once, the commit git's HEAD named when session id
// began ("" when there was none: no repository, or no commit yet), and
// when (the registry's clock, now): the Stop gate compares a file no event
// gave the text before of with its text there, not at HEAD, which a
// commit the session made moves (and, for a session that moved HEAD to
// another branch, at the newest commit of that branch older than the
// session: workspace.SessionBase). Later calls, and calls for a session
// not recorded, change nothing.
func (r *Registry) SetBegan(id, commit string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok && !s.beganKnown {
		s.began, s.beganAt, s.beganKnown = commit, r.Now(), true
	}
}

// ClaimBegan reports whether the caller is the one to look up the commit
// session id began on for SetBegan: true once per recorded session that
// has none, false after — so that hooks of a new session arriving at once
// start one git process between them, not one each.
func (r *Registry) ClaimBegan(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sessions[id]
	if !ok || s.beganKnown || s.beganClaimed {
		return false
	}
	s.beganClaimed = true
	return true
}

// Began returns the commit SetBegan recorded for session id and when
// (0 for a record an older lsp-hook saved), and whether it recorded one
// (false for a session not recorded, or kept by a daemon that did not
// record it).
func (r *Registry) Began(id string) (commit string, at time.Time, known bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok {
		return s.began, s.beganAt, s.beganKnown
	}
	return "", time.Time{}, false
}

// OthersBefore returns what SetOthersBefore kept for session id: path →
// diagnostics (shared: never written again).
func (r *Registry) OthersBefore(id string) map[string][]diag.Diagnostic {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok {
		return maps.Clone(s.othersBefore)
	}
	return nil
}

// Files returns the files session id touched, oldest first touch first,
// and whether the session is recorded.
func (r *Registry) Files(id string) ([]File, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sessions[id]
	if !ok {
		return nil, false
	}
	s.seen = r.Now()
	out := make([]File, 0, len(s.order))
	for _, p := range s.order {
		out = append(out, *s.files[p]) // Before is never written again: shared
	}
	return out, true
}

// Stopped records the Stop gate's answer to an end of turn of session id:
// how many errors the session introduced are open, and whether the gate
// blocked. It returns how many ends of turn in a row it has blocked,
// this one included.
func (r *Registry) Stopped(id string, openErrors int, blocked bool) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.sessions[id]
	if !ok {
		return 0
	}
	s.openErrors = openErrors
	if blocked {
		s.blocked++
	} else {
		s.blocked = 0
	}
	return s.blocked
}

// BlockedInARow returns how many ends of turn of session id in a row the
// gate blocked, up to the last one.
func (r *Registry) BlockedInARow(id string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sessions[id]; ok {
		return s.blocked
	}
	return 0
}

// End forgets session id (the agent's session-end event).
func (r *Registry) End(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.sessions, id)
}

// Sweep forgets the sessions not seen for Idle, and the files' touches as
// old (SharedSince), and returns the sessions' IDs.
func (r *Registry) Sweep() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var gone []string
	for id, s := range r.sessions {
		if r.Now().Sub(s.seen) >= r.idle() {
			delete(r.sessions, id)
			gone = append(gone, id)
		}
	}
	if now := r.Now(); now.Sub(r.swept) >= sweepTouchesEvery { // Sweep runs on every hook: touches can be thousands
		r.swept = now
		for p, ts := range r.touches {
			if now.Sub(ts[len(ts)-1].At) >= r.idle() {
				delete(r.touches, p)
			}
		}
	}
	slices.Sort(gone)
	return gone
}

// Summaries lists the recorded sessions for `status`, most recently seen
// first.
func (r *Registry) Summaries() []Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Summary, 0, len(r.sessions))
	for id, s := range r.sessions {
		out = append(out, Summary{ID: id, Agent: s.agent, LastSeen: s.seen, Files: len(s.files), OpenErrors: s.openErrors})
	}
	slices.SortFunc(out, func(a, b Summary) int { return b.LastSeen.Compare(a.LastSeen) })
	return out
}

// Gate modes (config stop_gate).
const (
	GateBlock = "block" // block the end of turn once while introduced errors remain
	GateWarn  = "warn"  // report them, never block
	GateOff   = "off"   // do not check at the end of a turn
)

// Decision is the Stop gate's answer to one end of turn.
type Decision int

const (
	Allow Decision = iota // end the turn, say nothing
	Warn                  // end the turn, report the errors
	Block                 // keep the turn going, with the errors as the reason
)

// Decide is the Stop gate's rule: with errors the session introduced
// still open (introduced > 0), mode GateBlock blocks — unless the agent
// says this end of turn already follows a blocked one (active: Claude
// Code's stop_hook_active) or the gate blocked the session's previous end
// of turn (blockedInARow > 0): never twice in a row — when it warns; mode
// GateWarn warns; GateOff and no errors allow.
func Decide(mode string, introduced int, active bool, blockedInARow int) Decision {
	switch {
	case mode == GateOff || introduced == 0:
		return Allow
	case mode == GateWarn || active || blockedInARow > 0:
		return Warn
	}
	return Block
}
