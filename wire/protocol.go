package wire

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/diag"
)

// ProtocolVersion is the wire protocol's version, exchanged in hello. It
// changes whenever a method or a field is added or changes meaning; a client
// that finds a daemon with an older protocol asks it to shut down and starts
// its own. Version 2 added restart, notify_change's only_new, and status's
// stderr and documents; version 3 notify_change's phase and severity and
// status's linters and untrusted; version 4 the agent-hook methods
// (changed_files for Claude's Bash hook, subscribe for published
// diagnostics); version 5 request (LSP navigation for `lsp-hook mcp`);
// version 6 status's process (the daemon's goroutines, descriptors, RSS);
// version 7 check and cancel_request (and LSP's $/cancelRequest); version
// 8 notify_change's skipped; version 9 changed_files' session, default_ms
// and record_only, and its span, uncovered and notes; version 10 the
// session methods (session_start, session_stop, session_end),
// notify_change's session and agent, and a change's before; version 11
// the refactoring methods for `lsp-hook mcp` (request's call hierarchy,
// rename, code action and willRenameFiles methods, execute_command and
// check_edit); version 12 notify_change's chain (the hook's mark for its
// chain's next shell hook, which took a changed_files call of its own);
// version 13 hello's config_changed and the CodeConfigChanged refusal.
const ProtocolVersion = 13

// Method names served by the daemon (DESIGN.md "Socket and wire protocol").
const (
	MethodHello        = "hello"
	MethodNotifyChange = "notify_change"
	MethodDiagnostics  = "diagnostics"
	MethodStatus       = "status"
	MethodRestart      = "restart"
	MethodShutdown     = "shutdown"
)

// HelloParams opens a session: the client's version and protocol.
type HelloParams struct {
	ClientVersion string `json:"client_version"`
	Protocol      int    `json:"protocol"`
}

// HelloResult identifies the daemon: its version, protocol, process ID and
// workspace root (absolute). ConfigChanged says that the config it would
// load now differs from the one it loaded as it started (config.Stamp: the
// workspace's and the user's config files, the imported server
// definitions, the trust store's say on them), so what it would answer
// follows a config that is no longer the user's: a client replaces it
// (Current).
type HelloResult struct {
	Version       string `json:"version"`
	Protocol      int    `json:"protocol"`
	Pid           int    `json:"pid"`
	Root          string `json:"root"`
	ConfigChanged bool   `json:"config_changed,omitempty"`
}

// CodeConfigChanged is the JSON-RPC error code of a request a daemon
// refuses because its config changed since it started
// (HelloResult.ConfigChanged): a client connects again (Connect), which
// replaces it. In the range JSON-RPC 2.0 leaves to implementations
// (-32000 to -32099, "Server error"), beside CodeUnsupported.
const CodeConfigChanged = -32002

// IsConfigChanged reports whether err is a daemon's CodeConfigChanged
// refusal.
func IsConfigChanged(err error) bool {
	var rpcErr *jsonrpc2.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == CodeConfigChanged
}

// Current reports whether the daemon that said h is one to use: it speaks
// this protocol and runs with the config as it is now. A client that
// finds another asks it to shut down and starts its own (ConnectWith).
func (h HelloResult) Current() bool {
	return h.Protocol >= ProtocolVersion && !h.ConfigChanged
}

// Change modes: an edit shows diagnostics of the edited file and the
// errors it introduced in other files; a write also shows other files
// whose diagnostics changed because of it (config output.other_files).
const (
	ModeEdit  = "edit"
	ModeWrite = "write"
)

// Change is one file an agent changed. Path is absolute, or relative to the
// workspace root. Content is the file's new text when the event carried it
// (a Write); nil means read it from disk. Mode is ModeEdit or ModeWrite
// (empty means edit).
//
// Before is the file's text before the change when the event carried it
// (Claude Code's tool_response.originalFile; "" for a file the change
// created), nil when unknown: the session's record keeps it as the file's
// state before the session touched it (the Stop gate's baseline).
type Change struct {
	Path    string  `json:"path"`
	Content *string `json:"content,omitempty"`
	Mode    string  `json:"mode,omitempty"`
	Before  *string `json:"before,omitempty"`
}

// PhaseStop is NotifyChangeParams.Phase of the Stop gate's check of a
// session's files: an edit check whose servers re-check the importers of
// the files however far (20 a server at most), where a hook's re-checks
// the nearest ten and names the others it finds.
const PhaseStop = "stop"

// NotifyChangeParams asks for diagnostics of changed files. Source names the
// caller for the log ("claude"). BudgetMS is the time the caller can wait
// when every server needed is warm; ColdBudgetMS when one must start or has
// not answered yet. Zero means the daemon's defaults (5,000 and 12,000 ms).
// OnlyNew, when set, overrides the config's only_new for this request: show
// only the diagnostics this change introduced (see Engine.Check).
type NotifyChangeParams struct {
	Changes      []Change `json:"changes"`
	Source       string   `json:"source,omitempty"`
	BudgetMS     int      `json:"budget_ms,omitempty"`
	ColdBudgetMS int      `json:"cold_budget_ms,omitempty"`
	OnlyNew      *bool    `json:"only_new,omitempty"`
	// Phase is "edit" (the default: a hook or notify), "diagnose"
	// (`lsp-hook diagnose`), which also runs linters configured with
	// `when: diagnose`, such as go vet, or "stop" (PhaseStop).
	Phase string `json:"phase,omitempty"`
	// Severity, when set ("error", "warning", "info", "hint"), overrides the
	// config's lowest severity shown for this request.
	Severity string `json:"severity,omitempty"`
	// Publish sends the result to the daemon's subscribers as published
	// notifications (`subscribe`); checks without it are not published.
	Publish bool `json:"publish,omitempty"`
	// Skipped are notes ("skipped PATH: why") on changes the client left
	// out of the request, over the daemon's limits (Client.Call), or may
	// have missed (a shell command's files found by modification time,
	// changed_files' notes): the daemon adds them to Result.Notes and to
	// the lint block, within its output caps, as it does for the files it
	// skips itself.
	Skipped []string `json:"skipped,omitempty"`
	// Session and Agent name the agent session the change belongs to
	// (SessionParams): the daemon records the files a session touched,
	// for its Stop gate. Empty: no session.
	Session string `json:"session,omitempty"`
	Agent   string `json:"agent,omitempty"`
	// Chain names the hook chain of the hook that sends the change
	// ("claude/PostToolUse/<session_id>", ChangedFilesParams.Session; at
	// most MaxSessionLen bytes): once the check is over the daemon
	// remembers it as the chain's latest hook, as changed_files with
	// record_only would, so the chain's next shell hook looks back to it.
	// After the check, not before: the check may start the watcher, and a
	// mark taken before that would leave the next shell hook a span the
	// watcher cannot vouch for. Empty: no chain.
	Chain string `json:"chain,omitempty"`
}

// DiagnosticsParams asks for the current diagnostics of Paths (absolute or
// root-relative), or of every file that has some when Paths is empty.
type DiagnosticsParams struct {
	Paths []string `json:"paths,omitempty"`
}

// ServerResult is how one checker fared for a request: Name ("gopls",
// "json"), Root it ran for, State (an lsp State* value, or "active" for a
// validator), Kind, Freshness ("fresh", "partial", "timeout", "none") and Error
// when something went wrong.
type ServerResult struct {
	Name string `json:"name"`
	// Kind is "server" (a language server), "validator" or "linter".
	Kind      string `json:"kind,omitempty"`
	Root      string `json:"root,omitempty"`
	State     string `json:"state"`
	Freshness string `json:"freshness"`
	Error     string `json:"error,omitempty"`
	// Pending names work the server began after the change and had not
	// finished when the answer was sent ("cargo check"): freshness is then
	// "partial" and more diagnostics may follow.
	Pending []string `json:"pending,omitempty"`
}

// String describes a checker that did not answer fully, in one line:
// "gopls (/repo): timeout: context deadline exceeded".
func (s ServerResult) String() string {
	var b strings.Builder
	b.WriteString(s.Name)
	if s.Root != "" {
		fmt.Fprintf(&b, " (%s)", s.Root)
	}
	fmt.Fprintf(&b, ": %s", s.Freshness)
	if s.Error != "" {
		fmt.Fprintf(&b, ": %s", s.Error)
	}
	if len(s.Pending) > 0 {
		fmt.Fprintf(&b, " (still running: %s)", strings.Join(s.Pending, ", "))
	}
	return b.String()
}

// ServerResult kinds.
const (
	KindServer    = "server"
	KindValidator = "validator"
	KindLinter    = "linter"
)

// Result answers notify_change and diagnostics. Files lists every file with
// diagnostics at or above the configured severity, changed files first,
// paths absolute and Rel root-relative; Lint is the rendered lint block (""
// when there is nothing to say); Servers says how each checker fared; Notes
// explains files that were skipped (outside the workspace, binary, missing,
// too large); Unchecked lists, as absolute paths (or as given, for a path
// outside the workspace), the changed files that nothing checked, each with
// a note: a server said it cannot check the file (gopls's orphaned files),
// it was skipped as too large or outside the workspace, or nothing here
// checks its language; ElapsedMS is the daemon's time on the request in
// milliseconds.
type Result struct {
	Files     []diag.FileDiagnostics `json:"files"`
	Lint      string                 `json:"lint"`
	Servers   []ServerResult         `json:"servers"`
	Notes     []string               `json:"notes,omitempty"`
	Unchecked []string               `json:"unchecked,omitempty"`
	ElapsedMS int64                  `json:"elapsed_ms"`
}

// RestartParams names the language server to restart (its catalogue name,
// such as "gopls"); empty means every server.
type RestartParams struct {
	Server string `json:"server,omitempty"`
}
