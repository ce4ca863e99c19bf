package wire

import (
	"encoding/json"

	"github.com/lsp-hook/lsp-hook/diag"
)

// The refactoring half of `request` (protocol version 11), for
// `lsp-hook mcp`'s rename, code action and check-before-write tools.
const (
	// MethodExecuteCommand runs a server command (LSP
	// workspace/executeCommand), the way a code action that carries one
	// is applied: ExecuteCommandParams → ExecuteCommandResult. The edits
	// the server asks for while it runs (workspace/applyEdit) are
	// returned, not applied: the caller writes them.
	MethodExecuteCommand = "execute_command"
	// MethodCheckEdit checks a file's would-be text without writing it:
	// CheckEditParams → CheckEditResult. The text goes to the language
	// servers as an unsaved version (didChange); when their answer is in,
	// the file's text on disk is sent again as a newer version, so that
	// they (and the next check of the file) see the disk again.
	MethodCheckEdit = "check_edit"
)

// ExecuteCommandParams names the file whose server runs the command (as
// RequestParams.Path), the command and its arguments exactly as the
// server gave them in a Command.
type ExecuteCommandParams struct {
	Path      string            `json:"path"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// ExecuteCommandResult is the command's raw result with the server, root
// and encoding (as RequestResult), and Edits: each LSP WorkspaceEdit the
// server sent through workspace/applyEdit while the command ran, raw, in
// order. lsp-hook answered each {applied: true}: the caller must write
// them, or tell the user it did not.
type ExecuteCommandResult struct {
	RequestResult
	Edits []json.RawMessage `json:"edits,omitempty"`
}

// CheckEditParams names the file (absolute or root-relative, an existing
// regular file in the workspace) and its would-be text. BudgetMS bounds the
// wait for each of the two checks (the text, then the disk again) in
// milliseconds; zero means the daemon's defaults (DefaultBudget, or
// DefaultColdBudget when a server must start).
type CheckEditParams struct {
	Path     string `json:"path"`
	Content  string `json:"content"`
	BudgetMS int    `json:"budget_ms,omitempty"`
}

// CheckEditResult is what the text would introduce: Files holds the
// diagnostics at or above the configured severity that the text has and
// the file on disk has not (the file itself first), and those it would
// introduce in other files (the callers a signature change breaks); Lint
// renders them as a lint block ("" when the text introduces nothing).
// Servers says how each server answered the text (a timeout is never
// taken for clean); Restored is false when the servers' view of the file
// could not be brought back to the disk's text in time (Notes say why).
type CheckEditResult struct {
	Files     []diag.FileDiagnostics `json:"files"`
	Lint      string                 `json:"lint"`
	Servers   []ServerResult         `json:"servers"`
	Restored  bool                   `json:"restored"`
	Notes     []string               `json:"notes,omitempty"`
	ElapsedMS int64                  `json:"elapsed_ms"`
}
