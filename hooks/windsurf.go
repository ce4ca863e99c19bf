package hooks

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Windsurf is the adapter for Windsurf's Cascade hooks
// (https://docs.windsurf.com/windsurf/cascade/hooks), configured in
// .windsurf/hooks.json for post_write_code:
//
//	{"agent_action_name": "post_write_code", "trajectory_id": "…",
//	 "execution_id": "…", "timestamp": "<ISO 8601>",
//	 "tool_info": {"file_path": "/abs/file",
//	               "edits": [{"old_string": "…", "new_string": "…"}]}}
//
// The file is an edit, read from disk. The event names no working
// directory, so the workspace is found from the file's directory.
//
// A post-hook's answer reaches the user, not the model: with "show_output":
// true in the hook's configuration, Cascade shows what the hook prints, so
// the lint block is printed as plain text. Only ModeContext: Windsurf's
// docs give exit status 2 a meaning for pre-hooks alone (it blocks the
// action), so an exit2 answer to post_write_code was never shown to reach
// the agent, and `--mode exit2` is refused rather than promised.
type Windsurf struct{}

var _ Adapter = Windsurf{}

// WindsurfEvent is the part of a Cascade hook event lsp-hook reads
// (https://docs.windsurf.com/windsurf/cascade/hooks, "Common Input
// Structure", "post_write_code").
type WindsurfEvent struct {
	AgentActionName string `json:"agent_action_name"` // the hook event: "post_write_code", …
	TrajectoryID    string `json:"trajectory_id"`     // the Cascade conversation
	ExecutionID     string `json:"execution_id"`      // the agent turn
	ToolInfo        struct {
		FilePath string `json:"file_path"` // the written file, absolute
	} `json:"tool_info"` // the event's details
}

// Name returns "windsurf".
func (Windsurf) Name() string { return "windsurf" }

// Decode reads a post_write_code event; other events give no change. A
// malformed event, or a post_write_code without tool_info.file_path, is an
// error.
func (Windsurf) Decode(r io.Reader) (Event, error) {
	var ev WindsurfEvent
	if err := decodeStrict(r, &ev); err != nil {
		return Event{}, fmt.Errorf("decoding Windsurf hook event: %w", err)
	}
	out := Event{Session: ev.TrajectoryID, Hook: ev.AgentActionName, Tool: ev.AgentActionName, Agent: "windsurf"}
	if ev.AgentActionName != "post_write_code" {
		return out, nil
	}
	p := ev.ToolInfo.FilePath
	if p == "" {
		return out, fmt.Errorf("Windsurf post_write_code event: tool_info.file_path is missing")
	}
	if filepath.IsAbs(p) {
		out.Cwd = filepath.Dir(p)
	} else if abs, err := filepath.Abs(p); err == nil {
		p = abs // relative to the hook's working directory, the workspace root by default
	}
	out.Changes = []wire.Change{{Path: p, Mode: wire.ModeEdit}}
	return out, nil
}

// Encode prints the lint block as text; nothing when the block is empty.
func (Windsurf) Encode(ev Event, res wire.Result) (Answer, error) {
	if res.Lint == "" {
		return Answer{}, nil
	}
	return Answer{Stdout: []byte(res.Lint + "\n")}, nil
}
