package sidecar

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/session"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/wire"
)

// This file serves the session methods (wire/session.go; DESIGN.md
// "Sessions"): session_start prewarms the servers the workspace needs,
// notify_change records the files a session touches, session_stop is the
// Stop gate, session_end forgets the session.

// prewarmFiles bounds how many workspace files session_start looks at to
// find the servers the workspace needs; prewarmLook bounds how long.
const (
	prewarmFiles = 5000
	prewarmLook  = 500 * time.Millisecond
)

// sessionState is the daemon's session record, made on first use.
type sessionState struct {
	once sync.Once
	reg  *session.Registry
}

// registry returns the daemon's session record.
func (s *Server) registry() *session.Registry {
	s.sessions.once.Do(func() { s.sessions.reg = session.New(s.Log) })
	return s.sessions.reg
}

// loadSessions reads the sessions' record an earlier daemon of this
// socket left (saveSessions), and removes it: a session goes on past a
// daemon's idle timeout, `lsp-hook stop`, an upgrade or a crash, and
// its Stop gate must still see what it changed before. A record that
// cannot be read is logged and removed: the Stop gate then knows only what
// sessions do from now. The caller holds the socket's lock.
func (s *Server) loadSessions() {
	s.readRecord(wire.SessionsPath(s.socket), "sessions", s.registry().Load)
}

// saveSessions writes the sessions' record for the next daemon of this
// socket (loadSessions), or removes it when no session is left
// (writeRecord; final: Shutdown's). The caller holds records.mu.
func (s *Server) saveSessions(final bool) {
	s.writeRecord(wire.SessionsPath(s.socket), "sessions", s.registry().Save, final)
}

// touchSession records p's files in p's session, with the text each had
// before, where the change carries it, for the files the session touches
// for the first time. It returns the others, which the session touched
// before (Engine.CheckBaselines' revisited); nil without a session.
func (s *Server) touchSession(p wire.NotifyChangeParams) (revisited map[string]bool) {
	if p.Session == "" {
		return nil
	}
	reg := s.registry()
	reg.Sweep()
	before := make(map[string]*string)
	var paths []string
	for _, c := range p.Changes {
		path, err := workspace.Resolve(s.Engine.Root, c.Path)
		if err != nil {
			continue
		}
		paths = append(paths, path)
		if c.Before != nil {
			before[path] = c.Before
		}
	}
	first := reg.Touch(p.Session, p.Agent, paths)
	for _, path := range first {
		if b := before[path]; b != nil {
			reg.SetBefore(p.Session, path, []byte(*b))
		}
	}
	if len(first) > 0 {
		s.records.firstTouch()
	}
	s.noteBegan(p.Session)
	for _, path := range paths {
		if !slices.Contains(first, path) {
			if revisited == nil {
				revisited = make(map[string]bool)
			}
			revisited[path] = true
		}
	}
	return revisited
}

// noteBegan records, for a session that has none yet, the commit git's
// HEAD names now: the one the session began on (session.SetBegan). The
// git process runs once per session (ClaimBegan), in the background: off
// the hook's time, seconds before the session's next tool call could
// commit.
func (s *Server) noteBegan(id string) {
	reg := s.registry()
	if !reg.ClaimBegan(id) {
		return
	}
	go func() {
		reg.SetBegan(id, workspace.HeadCommit(context.Background(), s.Engine.Root))
		s.records.touched()
	}()
}

// sessionStart serves session_start: it records the session and answers
// at once; then, in the background, it starts the servers that a bounded
// look at the workspace's files finds it needs (a file per server and
// root), and has each check the file of its own that was modified last
// (Manager.Prewarm). The listing runs after the answer, so a large
// workspace never holds up the agent's session.
func (s *Server) sessionStart(_ context.Context, _ call, p wire.SessionParams) (any, error) {
	if p.Session != "" {
		s.beginSession(p, time.Now())
	}
	if s.Engine.Manager != nil {
		go func() {
			started := s.Engine.Manager.Prewarm(s.samplePaths())
			s.Log.Info("session_start", "session", p.Session, "agent", p.Agent, "prewarming", started)
		}()
	}
	return wire.SessionStartResult{}, nil
}

// beginSession records the start of the agent session p at at: its
// record (Registry.Touch), and the mark its shell hooks look back to at
// least (hookMarks.lastOrSession), however late the first comes.
func (s *Server) beginSession(p wire.SessionParams, at time.Time) {
	if p.Session == "" || len(p.Session) > wire.MaxSessionLen {
		return
	}
	s.registry().Touch(p.Session, p.Agent, nil)
	s.noteBegan(p.Session)
	s.hooks.mark(sessionChain(p.Agent, p.Session), at, false)
	s.records.touched()
}

// samplePaths lists, within prewarmFiles and prewarmLook, one workspace
// file per language server and root marker directory — enough for
// Prewarm, which starts each server and root once and checks the file
// listed for it: the one modified last (the file the user worked on most
// recently, so the project a server loads first is the one the session
// is likely to edit; ties go to the first listed), a source file over a
// root marker such as go.mod, whose opening loads no code.
func (s *Server) samplePaths() []string {
	ctx, cancel := context.WithTimeout(context.Background(), prewarmLook)
	defer cancel()
	files, _, err := workspace.Files(ctx, s.Engine.Root, prewarmFiles)
	if err != nil && len(files) == 0 {
		s.Log.Debug("prewarm: listing the workspace", "err", err)
		return nil
	}
	type pick struct {
		path   string
		mod    time.Time
		marker bool // a root marker (go.mod, tsconfig.json): opening it loads no code
	}
	cfg := s.Engine.Config
	picked := make(map[string]int) // server and marker dir → index in out
	var out []pick
	for _, rel := range files {
		path := filepath.Join(s.Engine.Root, filepath.FromSlash(rel))
		var mod time.Time
		var statted bool
		for _, srv := range cfg.ServersForPath(path) {
			if !statted {
				if fi, err := os.Stat(path); err == nil {
					mod = fi.ModTime()
				}
				statted = true
			}
			key := srv.Name + "\x00" + markerDir(path, srv, s.Engine.Root)
			c := pick{path, mod, config.NamesMarker(path, srv.RootMarkers)}
			i, ok := picked[key]
			switch {
			case !ok:
				picked[key] = len(out)
				out = append(out, c)
			case out[i].marker && !c.marker, out[i].marker == c.marker && mod.After(out[i].mod):
				out[i] = c
			}
		}
	}
	paths := make([]string, len(out))
	for i, p := range out {
		paths[i] = p.path
	}
	return paths
}

// markerDir is the root directory srv would get for path.
func markerDir(path string, srv config.Server, root string) string {
	if dir, ok := config.MarkerDir(path, srv.RootMarkers, root); ok {
		return dir
	}
	return root
}

// sessionStop serves session_stop, the Stop gate: it checks the files the
// session touched (Engine.Introduced) and decides (session.Decide, with
// the config's stop_gate). A check that found no errors while a server
// gave no fresh answer (Engine.Introduced's unchecked) warns with the
// block that says so: not a silent allow. An unknown session, or one whose files are all
// gone, may stop: logged, never an error.
func (s *Server) sessionStop(ctx context.Context, _ call, p wire.SessionStopParams) (any, error) {
	reg := s.registry()
	files, ok := reg.Files(p.Session)
	mode := s.Engine.Config.StopGateMode()
	if !ok || mode == session.GateOff {
		s.Log.Info("session_stop: allowed", "session", p.Session, "agent", p.Agent, "known", ok, "stop_gate", mode)
		return wire.SessionStopResult{Decision: wire.StopAllow, Files: len(files)}, nil
	}
	budget := time.Duration(p.BudgetMS) * time.Millisecond
	if budget <= 0 {
		budget = wire.DefaultColdBudget
	}
	began, beganAt, known := reg.Began(p.Session)
	if !known {
		began = "HEAD" // kept by a daemon that did not record it
	}
	res, n, unchecked := s.Engine.Introduced(ctx, files, reg.OthersBefore(p.Session), reg.SharedSince(p.Session), reg.OthersTouched(p.Session),
		func(d diag.Diagnostic) (known, mine bool) {
			by := reg.MadeBy(engine.ErrorKey(d))
			return by != "", by == p.Session
		}, began, beganAt, budget)
	d := session.Decide(mode, n, p.Active, reg.BlockedInARow(p.Session))
	if unchecked && n == 0 {
		d = session.Warn // no errors found, but a server gave no fresh answer: say so, never a silent allow
	}
	reg.Stopped(p.Session, n, d == session.Block)
	out := wire.SessionStopResult{Decision: wire.StopAllow, Errors: n, Files: len(files)}
	switch d {
	case session.Block:
		out.Decision, out.Lint = wire.StopBlock, res.Lint
	case session.Warn:
		out.Decision, out.Lint = wire.StopWarn, res.Lint
	}
	s.Log.Info("session_stop", "session", p.Session, "agent", p.Agent, "files", len(files), "errors", n,
		"decision", out.Decision, "unchecked", unchecked, "active", p.Active, "elapsed_ms", res.ElapsedMS)
	return out, nil
}

// sessionEnd serves session_end: the session is forgotten.
func (s *Server) sessionEnd(_ context.Context, _ call, p wire.SessionParams) (any, error) {
	s.registry().End(p.Session)
	s.Log.Info("session_end", "session", p.Session, "agent", p.Agent)
	return struct{}{}, nil
}
