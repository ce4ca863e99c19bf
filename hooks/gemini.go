package hooks

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Gemini is the adapter for Gemini CLI's AfterTool hook
// (https://geminicli.com/docs/hooks/reference, "AfterTool"; tools in
// https://geminicli.com/docs/tools/file-system). The event on stdin is
//
//	{"session_id": "…", "transcript_path": "…", "cwd": "/abs/dir",
//	 "hook_event_name": "AfterTool", "timestamp": "<ISO 8601>",
//	 "tool_name": "write_file",
//	 "tool_input": {"file_path": "/abs/file", "content": "…"},
//	 "tool_response": {"llmContent": …, "returnDisplay": …, "error": …}}
//
// write_file (file_path, content) is a write and replace (file_path,
// old_string, new_string) an edit; both are read from disk, since the
// user may change the proposed text when approving it. A tool_response
// with an error changed nothing. run_shell_command is a shell event
// (Event.Shell): the files the command changed are found through the
// daemon's watcher, whether or not it failed. Other tools yield no
// change.
//
// The answer is {"hookSpecificOutput": {"hookEventName": "AfterTool",
// "additionalContext": "<lint block>"}}, appended to the tool result the
// model reads. Gemini CLI replaces every < and > of additionalContext with
// &lt; and &gt; and wraps it in <hook_context> tags
// (packages/core/src/hooks/types.ts getAdditionalContext,
// packages/core/src/core/coreToolHookTriggers.ts), so the block is sent as
// diag.PlainLintBlock renders it: no angle brackets, a "diagnostics for
// PATH:" line per file, < and > in messages as their fullwidth forms. Gemini's other channels, exit status 2 and decision "deny",
// replace the tool result, so this adapter never uses them: only
// ModeContext.
//
// Gemini CLI's session events (the same reference, "Lifecycle & system
// hooks" and "Agent hooks") carry the base fields session_id and cwd:
// SessionStart (source "startup", "resume" or "clear"; advisory, never
// blocks startup) prewarms; AfterAgent, fired once per turn after the
// model's final response, with prompt, prompt_response and
// stop_hook_active ("already running as part of a retry sequence"), is
// the Stop gate (EncodeStop); SessionEnd (reason "exit", "clear", …; the
// CLI does not wait for it) lets the daemon forget the session.
type Gemini struct{}

// geminiShellTool is Gemini CLI's shell tool
// (https://geminicli.com/docs/tools/shell).
const geminiShellTool = "run_shell_command"

var _ Adapter = Gemini{}

// GeminiEvent is the part of a Gemini CLI AfterTool event lsp-hook reads
// (https://geminicli.com/docs/hooks/reference, "Base input schema",
// "AfterTool").
type GeminiEvent struct {
	SessionID     string          `json:"session_id"`      // the session
	Cwd           string          `json:"cwd"`             // the working directory
	HookEventName string          `json:"hook_event_name"` // "AfterTool"
	ToolName      string          `json:"tool_name"`       // "write_file", "replace", …
	ToolInput     json.RawMessage `json:"tool_input"`      // the model's arguments (file_path, …)
	ToolResponse  json.RawMessage `json:"tool_response"`   // {llmContent, returnDisplay, error?}
	// StopHookActive is AfterAgent's stop_hook_active: this end of turn
	// follows a retry an AfterAgent hook asked for.
	StopHookActive bool `json:"stop_hook_active"`
}

// Name returns "gemini".
func (Gemini) Name() string { return "gemini" }

// Decode reads an AfterTool event. A malformed event, or one for
// write_file or replace without tool_input.file_path, is an error.
func (Gemini) Decode(r io.Reader) (Event, error) {
	var ev GeminiEvent
	if err := decodeStrict(r, &ev); err != nil {
		return Event{}, fmt.Errorf("decoding Gemini CLI hook event: %w", err)
	}
	out := Event{Cwd: ev.Cwd, Session: ev.SessionID, Tool: ev.ToolName, Hook: ev.HookEventName, Agent: "gemini"}
	switch ev.HookEventName {
	case "SessionStart":
		out.Lifecycle = LifecycleStart
		return out, nil
	case "AfterAgent":
		out.Lifecycle, out.StopActive = LifecycleStop, ev.StopHookActive
		return out, nil
	case "SessionEnd":
		out.Lifecycle = LifecycleEnd
		return out, nil
	case "", "AfterTool":
	default:
		return out, nil
	}
	mode := wire.ModeEdit
	switch ev.ToolName {
	case "write_file":
		mode = wire.ModeWrite
	case "replace":
	case geminiShellTool:
		out.Shell = true // the files it changed come from the daemon's watcher
		return out, nil
	default:
		return out, nil
	}
	var resp struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(ev.ToolResponse, &resp) == nil && len(resp.Error) > 0 && string(resp.Error) != "null" && string(resp.Error) != `""` {
		return out, nil // the tool failed: nothing was written
	}
	var in struct {
		FilePath string `json:"file_path"`
	}
	if len(ev.ToolInput) == 0 {
		return out, fmt.Errorf("Gemini CLI %s event has no tool_input", ev.ToolName)
	}
	if err := json.Unmarshal(ev.ToolInput, &in); err != nil {
		return out, fmt.Errorf("decoding %s tool_input: %w", ev.ToolName, err)
	}
	if in.FilePath == "" {
		return out, fmt.Errorf("Gemini CLI %s event: tool_input.file_path is missing", ev.ToolName)
	}
	out.Changes = []wire.Change{{Path: absUnder(out.Cwd, in.FilePath), Mode: mode}}
	return out, nil
}

// Encode answers with hookSpecificOutput.additionalContext, or nothing
// when the block is empty.
func (Gemini) Encode(ev Event, res wire.Result) (Answer, error) {
	if res.Lint == "" {
		return Answer{}, nil
	}
	var out claudeHookOutput // the same shape: hookEventName and additionalContext
	out.HookSpecificOutput.HookEventName = "AfterTool"
	out.HookSpecificOutput.AdditionalContext = diag.PlainLintBlock(res.Lint)
	return jsonAnswer(out)
}

var _ StopEncoder = Gemini{}

// EncodeStop answers an AfterAgent event (https://geminicli.com/docs/hooks/reference,
// "AfterAgent"): to block, {"decision": "deny", "reason": "<lint block>"},
// which rejects the response and sends the reason to the agent as a new
// prompt (a retry turn); to warn, {"systemMessage": "<lint block>"},
// shown to the user; nothing to allow. The reason is a prompt, not
// additionalContext, so Gemini does not escape it: the block goes as is.
func (Gemini) EncodeStop(_ Event, res wire.SessionStopResult) (Answer, error) {
	if res.Lint != "" && res.Decision == wire.StopBlock {
		return jsonAnswer(claudeDecision{Decision: "deny", Reason: res.Lint})
	}
	return stopAnswer(res)
}
