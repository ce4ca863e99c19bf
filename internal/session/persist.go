package session

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
)

// A daemon stops while agent sessions go on: at its idle timeout (shorter
// than a session's, DefaultIdle), `lsp-hook stop`, an upgrade. What the
// sessions did before must not be forgotten then, or the next daemon's
// Stop gate takes the errors a session made before for errors older than
// the session (their files' first touch would be after them) and never
// looks at the files the session changed before. The daemon writes its
// record as it runs and when it stops (Save; a daemon killed leaves its
// last) and the next one reads it when it starts (Load).

// savedVersion is the format of Save's output; Load refuses another.
const savedVersion = 1

// saved is Save's JSON document: {"version": 1, "sessions": {id: {...}},
// "touches": {path: [{"session": id, "at": time}, …]}, "made": {error
// key: id}} (touches: each session's latest touch of each file, for
// SharedSince; made: RecordMade's; both absent in a record of an lsp-hook
// that did not keep them).
type saved struct {
	Version  int                     `json:"version"`
	Sessions map[string]savedSession `json:"sessions"`
	Touches  map[string][]Touch      `json:"touches,omitempty"`
	Made     map[string]string       `json:"made,omitempty"` // RecordMade's: error key → session
}

// savedSession is one session's record in Save's output. Files are in
// order of first touch; a file's Before is base64 (encoding/json's []byte).
type savedSession struct {
	Agent        string                       `json:"agent,omitempty"`
	Seen         time.Time                    `json:"seen"`
	Files        []File                       `json:"files"`
	Blocked      int                          `json:"blocked,omitempty"`
	OpenErrors   int                          `json:"open_errors"`
	OthersBefore map[string][]diag.Diagnostic `json:"others_before,omitempty"`
	// Began is the commit the session began on (SetBegan): "" for none,
	// absent when not recorded.
	Began *string `json:"began,omitempty"`
	// BeganAt is when Began was recorded (absent: not recorded, or saved
	// by an lsp-hook that did not keep it).
	BeganAt time.Time `json:"began_at,omitzero"`
}

// Save writes every recorded session to w as one JSON document (see
// saved), for Load in the next daemon; it is safe beside every other
// method (a running daemon's checkpoint). It reports how many sessions it
// wrote and any error writing.
func (r *Registry) Save(w io.Writer) (int, error) {
	r.mu.Lock()
	doc := saved{Version: savedVersion, Sessions: make(map[string]savedSession, len(r.sessions))}
	for id, s := range r.sessions {
		files := make([]File, 0, len(s.order))
		for _, p := range s.order {
			files = append(files, *s.files[p])
		}
		ss := savedSession{Agent: s.agent, Seen: s.seen, Files: files, Blocked: s.blocked,
			OpenErrors: s.openErrors, OthersBefore: maps.Clone(s.othersBefore)} // encoded unlocked: a daemon's checkpoint runs beside its hooks
		if s.beganKnown {
			ss.Began, ss.BeganAt = &s.began, s.beganAt
		}
		doc.Sessions[id] = ss
	}
	if len(doc.Sessions) > 0 && len(r.touches) > 0 {
		doc.Touches = make(map[string][]Touch, len(r.touches))
		for p, ts := range r.touches {
			doc.Touches[p] = slices.Clone(ts)
		}
	}
	if len(doc.Sessions) > 0 {
		doc.Made = maps.Clone(r.made)
	}
	r.mu.Unlock()
	return len(doc.Sessions), json.NewEncoder(w).Encode(doc)
}

// Load adds the sessions Save wrote to rd, except those idle for Idle
// (Sweep would forget them) and those already recorded (a hook of this
// daemon made them newer), within MaxSessions and MaxFiles. It reports how
// many it added; an error names what was wrong with the document, and
// then nothing is added.
func (r *Registry) Load(rd io.Reader) (int, error) {
	var doc saved
	if err := json.NewDecoder(rd).Decode(&doc); err != nil {
		return 0, fmt.Errorf("session record: %w", err)
	}
	if doc.Version != savedVersion {
		return 0, fmt.Errorf("session record: version %d, this lsp-hook reads %d", doc.Version, savedVersion)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for id, ss := range doc.Sessions {
		if _, ok := r.sessions[id]; ok || id == "" || r.Now().Sub(ss.Seen) >= r.idle() || len(r.sessions) >= r.maxSessions() {
			continue
		}
		s := &record{agent: ss.Agent, seen: ss.Seen, files: make(map[string]*File), blocked: ss.Blocked,
			openErrors: ss.OpenErrors, othersBefore: ss.OthersBefore}
		if ss.Began != nil {
			s.began, s.beganAt, s.beganKnown = *ss.Began, ss.BeganAt, true
		}
		for _, f := range ss.Files {
			if _, dup := s.files[f.Path]; dup || f.Path == "" || len(s.order) >= r.maxFiles() {
				continue
			}
			s.files[f.Path] = &f
			s.order = append(s.order, f.Path)
		}
		for len(s.othersBefore) > r.maxFiles() {
			for p := range s.othersBefore {
				delete(s.othersBefore, p)
				break
			}
		}
		r.sessions[id] = s
		n++
	}
	for k, id := range doc.Made {
		if _, ok := r.made[k]; !ok && k != "" && id != "" && len(r.made) < maxTouchedFactor*r.maxFiles() {
			if r.made == nil {
				r.made = make(map[string]string)
			}
			r.made[k] = id
		}
	}
	for p, ts := range doc.Touches {
		for _, t := range ts {
			if p != "" && t.Session != "" && r.Now().Sub(t.At) < r.idle() && !r.touchedSince(p, t) {
				r.touchedLocked(p, t)
			}
		}
	}
	return n, nil
}

// touchedSince reports whether the registry has a touch of path by t's
// session as late as t or later (Load keeps the newer). r.mu must be
// held.
func (r *Registry) touchedSince(path string, t Touch) bool {
	return slices.ContainsFunc(r.touches[path], func(o Touch) bool { return o.Session == t.Session && !o.At.Before(t.At) })
}
