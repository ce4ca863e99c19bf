package agentsuite

import (
	"path/filepath"
)

// claudeAgent is Claude Code: `claude -p` against ANTHROPIC_BASE_URL.
// Workspace trust is not asked in -p mode
// (https://code.claude.com/docs/en/headless); Write and Edit run under
// --permission-mode acceptEdits.
var claudeAgent = agent{
	name: "claude", exe: "claude", stopGate: true,
	dialect: func() dialect { return anthropic{} },
	script: func(ws string) []step {
		p := filepath.Join(ws, "main.go")
		return []step{
			{Name: "write", Tool: "Write", Args: map[string]any{"file_path": p, "content": brokenMain}},
			{Name: "edit", Tool: "Edit", Args: map[string]any{"file_path": p, "old_string": editOld, "new_string": editNew}},
			{Name: "clean", Tool: "Write", Args: map[string]any{"file_path": p, "content": cleanMain}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: func(s *session, url string) ([]string, []string) {
		return []string{"-p", prompt, "--permission-mode", "acceptEdits", "--max-turns", "8"},
			[]string{
				"ANTHROPIC_BASE_URL=" + url,
				"ANTHROPIC_API_KEY=sk-ant-agentsuite-dummy",
				"DISABLE_TELEMETRY=1",
				"DISABLE_AUTOUPDATER=1",
				"DISABLE_ERROR_REPORTING=1",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			}
	},
}

// notesJSON is a valid JSON file the batch writes beside main.go.
const notesJSON = "{\"todo\": [\"print n\"]}\n"

// claudeBatchAgent is Claude Code with PostToolBatch installed too
// (install --batch): one reply writes main.go (a type error) and
// notes.json (valid) at once; main.go's block reaches the model once,
// though PostToolUse and PostToolBatch both see the write; the Stop gate
// then blocks the end of the turn once with the same error.
var claudeBatchAgent = agent{
	name: "claude", row: "claude-batch", exe: "claude", stopGate: true, install: []string{"--batch"},
	dialect: func() dialect { return anthropic{} },
	script: func(ws string) []step {
		return []step{
			{Name: "write", Tool: "Write", Args: map[string]any{"file_path": filepath.Join(ws, "main.go"), "content": brokenMain},
				Also: []step{{Tool: "Write", Args: map[string]any{"file_path": filepath.Join(ws, "notes.json"), "content": notesJSON}}}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: claudeAgent.setup,
}

// sedBreak is the shell command of the Bash row: it turns cleanMain into
// brokenMain in place, as a code generator or a careless sed would.
const sedBreak = `sed -i 's/^\tfmt.Println(7, greeting())$/\tvar n int = "seven"\n\tfmt.Println(n, greeting())/' main.go`

// claudeBashAgent is Claude Code editing through its Bash tool: a clean
// Write, then a sed -i that introduces a type error, which must reach the
// model like a Write's (issue 15 item 5: install puts Bash in the
// matcher by default); the session ends on it, so the Stop gate blocks
// that end once with the same error.
var claudeBashAgent = agent{
	name: "claude", row: "claude-bash", exe: "claude", stopGate: true,
	dialect: func() dialect { return anthropic{} },
	script: func(ws string) []step {
		return []step{
			{Name: "clean", Tool: "Write", Args: map[string]any{"file_path": filepath.Join(ws, "main.go"), "content": cleanMain}},
			{Name: "sed", Tool: "Bash", Args: map[string]any{"command": sedBreak, "description": "Break main.go with sed"}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: func(s *session, url string) ([]string, []string) {
		args, env := claudeAgent.setup(s, url)
		return append(args, "--allowedTools", "Bash(sed:*)"), env
	},
}

// claudeStopAgent is the Stop gate's row (issue 16): the model writes a
// type error and ends its turn; the Stop hook blocks that end and Claude
// Code feeds its reason, the error as go build reports it, to the model,
// which fixes main.go and ends again (stop_hook_active): no block.
var claudeStopAgent = agent{
	name: "claude", row: "claude-stop", exe: "claude", stopGate: true,
	dialect: func() dialect { return anthropic{} },
	script: func(ws string) []step {
		p := filepath.Join(ws, "main.go")
		return []step{
			{Name: "write", Tool: "Write", Args: map[string]any{"file_path": p, "content": brokenMain}},
			{Name: "end", Text: "Done."},
			{Name: "fix", Tool: "Write", Args: map[string]any{"file_path": p, "content": cleanMain}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: claudeAgent.setup,
}

// claudeStopAgainAgent ends its turn twice on the type error it wrote:
// the gate blocks the first end only, the second (stop_hook_active) ends
// the session: no loop.
var claudeStopAgainAgent = agent{
	name: "claude", row: "claude-stop-again", exe: "claude", stopGate: true,
	dialect: func() dialect { return anthropic{} },
	script: func(ws string) []step {
		return []step{
			{Name: "write", Tool: "Write", Args: map[string]any{"file_path": filepath.Join(ws, "main.go"), "content": brokenMain}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: claudeAgent.setup,
}

// The pre-broken rows' edit: it leaves main.go's type error as it was.
const (
	keepOld = "\tfmt.Println(n, greeting())\n"
	keepNew = "\tfmt.Println(n, greeting(), \"!\")\n"
)

// claudePreBrokenAgent starts on a main.go that is already broken (not
// in git), reads it, edits it without touching the error and ends: the
// edit's block names the error, but the session did not introduce it,
// so the Stop gate lets the turn end.
var claudePreBrokenAgent = agent{
	name: "claude", row: "claude-prebroken", exe: "claude", stopGate: true, before: brokenMain,
	dialect: func() dialect { return anthropic{} },
	script: func(ws string) []step {
		p := filepath.Join(ws, "main.go")
		return []step{
			{Name: "read", Tool: "Read", Quiet: true, Args: map[string]any{"file_path": p}},
			{Name: "edit", Tool: "Edit", Args: map[string]any{"file_path": p, "old_string": keepOld, "new_string": keepNew}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: claudeAgent.setup,
}

// claudePreBrokenCommittedAgent is claudePreBrokenAgent with the broken
// main.go committed before the session.
var claudePreBrokenCommittedAgent = agent{
	name: "claude", row: "claude-prebroken-git", exe: "claude", stopGate: true, before: brokenMain, commit: true,
	dialect: claudePreBrokenAgent.dialect, script: claudePreBrokenAgent.script, setup: claudeAgent.setup,
}
