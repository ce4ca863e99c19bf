package hooks

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Copilot is the adapter for GitHub Copilot's agent hooks, which Copilot
// CLI and the Copilot coding agent load from .github/hooks/*.json
// (https://docs.github.com/en/copilot/reference/hooks-configuration).
// Copilot ignores what a postToolUse hook prints, so lsp-hook collects
// there and delivers once, when the agent stops:
//
//   - postToolUse: {"sessionId", "timestamp", "cwd", "toolName",
//     "toolArgs", "toolResult": {"resultType", "textResultForLlm"}}. The
//     file a successful file tool changed (toolArgs, a JSON string or an
//     object, names it in path, file_path or filePath) is recorded in the
//     hook spool under the session, and nothing is printed.
//   - agentStop: {"sessionId", "timestamp", "cwd", "transcriptPath",
//     "stopReason"}. The session's recorded files are checked, and a lint
//     block comes back as {"decision": "block", "reason": "<lint block>"}:
//     Copilot then runs another turn with the reason as its prompt.
//     Nothing is printed for clean files, and the spool is empty after,
//     so the next stop only reports new changes.
//
// Copilot names an event only when it was configured with a PascalCase
// name (Claude Code's, as in .claude/settings.json, which Copilot also
// reads); it then sends hook_event_name ("PostToolUse", "Stop") and
// snake_case fields (session_id, tool_name, tool_input). Both spellings
// are read; without a name, toolName with toolResult is a postToolUse
// and stopReason an agentStop. Since one change can reach lsp-hook both as
// `hook copilot` and as `hook claude`, the recorded files are merged and a
// block is delivered once per session, file and content.
type Copilot struct{}

var _ Adapter = Copilot{}

// CopilotEvent is the part of a Copilot hook event lsp-hook reads, in
// both of Copilot's spellings
// (https://docs.github.com/en/copilot/reference/hooks-configuration,
// "postToolUse", "agentStop").
type CopilotEvent struct {
	SessionID       string          `json:"sessionId"`       // the session
	SessionIDSnake  string          `json:"session_id"`      // the same, PascalCase-configured
	Cwd             string          `json:"cwd"`             // the working directory
	HookEventName   string          `json:"hook_event_name"` // only for PascalCase-configured hooks
	ToolName        string          `json:"toolName"`        // "edit", "create", "bash", …
	ToolNameSnake   string          `json:"tool_name"`       // the same, PascalCase-configured
	ToolArgs        json.RawMessage `json:"toolArgs"`        // the arguments: a JSON string (or an object)
	ToolInput       json.RawMessage `json:"tool_input"`      // the same, PascalCase-configured
	ToolResult      json.RawMessage `json:"toolResult"`      // postToolUse: {resultType, textResultForLlm}
	ToolResultSnake json.RawMessage `json:"tool_result"`     // the same, PascalCase-configured
	StopReason      *string         `json:"stopReason"`      // agentStop: "end_turn", …
	StopReasonSnake *string         `json:"stop_reason"`     // the same, PascalCase-configured
}

// copilotFileArgs are the path fields a Copilot file tool's arguments may
// carry (its edit and create tools use path; Claude Code's names, which
// PascalCase hooks may see, use file_path and notebook_path).
type copilotFileArgs struct {
	Path         string `json:"path"`
	FilePath     string `json:"file_path"`
	FilePathC    string `json:"filePath"`
	NotebookPath string `json:"notebook_path"`
	Command      string `json:"command"` // str_replace_editor's sub-command
}

// Name returns "copilot".
func (Copilot) Name() string { return "copilot" }

// Decode reads a postToolUse or agentStop event; other events give nothing
// to do. A malformed event, or toolArgs that are neither an object nor a
// string holding one, is an error.
func (Copilot) Decode(r io.Reader) (Event, error) {
	data, err := readEvent(r)
	if err != nil {
		return Event{}, fmt.Errorf("decoding Copilot hook event: %w", err)
	}
	return decodeCopilot(data)
}

// decodeCopilot decodes a Copilot event, from Copilot's own hooks or from
// a Claude Code hook Copilot ran.
func decodeCopilot(data []byte) (Event, error) {
	var ev CopilotEvent
	if err := unmarshalOne(data, &ev); err != nil {
		return Event{}, fmt.Errorf("decoding Copilot hook event: %w", err)
	}
	tool := cmp.Or(ev.ToolName, ev.ToolNameSnake)
	result := ev.ToolResult
	if len(result) == 0 {
		result = ev.ToolResultSnake
	}
	out := Event{
		Cwd: ev.Cwd, Session: cmp.Or(ev.SessionID, ev.SessionIDSnake), Tool: tool, Hook: ev.HookEventName,
		Agent: "copilot", Once: true,
	}
	kind := ev.HookEventName
	if kind == "" {
		switch {
		case tool != "" && len(result) > 0:
			kind = "postToolUse"
		case ev.StopReason != nil || ev.StopReasonSnake != nil:
			kind = "agentStop"
		}
	}
	switch kind {
	case "agentStop", "Stop":
		out.Spool = SpoolTake
		return out, nil
	case "postToolUse", "PostToolUse":
	default:
		return out, nil
	}
	out.Spool = SpoolRecord
	args := ev.ToolArgs
	if len(args) == 0 {
		args = ev.ToolInput
	}
	changes, err := copilotChanges(tool, args, result, out.Cwd)
	if err != nil {
		return out, fmt.Errorf("Copilot %s event: %w", tool, err)
	}
	out.Changes = changes
	return out, nil
}

// copilotChanges returns the file a successful file tool call changed,
// resolved against cwd: none for other tools, or when the result is a
// failure or a denial.
func copilotChanges(tool string, args, result json.RawMessage, cwd string) ([]wire.Change, error) {
	var res struct {
		ResultType string `json:"resultType"`
	}
	if json.Unmarshal(result, &res) == nil && res.ResultType != "" && res.ResultType != "success" {
		return nil, nil // failed or denied: nothing was written
	}
	mode, ok := copilotTools[tool]
	if !ok {
		return nil, nil
	}
	var fa copilotFileArgs
	if err := decodeArgs(args, &fa); err != nil {
		return nil, err
	}
	switch {
	case tool == "str_replace_editor" && fa.Command == "view":
		return nil, nil
	case tool == "str_replace_editor" && fa.Command == "create":
		mode = wire.ModeWrite
	}
	if p := cmp.Or(fa.Path, fa.FilePath, fa.FilePathC, fa.NotebookPath); p != "" {
		return []wire.Change{{Path: absUnder(cwd, p), Mode: mode}}, nil
	}
	return nil, nil
}

// copilotTools maps the file tools whose changes are checked to their
// mode: Copilot's own (create, edit, str_replace_editor and the like) and
// Claude Code's names.
var copilotTools = map[string]string{
	"create": wire.ModeWrite, "write": wire.ModeWrite, "write_file": wire.ModeWrite, "Write": wire.ModeWrite,
	"edit": wire.ModeEdit, "str_replace": wire.ModeEdit, "str_replace_editor": wire.ModeEdit, "insert": wire.ModeEdit,
	"Edit": wire.ModeEdit, "MultiEdit": wire.ModeEdit, "NotebookEdit": wire.ModeEdit,
}

// decodeArgs decodes tool arguments that are an object, or a JSON string
// holding one (toolArgs is documented as such), into v.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("decoding tool arguments: %w", err)
	}
	return nil
}

// Encode answers an agentStop with {"decision": "block", "reason": "<lint
// block>"}, or nothing when the block is empty.
func (Copilot) Encode(ev Event, res wire.Result) (Answer, error) {
	if res.Lint == "" {
		return Answer{}, nil
	}
	return jsonAnswer(claudeDecision{Decision: "block", Reason: res.Lint})
}
