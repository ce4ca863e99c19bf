package hooks

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Copilot is the adapter for GitHub Copilot's agent hooks, which Copilot
// CLI and the Copilot coding agent load from .github/hooks/*.json
// (https://docs.github.com/en/copilot/reference/hooks-configuration).
// Copilot CLI (1.0.51 and later, changelog "postToolUse hooks can now
// inject additionalContext into successful tool results") appends a
// postToolUse hook's additionalContext to the tool result the model reads
// in the same turn, as "Additional guidance from postToolUse hooks:\n…"
// (the CLI's app.js: the postToolUse output keeps decision, reason,
// modifiedResult, additionalContext, suppressOutput; the contexts of all
// hooks, joined, are cut at 10 KiB), so lsp-hook answers there:
//
//   - postToolUse: {"sessionId", "timestamp", "cwd", "toolName",
//     "toolArgs", "toolResult": {"resultType", "textResultForLlm"}}. The
//     file a successful file tool changed is checked now: toolArgs is the
//     tool call's arguments as the model sent them, a JSON string holding
//     an object for a function tool (edit, create: path; Claude Code's
//     names: file_path, filePath, notebook_path) and the raw patch for
//     apply_patch (a freeform tool: "*** Begin Patch…", paths relative to
//     cwd; ParsePatch). A lint block comes back as {"additionalContext":
//     "<lint block>"} and is recorded as delivered. A bash (or powershell)
//     call is a shell event: the files it changed are checked, found
//     through the daemon's watcher.
//   - agentStop: {"sessionId", "timestamp", "cwd", "transcriptPath",
//     "stopReason": "end_turn"}, when the main agent finishes a turn; its
//     answer {"decision": "block", "reason": "…"} "forces another agent
//     turn using reason as the prompt" (cli-hooks-reference, "agentStop /
//     subagentStop decision control"). It is the Stop gate (EncodeStop).
//     It also still takes what an older lsp-hook left for it: files its
//     postToolUse only recorded in the session's spool are checked first
//     (leaving out those already delivered with the same content), and a
//     block for them is the answer for that turn instead of the gate's
//     (Run, stopSpooled). Copilot sends no "stop already active" flag: the
//     daemon's own count of blocks in a row keeps the gate from blocking
//     twice. subagentStop (stopReason with agentName) is decoded the same
//     way, but not installed.
//   - sessionStart {"sessionId", "timestamp", "cwd", "source",
//     "initialPrompt"?} prewarms; sessionEnd {"sessionId", "timestamp",
//     "cwd", "reason"} lets the daemon forget the session. Copilot ignores
//     their output.
//
// Copilot names an event only when it was configured with a PascalCase
// name (Claude Code's, as in .claude/settings.json, which Copilot also
// reads); it then sends hook_event_name ("PostToolUse", "Stop") and
// snake_case fields (session_id, tool_name, tool_input). Both spellings
// are read; without a name (camelCase events carry none), toolName with
// toolResult is a postToolUse, stopReason an agentStop (a subagentStop
// with agentName), source a sessionStart and reason a sessionEnd
// (https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference,
// "Hook event input payloads"). Since one change can reach lsp-hook both as
// `hook copilot` and as `hook claude`, a block is delivered once per
// session, file and content.
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
	AgentName       string          `json:"agentName"`       // subagentStop: the subagent
	AgentNameSnake  string          `json:"agent_name"`      // the same, PascalCase-configured
	Source          *string         `json:"source"`          // sessionStart: "startup", "resume" or "new"
	Reason          *string         `json:"reason"`          // sessionEnd: "complete", "error", "abort", …
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

// copilotShellTools are Copilot CLI's shell tools (bash, and powershell
// on Windows; Claude Code's Bash under a PascalCase hook): a shell event
// (Event.Shell), whose changed files come from the daemon's watcher.
var copilotShellTools = map[string]bool{"bash": true, "powershell": true, "Bash": true}

// copilotPatchTool is Copilot CLI's patch tool, offered to the models
// that edit by patch (GPT-5 and later) instead of edit and create.
const copilotPatchTool = "apply_patch"

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
	kind := cmp.Or(ev.HookEventName, copilotKind(ev, tool, result))
	if out.Hook == "" {
		out.Hook = kind
	}
	switch kind {
	case "agentStop", "Stop", "subagentStop", "SubagentStop":
		out.Lifecycle = LifecycleStop
		out.Spool, out.SkipDelivered = SpoolTake, true
		return out, nil
	case "sessionStart", "SessionStart":
		out.Lifecycle = LifecycleStart
		return out, nil
	case "sessionEnd", "SessionEnd":
		out.Lifecycle = LifecycleEnd
		return out, nil
	case "postToolUse", "PostToolUse":
	default:
		return out, nil
	}
	out.NoteDelivered = true
	args := ev.ToolArgs
	if len(args) == 0 {
		args = ev.ToolInput
	}
	if copilotShellTools[tool] {
		out.Shell = true // the files it changed come from the daemon's watcher
		return out, nil
	}
	changes, err := copilotChanges(tool, args, result, out.Cwd)
	if err != nil {
		return out, fmt.Errorf("Copilot %s event: %w", tool, err)
	}
	out.Changes = changes
	return out, nil
}

// copilotKind names a camelCase event, which carries no hook_event_name,
// by its fields: "postToolUse", "agentStop", "subagentStop",
// "sessionStart", "sessionEnd", or "" for the others.
func copilotKind(ev CopilotEvent, tool string, result json.RawMessage) string {
	switch {
	case tool != "" && len(result) > 0:
		return "postToolUse"
	case (ev.StopReason != nil || ev.StopReasonSnake != nil) && cmp.Or(ev.AgentName, ev.AgentNameSnake) != "":
		return "subagentStop"
	case ev.StopReason != nil || ev.StopReasonSnake != nil:
		return "agentStop"
	case tool == "" && ev.Source != nil:
		return "sessionStart"
	case tool == "" && ev.Reason != nil:
		return "sessionEnd"
	}
	return ""
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
	if tool == copilotPatchTool {
		return copilotPatch(args, cwd)
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

// copilotPatch returns the files an apply_patch call added, updated or
// moved (PatchChanges), from its toolArgs: a JSON string holding the raw
// patch (what Copilot CLI sends for its freeform tool), or holding an
// object whose input or command is the patch (a function-tool form).
func copilotPatch(args json.RawMessage, cwd string) ([]wire.Change, error) {
	body, err := patchBody(args)
	if err != nil {
		return nil, err
	}
	ops, err := ParsePatch(body)
	if errors.Is(err, ErrNotPatch) && json.Valid([]byte(body)) {
		if body, err = patchBody(json.RawMessage(body)); err == nil {
			ops, err = ParsePatch(body)
		}
	}
	if err != nil {
		return nil, err
	}
	return PatchChanges(ops, cwd), nil
}

// copilotTools maps the file tools whose changes are checked to their
// mode: Copilot CLI's own (create, edit, str_replace, insert,
// str_replace_editor: the file-editing tools of its app.js, apply_patch
// aside) and Claude Code's names.
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

// copilotContext is Copilot's postToolUse answer.
type copilotContext struct {
	AdditionalContext string `json:"additionalContext"` // appended to the tool result
}

// Encode answers a postToolUse with {"additionalContext": "<lint
// block>"} and an end of turn (the spooled files of an older install)
// with {"decision": "block", "reason": "<lint block>"}; nothing when the
// block is empty.
func (Copilot) Encode(ev Event, res wire.Result) (Answer, error) {
	switch {
	case res.Lint == "":
		return Answer{}, nil
	case ev.Lifecycle == LifecycleStop:
		return jsonAnswer(claudeDecision{Decision: "block", Reason: res.Lint})
	}
	return jsonAnswer(copilotContext{AdditionalContext: res.Lint})
}

var _ StopEncoder = Copilot{}

// EncodeStop answers an agentStop: to block, {"decision": "block",
// "reason": "<lint block>"}, which makes Copilot run another turn with the
// reason as its prompt; nothing otherwise. agentStop's answer has no field
// the user alone sees, so the warn decision prints nothing (the daemon's
// log and `lsp-hook status` keep the errors).
func (Copilot) EncodeStop(_ Event, res wire.SessionStopResult) (Answer, error) {
	if res.Lint != "" && res.Decision == wire.StopBlock {
		return jsonAnswer(claudeDecision{Decision: "block", Reason: res.Lint})
	}
	return Answer{}, nil
}
