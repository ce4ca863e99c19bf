package hooks

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

// Claude is the adapter for Claude Code's PostToolUse hook
// (https://docs.claude.com/en/docs/claude-code/hooks). The event on stdin is
//
//	{"session_id": "…", "transcript_path": "…", "cwd": "/abs/dir",
//	 "hook_event_name": "PostToolUse", "tool_name": "Write",
//	 "tool_input": {"file_path": "/abs/file", "content": "…"},
//	 "tool_response": {…}}
//
// Write is a write (its content is the new file); Edit and MultiEdit are
// edits, read from disk after the tool ran. Other tools yield no change.
// The answer is {"hookSpecificOutput": {"hookEventName": "PostToolUse",
// "additionalContext": "<lint block>"}}, which Claude Code adds to the
// model's context next to the tool result.
type Claude struct{}

var _ Adapter = Claude{}

// ClaudeEvent is the part of a Claude Code hook event lsp-hook reads.
type ClaudeEvent struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
}

// claudeFileInput is tool_input of Write, Edit and MultiEdit: all carry
// file_path (absolute); Write also carries the whole new content.
type claudeFileInput struct {
	FilePath string  `json:"file_path"`
	Content  *string `json:"content"`
}

// Name returns "claude".
func (Claude) Name() string { return "claude" }

// Decode reads a PostToolUse event. A malformed event, or one for a file
// tool without file_path, is an error naming what was wrong; an event for
// another tool or hook event gives no changes and no error.
func (Claude) Decode(r io.Reader) (Event, error) {
	var ev ClaudeEvent
	if err := decodeStrict(r, &ev); err != nil {
		return Event{}, fmt.Errorf("decoding Claude Code hook event: %w", err)
	}
	out := Event{Cwd: ev.Cwd, Session: ev.SessionID, Tool: ev.ToolName}
	if ev.HookEventName != "" && ev.HookEventName != "PostToolUse" {
		return out, nil
	}
	var mode string
	switch ev.ToolName {
	case "Write":
		mode = sidecar.ModeWrite
	case "Edit", "MultiEdit":
		mode = sidecar.ModeEdit
	default:
		return out, nil // NotebookEdit, Bash, Read, …: nothing to check (for now)
	}
	var in claudeFileInput
	if len(ev.ToolInput) == 0 {
		return out, fmt.Errorf("Claude Code %s event has no tool_input", ev.ToolName)
	}
	if err := json.Unmarshal(ev.ToolInput, &in); err != nil {
		return out, fmt.Errorf("decoding %s tool_input: %w", ev.ToolName, err)
	}
	if in.FilePath == "" {
		return out, fmt.Errorf("Claude Code %s event: tool_input.file_path is missing", ev.ToolName)
	}
	c := sidecar.Change{Path: in.FilePath, Mode: mode}
	if mode == sidecar.ModeWrite {
		c.Content = in.Content
	}
	out.Changes = []sidecar.Change{c}
	return out, nil
}

// Encode writes the PostToolUse answer carrying lint as additionalContext,
// or nothing when lint is empty (the file is clean).
func (Claude) Encode(w io.Writer, lint string) error {
	if lint == "" {
		return nil
	}
	out := map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":     "PostToolUse",
		"additionalContext": lint,
	}}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // the block escapes &, <, > itself; keep them readable
	return enc.Encode(out)
}
