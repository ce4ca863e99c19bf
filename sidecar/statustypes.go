package sidecar

import (
	"time"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/membudget"
	"github.com/lsp-hook/lsp-hook/internal/session"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// The results of status and restart carry lsp's status types (a server's
// state, its stderr, the watcher's coverage), so the daemon declares them:
// wire must not import lsp. Their method names are wire's (MethodStatus,
// MethodRestart).

// StatusResult describes the daemon: process ID, uptime in seconds,
// workspace root, each language server, request counters, and the
// daemon process's own resource use.
type StatusResult struct {
	Running bool   `json:"running"` // false: no daemon answered (set by the client)
	Pid     int    `json:"pid"`
	Version string `json:"version"`
	UptimeS int64  `json:"uptime_s"`
	Root    string `json:"root"`
	LogFile string `json:"log_file,omitempty"`
	// Socket is the daemon's socket path, where clients reach it.
	Socket  string                `json:"socket,omitempty"`
	Servers []ServerStatus        `json:"servers"`
	Linters []engine.LinterStatus `json:"linters,omitempty"`
	// Untrusted lists what does not run until `lsp-hook trust`: the
	// workspace config's keys (config.Config.Untrusted), then the
	// workspace's own programs linters wanted, as "PROGRAM (linter NAME)"
	// (engine.Engine.Untrusted).
	Untrusted []string         `json:"untrusted,omitempty"`
	Counters  map[string]int64 `json:"counters"`
	// Process is the daemon's own goroutines, open file descriptors, RSS
	// and Go heap (KiB), read when status was answered; nil from a daemon
	// older than protocol 6.
	Process *ProcessStats `json:"process,omitempty"`
	// LogError says why the daemon cannot write LogFile (it serves on,
	// logging nowhere); "" when the log is written.
	LogError string `json:"log_error,omitempty"`
	// ConfigChanged says a file the daemon's config was loaded from has
	// changed since it started (wire.HelloResult.ConfigChanged): the next
	// hook replaces it with one that loads the config as it is.
	ConfigChanged bool `json:"config_changed,omitempty"`
	// Watcher is the workspace file watcher's coverage (lsp.WatcherStatus:
	// backend, watched and scanned directories and files, budget, scan
	// round); nil while it does not run, or from an older daemon.
	Watcher *lsp.WatcherStatus `json:"watcher,omitempty"`
	// Sessions are the agent sessions the daemon keeps a record of, for
	// the Stop gate: ID, agent, last seen, files touched, and the errors
	// they introduced at their last end of turn (-1 before one).
	Sessions []session.Summary `json:"sessions,omitempty"`
	// Memory is the memory budget shared by all of the user's daemons, as
	// this daemon saw it at its last round; nil from an older daemon.
	Memory *MemoryStatus `json:"memory,omitempty"`
}

// MemoryStatus is the memory budget in status (DESIGN.md "Memory"). Sizes
// are bytes.
type MemoryStatus struct {
	// Budget is what all of the user's daemons and their servers may hold
	// together; 0 means none.
	Budget int64 `json:"budget"`
	// Total is what they held at the daemon's last round (every
	// BudgetEvery), at At.
	Total int64 `json:"total"`
	// At is when the last round measured Total (RFC 3339 on the wire; left
	// out before the first round).
	At time.Time `json:"at,omitzero"`
	// Daemons is how many daemons Total counts.
	Daemons int `json:"daemons"`
	// RSS is this daemon process's own resident set.
	RSS int64 `json:"rss"`
	// Servers are this daemon's running servers with their process
	// trees' RSS (-1: not measured) and last use.
	Servers []membudget.Server `json:"servers"`
	// Stopped are the servers this daemon stopped for the budget, the most
	// recent last; each starts again on its next change.
	Stopped []membudget.Stopped `json:"stopped,omitempty"`
	// Records is the directory of the daemons' records, which `lsp-hook
	// status --all` reads.
	Records string `json:"records"`
}

// ServerStatus is one language server in status: name, root, state
// ("starting", "active", "broken", "disabled", "unavailable"), pid (0 when
// not running), last error, a broken server's last stderr lines, open
// documents, and work-in-progress titles. The wire shape is
// lsp.ServerStatus's.
type ServerStatus = lsp.ServerStatus

// RestartResult lists the servers restarted (every root of each), as they
// stood before: a broken one with its last error and stderr. Each is
// stopped or cleared, and starts afresh on the next change that needs it.
// An empty list means none was running or had failed.
type RestartResult struct {
	Restarted []ServerStatus `json:"restarted"`
}
