package lsp

import (
	"sort"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
)

// ServerStatus is one line of `status`: a server, the root it serves (empty
// for a catalogue server not started), its state, process ID (0 when not
// running), why it is broken or unavailable, the last lines a broken server
// wrote to stderr, how many documents it has open, and its work in
// progress. A crashed server (broken) also has its crashes within
// CrashPolicy.Window and when the next change may start it again (zero
// once lsp-hook gave it up: then only `lsp-hook restart` does), which its
// last error says too.
type ServerStatus struct {
	Name      string    `json:"name"`
	Root      string    `json:"root,omitempty"`
	State     string    `json:"state"`
	Pid       int       `json:"pid,omitempty"`
	LastError string    `json:"last_error,omitempty"`
	Stderr    []string  `json:"stderr,omitempty"`
	Documents int       `json:"documents,omitempty"`
	Busy      []string  `json:"busy,omitempty"`
	Crashes   int       `json:"crashes,omitempty"`
	RestartAt time.Time `json:"restart_at,omitzero"`
	// Companion is the server's companion watch command, when it has
	// one (config.Server.Watch): running or between restarts.
	Companion *CompanionStatus `json:"companion,omitempty"`
	// WarningsOff are the config.Server.WarningsOnlyArgs the server runs
	// with (clangd's --clang-tidy=false): nothing it answers shows what
	// that part would find. Empty when it runs whole.
	WarningsOff []string `json:"warnings_off,omitempty"`
	// WarningsConfig are the file names whose appearance near a checked
	// file restarts it whole (config.Server.WarningsConfigFiles), set
	// with WarningsOff.
	WarningsConfig []string `json:"warnings_config,omitempty"`
	// VirtualEnv is the Python virtual environment whose packages the
	// server resolves imports against (config.Server.VirtualEnvSetting,
	// lsp/venv.go), absolute; "" when none.
	VirtualEnv string `json:"virtual_env,omitempty"`
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
		m.crashLocked(e) // a crash not yet recorded shows with its back-off
		out = append(out, e.status())
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

// status describes one entry; Manager.mu must be held.
func (e *entry) status() ServerStatus {
	s := ServerStatus{Name: e.server.Name, Root: e.root}
	select {
	case <-e.ready:
	default:
		s.State = StateStarting
		return s
	}
	switch c := e.client; {
	case e.missing:
		s.State, s.LastError = StateUnavailable, e.err.Error()
	case e.err != nil:
		s.State, s.LastError = StateBroken, e.err.Error()
	case c.Err() != nil:
		s.State, s.LastError, s.Pid = StateBroken, c.Err().Error(), c.Pid()
		s.Stderr = c.StderrLines(stderrStatusLines)
	default:
		s.State, s.Pid, s.Busy, s.Documents = StateActive, c.Pid(), c.Busy(), c.openDocCount()
		s.LastError = e.unanswered
		s.Companion = c.companion.status()
		if e.lean {
			s.WarningsOff, s.WarningsConfig = e.server.WarningsOnlyArgs, e.server.WarningsConfigFiles
		}
		s.VirtualEnv = e.venv
	}
	if s.State == StateBroken && e.crash != nil {
		s.LastError, s.Crashes, s.RestartAt = e.crash.Error(), e.crash.Crashes, e.crash.RestartAt
	}
	return s
}

// Current returns the latest published diagnostics of every file from every
// running server, merged by path.
func (m *Manager) Current() map[string][]diag.Diagnostic {
	clients := m.readyClients()
	out := make(map[string][]diag.Diagnostic)
	for _, c := range clients {
		for path, ds := range c.Current() {
			out[path] = append(out[path], ds...)
		}
	}
	return out
}
