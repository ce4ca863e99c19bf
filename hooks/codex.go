package hooks

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Codex is the adapter for Codex CLI's PostToolUse hook
// (https://developers.openai.com/codex/hooks; the input's fields are
// codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json
// in openai/codex). The event on stdin is Claude Code's shape with Codex's
// extras:
//
//	{"session_id": "…", "turn_id": "…", "transcript_path": "…" | null,
//	 "cwd": "/abs/dir", "hook_event_name": "PostToolUse", "model": "…",
//	 "permission_mode": "…", "tool_name": "apply_patch",
//	 "tool_input": {"command": "*** Begin Patch\n…"},
//	 "tool_response": …, "tool_use_id": "…"}
//
// apply_patch (Codex's file-editing tool, which also answers the matcher
// aliases Edit and Write) carries the raw patch body in
// tool_input.command; it is parsed (ParsePatch) into the files it added
// (checked as writes), updated (edits), moved (writes at the new path)
// and deleted (not checked), relative paths resolved against cwd. Bash
// (Codex's shell and exec_command tools as its hooks name them, input
// {"command"}) is a shell event (Event.Shell): the files the command
// changed are found through the daemon's watcher. Other tools yield no
// change.
//
// The answer is Claude Code's, which Codex takes as is
// (post-tool-use.command.output.schema.json): hookSpecificOutput
// {hookEventName: "PostToolUse", additionalContext} in ModeContext,
// decision "block" with reason in ModeBlock, stderr and exit 2 in
// ModeExit2.
type Codex struct {
	Mode Mode // ModeContext (also for ""), ModeBlock or ModeExit2
}

var _ Adapter = Codex{}

// CodexEvent is the part of a Codex PostToolUse event lsp-hook reads.
type CodexEvent struct {
	SessionID     string          `json:"session_id"`      // the session
	TurnID        string          `json:"turn_id"`         // the turn within it
	Cwd           string          `json:"cwd"`             // the working directory; patch paths are relative to it
	HookEventName string          `json:"hook_event_name"` // "PostToolUse"
	ToolName      string          `json:"tool_name"`       // "apply_patch", "Bash", "mcp__…"
	ToolInput     json.RawMessage `json:"tool_input"`      // apply_patch: {"command": "<patch>"}
	// StopHookActive is a Stop event's stop_hook_active, as Claude Code's.
	StopHookActive bool `json:"stop_hook_active"`
}

// Name returns "codex".
func (Codex) Name() string { return "codex" }

// Decode reads a PostToolUse event. A malformed event, or an apply_patch
// whose tool_input holds no valid patch, is an error.
func (Codex) Decode(r io.Reader) (Event, error) {
	var ev CodexEvent
	if err := decodeStrict(r, &ev); err != nil {
		return Event{}, fmt.Errorf("decoding Codex hook event: %w", err)
	}
	out := Event{Cwd: ev.Cwd, Session: ev.SessionID, Tool: ev.ToolName, Hook: ev.HookEventName, Agent: "codex"}
	switch ev.HookEventName {
	case "SessionStart":
		out.Lifecycle = LifecycleStart
		return out, nil
	case "Stop":
		out.Lifecycle, out.StopActive = LifecycleStop, ev.StopHookActive
		return out, nil
	}
	if ev.HookEventName != "" && ev.HookEventName != "PostToolUse" {
		return out, nil
	}
	switch ev.ToolName {
	case "apply_patch", "Edit", "Write":
	case "Bash":
		out.Shell = true // the files it changed come from the daemon's watcher
		return out, nil
	default:
		return out, nil
	}
	body, err := patchBody(ev.ToolInput)
	if err != nil {
		return out, fmt.Errorf("Codex %s event: %w", ev.ToolName, err)
	}
	ops, err := ParsePatch(body)
	if err != nil {
		return out, fmt.Errorf("Codex %s event: %w", ev.ToolName, err)
	}
	out.Changes = PatchChanges(ops, ev.Cwd)
	return out, nil
}

// patchBody returns the patch text of an apply_patch tool_input: its
// "command" string (what Codex sends), or "input" (the function-call
// form's argument), or tool_input itself when it is a string (the
// freeform form).
func patchBody(input json.RawMessage) (string, error) {
	if len(input) == 0 || string(input) == "null" {
		return "", fmt.Errorf("no tool_input")
	}
	var s string
	if json.Unmarshal(input, &s) == nil {
		return s, nil
	}
	var in struct {
		Command *string `json:"command"`
		Input   *string `json:"input"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return "", fmt.Errorf("decoding tool_input: %w", err)
	}
	switch {
	case in.Command != nil:
		return *in.Command, nil
	case in.Input != nil:
		return *in.Input, nil
	}
	return "", fmt.Errorf("tool_input.command is missing")
}

// Encode renders Claude Code's answer in c.Mode for PostToolUse.
func (c Codex) Encode(ev Event, res wire.Result) (Answer, error) {
	return claudeAnswer(c.Mode, "PostToolUse", res.Lint)
}

// EncodeStop answers a Stop event as Claude Code's (Codex's hooks take its
// decision shape: "decision": "block" with a "reason" continues the turn),
// with the block tag-free (diag.PlainLintBlock): Codex 0.169 hands the
// reason to the model inside <hook_prompt> with < and > escaped as
// entities (seen through the real CLI: agentsuite's codex-stop row).
func (Codex) EncodeStop(_ Event, res wire.SessionStopResult) (Answer, error) {
	res.Lint = diag.PlainLintBlock(res.Lint)
	return stopAnswer(res)
}
