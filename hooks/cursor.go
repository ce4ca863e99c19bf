package hooks

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Cursor is the adapter for Cursor's agent hooks
// (https://cursor.com/docs/agent/hooks), configured in .cursor/hooks.json
// for two events:
//
//   - afterFileEdit, observe-only (Cursor reads no answer): {"file_path":
//     "/abs/file", "edits": [{"old_string", "new_string"}]} plus the
//     common fields. The file is recorded in the hook spool under the
//     conversation, and nothing is printed.
//   - postToolUse: {"tool_name", "tool_input", "tool_output", "tool_use_id",
//     "cwd", "duration"} plus the common fields. It takes the files
//     recorded for the conversation, adds the tool's own (Write and Edit
//     name it in tool_input.file_path or .path, Delete the file it
//     removed, whose callers may break; a Shell command adds the
//     workspace files changed since the conversation's previous hook or
//     since the command started by its duration, in milliseconds,
//     whichever is earlier, as Claude's Bash does), and
//     answers {"additional_context": "<lint block>"}, which Cursor injects
//     into the conversation after the tool result.
//
// and for the session events (DESIGN.md "Sessions"; the same page,
// "sessionStart", "stop", "sessionEnd"):
//
//   - sessionStart: {"session_id", "is_background_agent",
//     "composer_mode"} plus the common fields: prewarm.
//   - stop: {"status": "completed" | "aborted" | "error", "loop_count"}
//     plus the common fields, when the agent loop ends. Its answer
//     {"followup_message": "…"} is submitted as the next user message, so
//     the agent goes on (Cursor caps this with the hook's loop_limit,
//     default 5). A completed turn is the Stop gate (EncodeStop), after
//     the files afterFileEdit recorded that no postToolUse took are
//     checked (Run, stopSpooled); an aborted or failed one is left alone.
//     loop_count is not read as "already active": it counts the
//     conversation's follow-ups, not this turn's, and the daemon keeps
//     its own count of blocks in a row.
//   - sessionEnd: {"session_id", "reason", "duration_ms"} plus the common
//     fields: the daemon forgets the session.
//
// The common fields read are conversation_id (the session, stable across
// turns), hook_event_name, cursor_version and workspace_roots (the first
// is the working directory when cwd is absent). Cursor also runs the hooks
// of .claude/settings.json (https://cursor.com/docs/reference/third-party-hooks),
// so one edit can reach `lsp-hook hook cursor` and `lsp-hook hook claude`:
// every Cursor answer is delivered once per conversation, file and content
// (Event.Once).
type Cursor struct{}

var _ Adapter = Cursor{}

// CursorEvent is the part of a Cursor hook event lsp-hook reads
// (https://cursor.com/docs/agent/hooks, "Common schema", "postToolUse",
// "afterFileEdit").
type CursorEvent struct {
	ConversationID string          `json:"conversation_id"` // stable across the conversation's turns
	GenerationID   string          `json:"generation_id"`   // changes with every user message
	HookEventName  string          `json:"hook_event_name"` // "afterFileEdit", "postToolUse", …
	CursorVersion  string          `json:"cursor_version"`  // e.g. "1.7.2"
	WorkspaceRoots []string        `json:"workspace_roots"` // the workspace's root folders
	SessionID      string          `json:"session_id"`      // sessionStart's name for conversation_id
	Cwd            string          `json:"cwd"`             // postToolUse: the tool's directory
	ToolName       string          `json:"tool_name"`       // postToolUse: "Shell", "Read", "Write", …
	ToolInput      json.RawMessage `json:"tool_input"`      // postToolUse: the tool's arguments
	Duration       *float64        `json:"duration"`        // postToolUse: milliseconds
	FilePath       string          `json:"file_path"`       // afterFileEdit: absolute
	Status         string          `json:"status"`          // stop: "completed", "aborted" or "error"
}

// cursorFileInput holds the path fields a Cursor file tool's tool_input
// may carry; Cursor documents no schema for them, so both spellings
// Claude Code and Cursor use are read.
type cursorFileInput struct {
	FilePath   string `json:"file_path"`
	Path       string `json:"path"`
	TargetFile string `json:"target_file"` // the Delete tool's argument as the model writes it
}

// Name returns "cursor".
func (Cursor) Name() string { return "cursor" }

// Decode reads an afterFileEdit or postToolUse event; other events give
// nothing to do. A malformed event, or an afterFileEdit without
// file_path, is an error.
func (Cursor) Decode(r io.Reader) (Event, error) {
	data, err := readEvent(r)
	if err != nil {
		return Event{}, fmt.Errorf("decoding Cursor hook event: %w", err)
	}
	return decodeCursor(data)
}

// decodeCursor decodes a Cursor event, from Cursor's own hooks or from a
// Claude Code hook Cursor ran.
func decodeCursor(data []byte) (Event, error) {
	var ev CursorEvent
	if err := unmarshalOne(data, &ev); err != nil {
		return Event{}, fmt.Errorf("decoding Cursor hook event: %w", err)
	}
	out := Event{
		Cwd: ev.Cwd, Session: ev.ConversationID, Tool: ev.ToolName, Hook: ev.HookEventName,
		Agent: "cursor", Once: true,
	}
	if out.Session == "" {
		out.Session = ev.SessionID
	}
	if out.Cwd == "" && len(ev.WorkspaceRoots) > 0 {
		out.Cwd = ev.WorkspaceRoots[0]
	}
	switch ev.HookEventName {
	case "sessionStart", "SessionStart":
		out.Lifecycle = LifecycleStart
	case "sessionEnd", "SessionEnd":
		out.Lifecycle = LifecycleEnd
	case "stop", "Stop":
		if ev.Status == "" || ev.Status == "completed" {
			out.Lifecycle, out.Spool = LifecycleStop, SpoolTake
		}
	case "afterFileEdit":
		if ev.FilePath == "" {
			return out, fmt.Errorf("Cursor afterFileEdit event: file_path is missing")
		}
		out.Spool = SpoolRecord
		out.Changes = []wire.Change{{Path: absUnder(out.Cwd, ev.FilePath), Mode: wire.ModeEdit}}
	case "postToolUse", "PostToolUse":
		out.Spool = SpoolTake
		switch ev.ToolName {
		case "Write", "Edit", "MultiEdit", "Delete":
			// A Delete names a path that is gone: the daemon tells the
			// servers and lists the files its going broke, as the compiler
			// does (a write shows other files' errors).
			mode := wire.ModeEdit
			if ev.ToolName == "Delete" {
				mode = wire.ModeWrite
			}
			var in cursorFileInput
			if json.Unmarshal(ev.ToolInput, &in) == nil {
				if p := cmp.Or(in.FilePath, in.Path, in.TargetFile); p != "" {
					out.Changes = []wire.Change{{Path: absUnder(out.Cwd, p), Mode: mode}}
				}
			}
		case "Shell", "Bash":
			out.Shell = true
			if ev.Duration != nil && *ev.Duration > 0 && *ev.Duration < float64(24*time.Hour/time.Millisecond) {
				out.ShellRan = time.Duration(*ev.Duration * float64(time.Millisecond))
			}
		}
	}
	return out, nil
}

// Encode answers a postToolUse with {"additional_context": "<lint
// block>"}, a stop (its spooled files) with {"followup_message": "<lint
// block>"}, or nothing when the block is empty.
func (Cursor) Encode(ev Event, res wire.Result) (Answer, error) {
	switch {
	case res.Lint == "":
		return Answer{}, nil
	case ev.Lifecycle == LifecycleStop:
		return cursorFollowup(res.Lint)
	}
	return jsonAnswer(struct {
		AdditionalContext string `json:"additional_context"`
	}{res.Lint})
}

var _ StopEncoder = Cursor{}

// EncodeStop answers a stop: to block, {"followup_message": "<lint
// block>"}, which Cursor submits as the next user message; nothing
// otherwise (stop's answer has no field only the user sees, so warn
// prints nothing).
func (Cursor) EncodeStop(_ Event, res wire.SessionStopResult) (Answer, error) {
	if res.Lint != "" && res.Decision == wire.StopBlock {
		return cursorFollowup(res.Lint)
	}
	return Answer{}, nil
}

// cursorFollowup is a stop hook's answer continuing the agent with msg.
func cursorFollowup(msg string) (Answer, error) {
	return jsonAnswer(struct {
		FollowupMessage string `json:"followup_message"`
	}{msg})
}

// absUnder resolves p against dir when p is relative and dir is known.
func absUnder(dir, p string) string {
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}
