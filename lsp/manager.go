package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// Server states reported by status (DESIGN.md "LSP client essentials").
const (
	StateStarting    = "starting"
	StateActive      = "active"
	StateBroken      = "broken"
	StateDisabled    = "disabled"
	StateUnavailable = "unavailable"
)

// ShutdownGrace is how long a server gets to exit after shutdown+exit before
// its process group is killed.
const ShutdownGrace = 3 * time.Second

// Manager owns the language server processes of one workspace: one per
// (server, root), started lazily on the first file that needs it, with
// concurrent starts collapsed into one. Its methods are safe for concurrent
// use.
type Manager struct {
	cfg       *config.Config
	workspace string
	log       *slog.Logger

	mu      sync.Mutex // guards entries and closed
	entries map[entryKey]*entry
	closed  bool
}

type entryKey struct{ server, root string }

// entry is one (server, root) slot. ready is closed once the start attempt
// is over; client and err are set before that and read-only after.
type entry struct {
	server  config.Server
	root    string
	ready   chan struct{}
	client  *Client
	err     error
	missing bool // the command was not found: state unavailable, retried on next use
}

// NewManager returns a manager for the workspace root (absolute) using cfg's
// server catalogue and timeouts. No server starts until Check needs it.
func NewManager(cfg *config.Config, workspace string, log *slog.Logger) *Manager {
	return &Manager{cfg: cfg, workspace: workspace, log: log, entries: make(map[entryKey]*entry)}
}

// ErrUnavailable is returned for a server whose command is not installed.
var ErrUnavailable = errors.New("language server not installed")

// ErrClosed is returned after Shutdown.
var ErrClosed = errors.New("server manager is shut down")

// Check brings every server that handles one of docs up to date and waits
// for fresh diagnostics, all servers in parallel, each under its own
// deadline (the config's timeout, or first_touch_timeout when the server is
// cold) and ctx, collecting for settle after the last fresh publication
// (0 means DefaultSettle). It returns one Outcome per (server, root)
// involved; a server still busy when ctx ends is reported as Timeout and
// left to finish alone.
func (m *Manager) Check(ctx context.Context, docs []Doc, settle time.Duration) []Outcome {
	if settle <= 0 {
		settle = DefaultSettle
	}
	groups := make(map[entryKey][]Doc)
	var order []entryKey
	for _, d := range docs {
		for _, s := range m.cfg.ServersFor(filepath.Ext(d.Path)) {
			k := entryKey{s.Name, FindRoot(d.Path, s.RootMarkers, m.workspace)}
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], d)
		}
	}
	results := make(chan struct {
		i int
		o Outcome
	}, len(order))
	for i, k := range order {
		go func() {
			results <- struct {
				i int
				o Outcome
			}{i, m.checkOne(ctx, k, groups[k], settle)}
		}()
	}
	out := make([]Outcome, len(order))
	for i, k := range order {
		out[i] = Outcome{Server: k.server, Root: k.root, Freshness: Timeout, Err: context.DeadlineExceeded}
	}
	for range order {
		select {
		case r := <-results:
			out[r.i] = r.o
		case <-ctx.Done():
			return out
		}
	}
	return out
}

func (m *Manager) checkOne(ctx context.Context, k entryKey, docs []Doc, settle time.Duration) Outcome {
	begin := time.Now()
	ftctx, cancel := context.WithTimeout(ctx, m.cfg.LSP.FirstTouchTimeout)
	defer cancel()
	c, startedNow, err := m.client(ftctx, k)
	if err != nil {
		return Outcome{Server: k.server, Root: k.root, Freshness: None, Err: err}
	}
	timeout := m.cfg.LSP.Timeout
	if startedNow || !c.Touched() {
		timeout = m.cfg.LSP.FirstTouchTimeout
	}
	sctx, cancel2 := context.WithDeadline(ctx, begin.Add(timeout))
	defer cancel2()
	o := c.Update(sctx, docs, settle)
	m.log.Info("server checked", "server", k.server, "root", k.root, "freshness", o.Freshness,
		"files", len(docs), "elapsed_ms", time.Since(begin).Milliseconds(), "err", o.Err)
	return o
}

// client returns the running client for k, starting it if needed. started
// reports whether this call started it.
func (m *Manager) client(ctx context.Context, k entryKey) (c *Client, started bool, err error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, false, ErrClosed
	}
	e, ok := m.entries[k]
	if ok {
		select {
		case <-e.ready:
			if e.missing { // maybe installed since: try again
				ok = false
			}
		default:
		}
	}
	if !ok {
		e = &entry{server: m.cfg.LSP.Servers[k.server], root: k.root, ready: make(chan struct{})}
		m.entries[k] = e
		m.mu.Unlock()
		m.start(ctx, e)
		return e.client, true, e.err
	}
	m.mu.Unlock()
	select {
	case <-e.ready:
		return e.client, false, e.err
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}

func (m *Manager) start(ctx context.Context, e *entry) {
	defer close(e.ready)
	if _, err := LookPath(e.server.Command[0]); err != nil {
		e.err, e.missing = fmt.Errorf("%w: %v", ErrUnavailable, err), true
		m.log.Warn("server unavailable", "server", e.server.Name, "err", err)
		return
	}
	// Start-up is not tied to this request: a server started for a request
	// that gave up still serves the next one.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.cfg.LSP.FirstTouchTimeout)
	defer cancel()
	e.client, e.err = Start(sctx, e.server, e.root, m.log)
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed && e.client != nil {
		e.client.Shutdown(ShutdownGrace)
		e.client, e.err = nil, ErrClosed
	}
}

// ServerStatus is one line of `status`: a server, the root it serves (empty
// for a catalogue server not started), its state, process ID (0 when not
// running), why it is broken or unavailable, and its work in progress.
type ServerStatus struct {
	Name      string   `json:"name"`
	Root      string   `json:"root,omitempty"`
	State     string   `json:"state"`
	Pid       int      `json:"pid,omitempty"`
	LastError string   `json:"last_error,omitempty"`
	Busy      []string `json:"busy,omitempty"`
}

// Status lists every started or attempted server, then every configured
// server not started (disabled ones as disabled), in name and root order.
func (m *Manager) Status() []ServerStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []ServerStatus
	seen := make(map[string]bool)
	for k, e := range m.entries {
		seen[k.server] = true
		s := ServerStatus{Name: k.server, Root: k.root}
		select {
		case <-e.ready:
			switch {
			case e.missing:
				s.State, s.LastError = StateUnavailable, e.err.Error()
			case e.err != nil:
				s.State, s.LastError = StateBroken, e.err.Error()
			case e.client.Err() != nil:
				s.State, s.LastError, s.Pid = StateBroken, e.client.Err().Error(), e.client.Pid()
			default:
				s.State, s.Pid, s.Busy = StateActive, e.client.Pid(), e.client.Busy()
			}
		default:
			s.State = StateStarting
		}
		out = append(out, s)
	}
	for name, srv := range m.cfg.LSP.Servers {
		if seen[name] {
			continue
		}
		switch {
		case !m.cfg.LSP.Enabled || !srv.Enabled:
			out = append(out, ServerStatus{Name: name, State: StateDisabled})
		default:
			if _, err := LookPath(srv.Command[0]); err != nil {
				out = append(out, ServerStatus{Name: name, State: StateUnavailable, LastError: err.Error()})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Root < out[j].Root
	})
	return out
}

// Current returns the latest published diagnostics of every file from every
// running server, merged by path.
func (m *Manager) Current() map[string][]diag.Diagnostic {
	m.mu.Lock()
	var clients []*Client
	for _, e := range m.entries {
		select {
		case <-e.ready:
			if e.client != nil {
				clients = append(clients, e.client)
			}
		default:
		}
	}
	m.mu.Unlock()
	out := make(map[string][]diag.Diagnostic)
	for _, c := range clients {
		for path, ds := range c.Current() {
			out[path] = append(out[path], ds...)
		}
	}
	return out
}

// Shutdown stops every server (shutdown, exit, then SIGKILL to its process
// group after ShutdownGrace), in parallel, and returns when all are gone.
// Later Checks fail with ErrClosed.
func (m *Manager) Shutdown() {
	m.mu.Lock()
	m.closed = true
	entries := make([]*entry, 0, len(m.entries))
	for _, e := range m.entries {
		entries = append(entries, e)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-e.ready
			if e.client != nil {
				e.client.Shutdown(ShutdownGrace)
			}
		}()
	}
	wg.Wait()
}

// FindRoot returns the server root for path: for each marker in order, the
// nearest directory from path's directory up to workspace that contains it;
// the first marker found wins. Without any, the workspace itself.
func FindRoot(path string, markers []string, workspace string) string {
	for _, marker := range markers {
		for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
			if !within(dir, workspace) {
				break
			}
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir
			}
			if dir == workspace || dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return workspace
}

// within reports whether path is dir or inside it (both clean and absolute).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator)) || dir == "/"
}

// Warm reports whether every server that would check path is running and
// has answered a change fresh before; a cold server needs the first-touch
// budget.
func (m *Manager) Warm(path string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.cfg.ServersFor(filepath.Ext(path)) {
		e, ok := m.entries[entryKey{s.Name, FindRoot(path, s.RootMarkers, m.workspace)}]
		if !ok {
			return false
		}
		select {
		case <-e.ready:
			if e.client == nil || !e.client.Touched() {
				return false
			}
		default:
			return false
		}
	}
	return true
}
