package agentsuite

import (
	"path/filepath"
)

// claudeAgent is Claude Code: `claude -p` against ANTHROPIC_BASE_URL.
// Workspace trust is not asked in -p mode
// (https://code.claude.com/docs/en/headless); Write and Edit run under
// --permission-mode acceptEdits.
var claudeAgent = agent{
	name: "claude", exe: "claude", verbatim: true,
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
// though PostToolUse and PostToolBatch both see the write.
var claudeBatchAgent = agent{
	name: "claude", row: "claude-batch", exe: "claude", verbatim: true, install: []string{"--batch"},
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
// matcher by default).
var claudeBashAgent = agent{
	name: "claude", row: "claude-bash", exe: "claude", verbatim: true,
	pending: "issue 15 item 5: shell edits covered by default",
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
