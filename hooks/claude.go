package hooks

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Claude is the adapter for Claude Code's PostToolUse and PostToolBatch
// hooks (https://code.claude.com/docs/en/hooks; input types in
// https://code.claude.com/docs/en/agent-sdk/typescript, "Hook Types").
// A PostToolUse event on stdin is
//
//	{"session_id": "…", "transcript_path": "…", "cwd": "/abs/dir",
//	 "hook_event_name": "PostToolUse", "tool_name": "Write",
//	 "tool_input": {"file_path": "/abs/file", "content": "…"},
//	 "tool_response": {…}, "tool_use_id": "…", "duration_ms": 12}
//
// and a PostToolBatch event carries the batch's calls instead:
// "tool_calls": [{"tool_name", "tool_input", "tool_use_id",
// "tool_response"}]; its answer is one lint block for every file the batch
// changed, leaving out the files a PostToolUse hook of the same session
// already reported with the same content (both hooks may be configured).
//
// Write is a write; Edit, MultiEdit and NotebookEdit
// (tool_input.notebook_path; the .ipynb is validated as JSON) are edits;
// each file is read from disk after the tool ran (never from the event's
// content, which a formatter or a second Write may have replaced). Bash
// checks the workspace files changed on disk since the previous hook of
// the session (for the same hook event), or since its command started by
// duration_ms when that is earlier and the previous hook examined no shell
// changes (see check.go); with neither known (a session's first hook
// without duration_ms; a batch's calls never carry one), those of the last
// DefaultShellWindow, with a note saying so. Other tools yield no change.
//
// The answer, by Mode: ModeContext prints {"hookSpecificOutput":
// {"hookEventName": "PostToolUse" (or "PostToolBatch"),
// "additionalContext": "<lint block>"}}, which Claude Code adds to the
// model's context; ModeBlock prints {"decision": "block", "reason":
// "<lint block>"}, which prompts the model with the reason; ModeExit2
// writes the block to stderr and exits 2, which Claude Code feeds back
// to the model. Nothing is printed for a clean change.
//
// Cursor and GitHub Copilot run .claude/settings.json hooks too, with
// their own event shapes: Decode recognizes them (runnerOf) and reads the
// event as that agent's adapter does, and Encode then answers as that
// agent expects (Mode does not apply there).
type Claude struct {
	Mode Mode // ModeContext (also for ""), ModeBlock or ModeExit2
}

var _ Adapter = Claude{}

// DefaultShellWindow is how far back a shell tool's changes are looked
// for when neither its event's duration nor an earlier hook of its
// session bounds the span.
const DefaultShellWindow = time.Minute

// ClaudeEvent is the part of a Claude Code hook event lsp-hook reads
// (https://code.claude.com/docs/en/hooks#posttooluse-input and
// #posttoolbatch-input).
type ClaudeEvent struct {
	SessionID     string          `json:"session_id"`      // the conversation
	Cwd           string          `json:"cwd"`             // the working directory, absolute
	HookEventName string          `json:"hook_event_name"` // "PostToolUse", "PostToolBatch", …
	ToolName      string          `json:"tool_name"`       // "Write", "Edit", "Bash", …
	ToolInput     json.RawMessage `json:"tool_input"`      // the tool's arguments (claudeFileInput)
	ToolResponse  json.RawMessage `json:"tool_response"`   // the tool's structured result
	ToolUseID     string          `json:"tool_use_id"`     // the call's ID (PostToolUse)
	// DurationMS is how long the tool ran, in milliseconds (PostToolUse;
	// absent in older versions).
	DurationMS *float64 `json:"duration_ms"`
	// ToolCalls are a PostToolBatch's calls.
	ToolCalls []ClaudeToolCall `json:"tool_calls"`
	// StopHookActive is a Stop or SubagentStop event's stop_hook_active:
	// Claude Code is already continuing because a Stop hook blocked.
	StopHookActive bool `json:"stop_hook_active"`
}

// ClaudeToolCall is one call of a PostToolBatch event. ToolResponse is the
// serialized tool_result the model saw, not PostToolUse's structured
// response.
type ClaudeToolCall struct {
	ToolName     string          `json:"tool_name"`     // as in PostToolUse
	ToolInput    json.RawMessage `json:"tool_input"`    // as in PostToolUse
	ToolUseID    string          `json:"tool_use_id"`   // the call's ID
	ToolResponse json.RawMessage `json:"tool_response"` // the serialized tool_result, optional
}

// claudeFileInput is the tool_input fields lsp-hook reads: file_path
// (absolute) of Write, Edit and MultiEdit, Write's whole new content, and
// NotebookEdit's notebook_path.
type claudeFileInput struct {
	FilePath     string  `json:"file_path"`
	Content      *string `json:"content"`
	NotebookPath string  `json:"notebook_path"`
}

// Name returns "claude".
func (Claude) Name() string { return "claude" }

// Decode reads a PostToolUse or PostToolBatch event. A malformed event, or
// one for a file tool without its path, is an error naming what was wrong;
// an event for another tool or hook event gives no changes and no error.
func (Claude) Decode(r io.Reader) (Event, error) {
	data, err := readEvent(r)
	if err != nil {
		return Event{}, fmt.Errorf("decoding Claude Code hook event: %w", err)
	}
	// One pass reads the event and the fields that tell another runner's
	// (the event holds the whole file before an Edit: tool_response's
	// originalFile); an event that is not Claude Code's shape is probed
	// alone, so that a field of the wrong type for ClaudeEvent does not
	// hide another runner's event.
	var both struct {
		ClaudeEvent
		runnerProbe
	}
	err = unmarshalOne(data, &both)
	runner := both.runner()
	if err != nil {
		runner = runnerOf(data)
	}
	switch runner {
	case "cursor":
		return decodeCursor(data)
	case "copilot":
		return decodeCopilot(data)
	}
	if err != nil {
		return Event{}, fmt.Errorf("decoding Claude Code hook event: %w", err)
	}
	ev := both.ClaudeEvent
	out := Event{Cwd: ev.Cwd, Session: ev.SessionID, Tool: ev.ToolName, Hook: ev.HookEventName, Agent: "claude"}
	switch ev.HookEventName {
	case "SessionStart":
		out.Lifecycle = LifecycleStart
	case "Stop", "SubagentStop":
		out.Lifecycle, out.StopActive = LifecycleStop, ev.StopHookActive
	case "SessionEnd":
		out.Lifecycle = LifecycleEnd
	case "", "PostToolUse":
		out.NoteDelivered = true
		out, err = addClaudeCall(out, ev.ToolName, ev.ToolInput, durationOf(ev.DurationMS, ev.ToolResponse))
		if err == nil && len(out.Changes) == 1 {
			out.Changes[0].Before = originalFile(ev.ToolResponse)
			out.Calls = callsOf(nil, out.Changes[0].Path, ev.ToolUseID)
		}
		return out, err
	case "PostToolBatch":
		out.SkipDelivered = true
		for i, c := range ev.ToolCalls {
			n := len(out.Changes)
			if out, err = addClaudeCall(out, c.ToolName, c.ToolInput, 0); err != nil {
				return out, fmt.Errorf("PostToolBatch tool_calls[%d]: %w", i, err)
			}
			if len(out.Changes) > n {
				out.Calls = callsOf(out.Calls, out.Changes[n].Path, c.ToolUseID)
			}
		}
		out.Changes = mergeChanges(out.Changes)
	}
	return out, nil
}

// addClaudeCall adds what one tool call changed to ev: its file, or, for
// Bash, the shell command that ran for dur (0: unknown).
func addClaudeCall(ev Event, tool string, input json.RawMessage, dur time.Duration) (Event, error) {
	mode := wire.ModeEdit
	switch tool {
	case "Write":
		mode = wire.ModeWrite
	case "Edit", "MultiEdit", "NotebookEdit":
	case "Bash":
		ev.Shell, ev.ShellRan = true, max(ev.ShellRan, dur)
		return ev, nil
	default:
		return ev, nil // Read, Grep, Agent, …: nothing to check
	}
	if len(input) == 0 || string(input) == "null" {
		return ev, fmt.Errorf("Claude Code %s event has no tool_input", tool)
	}
	var in claudeFileInput
	if err := json.Unmarshal(input, &in); err != nil {
		return ev, fmt.Errorf("decoding %s tool_input: %w", tool, err)
	}
	path, field := in.FilePath, "file_path"
	if tool == "NotebookEdit" {
		path, field = in.NotebookPath, "notebook_path"
	}
	if path == "" {
		return ev, fmt.Errorf("Claude Code %s event: tool_input.%s is missing", tool, field)
	}
	// The text is read from disk, not taken from tool_input.content: the
	// Write has happened, and whatever changed the file since (a formatter
	// hook, a second Write whose hook came first) is what the compiler
	// sees. Sending the event's older text would put the server out of
	// step with the disk.
	ev.Changes = append(ev.Changes, wire.Change{Path: path, Mode: mode})
	return ev, nil
}

// originalFile is a Write's or Edit's tool_response.originalFile: the
// file's text before the tool ran ("" for a Write that created the file:
// originalFile null with type "create"), or nil when the response does
// not say (an older Claude Code, another tool).
func originalFile(response json.RawMessage) *string {
	var r struct {
		Type         string          `json:"type"`
		OriginalFile json.RawMessage `json:"originalFile"`
	}
	if json.Unmarshal(response, &r) != nil {
		return nil
	}
	var s string
	switch {
	case len(r.OriginalFile) > 0 && json.Unmarshal(r.OriginalFile, &s) == nil:
		return &s
	case r.Type == "create":
		return new(string)
	}
	return nil
}

// durationOf is a PostToolUse's duration_ms, else tool_response's
// duration_ms when the response is an object that has one, else 0.
func durationOf(ms *float64, response json.RawMessage) time.Duration {
	if ms == nil {
		var r struct {
			DurationMS *float64 `json:"duration_ms"`
		}
		if json.Unmarshal(response, &r) != nil || r.DurationMS == nil {
			return 0
		}
		ms = r.DurationMS
	}
	if *ms <= 0 || *ms > float64(24*time.Hour/time.Millisecond) {
		return 0
	}
	return time.Duration(*ms * float64(time.Millisecond))
}

// Encode renders the answer in c.Mode (see Claude), or, for an event that
// Cursor or Copilot sent, that agent's answer.
func (c Claude) Encode(ev Event, res wire.Result) (Answer, error) {
	switch ev.Agent {
	case "cursor":
		return Cursor{}.Encode(ev, res)
	case "copilot":
		return Copilot{}.Encode(ev, res)
	}
	return claudeAnswer(c.Mode, ev.Hook, res.Lint)
}

// EncodeStop answers a Stop or SubagentStop event
// (https://code.claude.com/docs/en/hooks#stop-decision-control): to block,
// {"decision": "block", "reason": "<lint block>"}, which keeps Claude
// working with the reason as its prompt; to warn, {"systemMessage":
// "<lint block>"}, shown to the user; nothing to allow.
// For an event Cursor or Copilot sent, it answers as that agent does.
func (Claude) EncodeStop(ev Event, res wire.SessionStopResult) (Answer, error) {
	switch ev.Agent {
	case "cursor":
		return Cursor{}.EncodeStop(ev, res)
	case "copilot":
		return Copilot{}.EncodeStop(ev, res)
	}
	return stopAnswer(res)
}

// stopAnswer is the Stop answer of Claude Code and of the agents that
// take its shape (Codex).
func stopAnswer(res wire.SessionStopResult) (Answer, error) {
	switch {
	case res.Lint == "":
		return Answer{}, nil
	case res.Decision == wire.StopBlock:
		return jsonAnswer(claudeDecision{Decision: "block", Reason: res.Lint})
	case res.Decision == wire.StopWarn:
		return jsonAnswer(struct {
			SystemMessage string `json:"systemMessage"`
		}{res.Lint})
	}
	return Answer{}, nil
}

// claudeHookOutput is the PostToolUse/PostToolBatch answer in ModeContext
// (https://code.claude.com/docs/en/hooks#posttooluse-decision-control).
type claudeHookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// claudeDecision is the answer in ModeBlock: "decision": "block" prompts
// the model with "reason".
type claudeDecision struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// claudeAnswer is Claude Code's answer (and Codex's, which takes the same
// shape) for hook event hook ("" means PostToolUse).
func claudeAnswer(m Mode, hook, lint string) (Answer, error) {
	if lint == "" {
		return Answer{}, nil
	}
	switch m {
	case ModeBlock:
		return jsonAnswer(claudeDecision{Decision: "block", Reason: lint})
	case ModeExit2:
		return exit2Answer(lint), nil
	}
	if hook == "" {
		hook = "PostToolUse"
	}
	var out claudeHookOutput
	out.HookSpecificOutput.HookEventName = hook
	out.HookSpecificOutput.AdditionalContext = lint
	return jsonAnswer(out)
}

// runnerProbe holds the fields that tell which agent sent an event to the
// Claude adapter.
type runnerProbe struct {
	CursorVersion  string          `json:"cursor_version"`
	ConversationID string          `json:"conversation_id"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	ToolNameCamel  string          `json:"toolName"`
	SessionIDCamel string          `json:"sessionId"`
	ToolArgs       json.RawMessage `json:"toolArgs"`
	Timestamp      json.RawMessage `json:"timestamp"`
	TranscriptPath *string         `json:"transcript_path"`
}

// runnerOf tells which agent ran a hook configured for Claude Code:
//
//   - "cursor" when the event has Cursor's common fields cursor_version,
//     conversation_id or workspace_roots
//     (https://cursor.com/docs/agent/hooks, "Common schema"), which
//     Cursor sends to the hooks it loads from .claude/settings.json
//     (https://cursor.com/docs/reference/third-party-hooks);
//   - "copilot" when it has Copilot CLI's camelCase toolName, toolArgs or
//     sessionId, or a timestamp without transcript_path: Copilot reads
//     .claude/settings.json too and sends a PascalCase-named hook
//     snake_case fields with an ISO timestamp, which Claude Code never
//     sends (https://docs.github.com/en/copilot/reference/hooks-configuration);
//   - "claude" otherwise, and for input that is not a JSON object.
func runnerOf(data []byte) string {
	var p runnerProbe
	if json.Unmarshal(data, &p) != nil {
		return "claude"
	}
	return p.runner()
}

// runner is runnerOf for the probe's fields, read.
func (p runnerProbe) runner() string {
	switch {
	case p.CursorVersion != "" || p.ConversationID != "" || len(p.WorkspaceRoots) > 0:
		return "cursor"
	case p.ToolNameCamel != "" || p.SessionIDCamel != "" || len(p.ToolArgs) > 0 ||
		len(p.Timestamp) > 0 && string(p.Timestamp) != "null" && p.TranscriptPath == nil:
		return "copilot"
	}
	return "claude"
}

// callsOf adds the tool call id to calls under path; an empty id adds
// nothing (an event that does not name its call).
func callsOf(calls map[string][]string, path, id string) map[string][]string {
	if id == "" {
		return calls
	}
	if calls == nil {
		calls = make(map[string][]string)
	}
	calls[path] = append(calls[path], id)
	return calls
}
