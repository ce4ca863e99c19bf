package soak

import (
	"encoding/json"
	"fmt"
	"maps"
	"sync/atomic"
	"time"
)

// toolCall is one Claude Code tool call as its hook events carry it:
// tool_name, tool_input and tool_response
// (https://code.claude.com/docs/en/hooks#posttooluse-input).
type toolCall struct {
	name     string         // "Write", "Edit", "MultiEdit", "Bash"
	input    map[string]any // tool_input
	response map[string]any // tool_response
}

// writeCall is a Write of content to the absolute path. before is the
// file's text before the Write, nil when the Write created it; with full,
// tool_response carries what Claude Code's does today (type "create" or
// "update", and originalFile: null or that text), else only the path and
// content, as an older Claude Code's did (no text before for the Stop
// gate's baseline: the path other agents' events take).
func writeCall(path, content string, before *string, full bool) toolCall {
	resp := map[string]any{"filePath": path, "content": content}
	if full {
		resp["type"], resp["originalFile"], resp["structuredPatch"] = "update", before, []any{}
		if before == nil {
			resp["type"] = "create"
		}
	}
	return toolCall{"Write", map[string]any{"file_path": path, "content": content}, resp}
}

// editCall is an Edit of the absolute path replacing old by new; with
// full, tool_response carries the file's text before the Edit,
// originalFile, as Claude Code's does today (writeCall).
func editCall(path, old, new, before string, full bool) toolCall {
	resp := map[string]any{"filePath": path, "oldString": old, "newString": new, "userModified": false}
	if full {
		resp["originalFile"], resp["structuredPatch"], resp["replaceAll"] = before, []any{}, false
	}
	return toolCall{"Edit", map[string]any{"file_path": path, "old_string": old, "new_string": new, "replace_all": false}, resp}
}

// multiEditCall is a MultiEdit of the absolute path making each edit in
// turn.
func multiEditCall(path string, edits []sub) toolCall {
	var list []map[string]any
	for _, e := range edits {
		list = append(list, map[string]any{"old_string": e.old, "new_string": e.new, "replace_all": false})
	}
	return toolCall{"MultiEdit", map[string]any{"file_path": path, "edits": list},
		map[string]any{"filePath": path, "edits": list}}
}

// bashCall is a Bash call of command that printed out.
func bashCall(command, out string) toolCall {
	return toolCall{"Bash", map[string]any{"command": command, "description": "soak: " + command},
		map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false}}
}

// codexPatch is Codex's PostToolUse event of an apply_patch of patch in
// session, run in w's root (hooks.Codex documents the shape:
// codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json).
func codexPatch(w *workspace, session, patch string) string {
	return mustJSON(map[string]any{
		"session_id": session, "turn_id": "soak", "transcript_path": nil, "cwd": w.root,
		"hook_event_name": "PostToolUse", "model": "gpt-5-codex", "permission_mode": "default",
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": patch},
		"tool_response": "Success. Updated the following files.", "tool_use_id": nextToolUseID(),
	})
}

// toolUseIDs numbers the tool_use_id of every call the soak makes.
var toolUseIDs atomic.Int64

func nextToolUseID() string { return fmt.Sprintf("toolu_soak_%06d", toolUseIDs.Add(1)) }

// event is a hook event of the session named name in w: the common
// input fields every Claude Code hook event carries
// (https://code.claude.com/docs/en/hooks#hook-input), and fields.
func event(w *workspace, session, name string, fields map[string]any) string {
	ev := map[string]any{
		"session_id":      session,
		"transcript_path": "/home/agent/.claude/projects/soak/" + session + ".jsonl",
		"cwd":             w.root,
		"hook_event_name": name,
	}
	maps.Copy(ev, fields)
	return mustJSON(ev)
}

// postToolUse is the PostToolUse event of c in the session, the tool
// having run for took.
func postToolUse(w *workspace, session string, c toolCall, took time.Duration) string {
	return event(w, session, "PostToolUse", map[string]any{
		"permission_mode": "acceptEdits",
		"tool_name":       c.name,
		"tool_input":      c.input,
		"tool_response":   c.response,
		"tool_use_id":     nextToolUseID(),
		"duration_ms":     took.Milliseconds(),
	})
}

// sessionStart is the SessionStart event of a session that starts up
// (https://code.claude.com/docs/en/hooks#sessionstart-input).
func sessionStart(w *workspace, session string) string {
	return event(w, session, "SessionStart", map[string]any{"source": "startup"})
}

// postToolBatch is the PostToolBatch event of calls, made in one batch
// (https://code.claude.com/docs/en/hooks#posttoolbatch-input).
func postToolBatch(w *workspace, session string, calls []toolCall) string {
	var list []map[string]any
	for _, c := range calls {
		resp, _ := json.Marshal(c.response)
		list = append(list, map[string]any{
			"tool_name": c.name, "tool_input": c.input, "tool_use_id": nextToolUseID(), "tool_response": string(resp),
		})
	}
	return event(w, session, "PostToolBatch", map[string]any{"permission_mode": "acceptEdits", "tool_calls": list})
}

// mustJSON marshals v, which holds only strings, numbers, bools, maps and
// slices of them.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("marshaling a hook event: %v", err))
	}
	return string(b)
}
