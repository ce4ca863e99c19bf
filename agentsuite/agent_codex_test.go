package agentsuite

import (
	"path/filepath"
)

// The scripted apply_patch calls (codex-rs apply_patch grammar: paths
// relative to the working directory).
const (
	patchAdd   = "*** Begin Patch\n*** Add File: main.go\n+package main\n+\n+import \"fmt\"\n+\n+func main() {\n+\tvar n int = \"seven\"\n+\tfmt.Println(n, greeting())\n+}\n*** End Patch\n"
	patchEdit  = "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tvar n int = \"seven\"\n+\tvar n int = 7\n+\tvar c <-chan string = make(chan int)\n+\t_ = c\n \tfmt.Println(n, greeting())\n*** End Patch\n"
	patchBreak = "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tfmt.Println(7, greeting())\n+\tvar n int = \"seven\"\n+\tfmt.Println(n, greeting())\n }\n*** End Patch\n"
	patchFix   = "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tvar n int = \"seven\"\n-\tfmt.Println(n, greeting())\n+\tfmt.Println(7, greeting())\n }\n*** End Patch\n"
	patchClean = "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tvar n int = 7\n-\tvar c <-chan string = make(chan int)\n-\t_ = c\n-\tfmt.Println(n, greeting())\n+\tfmt.Println(7, greeting())\n }\n*** End Patch\n"
)

// codexModel is a model Codex offers apply_patch to (with a model it does
// not know, patches go through exec_command and no PostToolUse fires).
const codexModel = "gpt-5.5"

// codexAgent is Codex: `codex exec` with a model_providers entry (base_url
// to the scripted model, wire_api "responses") in $CODEX_HOME/config.toml.
// Its trust steps are its own flags: --trust saves the project's trust
// (project .codex/hooks.json loads only in a trusted project) and
// --dangerously-bypass-hook-trust runs the hooks a non-interactive run
// cannot review in /hooks (https://developers.openai.com/codex/hooks).
var codexAgent = agent{
	name: "codex", exe: "codex", stopGate: true,
	dialect: func() dialect { return responsesAPI{} },
	script: func(string) []step {
		return []step{
			{Name: "write", Tool: "apply_patch", Args: map[string]any{"input": patchAdd}},
			{Name: "edit", Tool: "apply_patch", Args: map[string]any{"input": patchEdit}},
			{Name: "clean", Tool: "apply_patch", Args: map[string]any{"input": patchClean}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: func(s *session, url string) ([]string, []string) {
		codexHome := filepath.Join(s.home, ".codex")
		writeFile(s.t, filepath.Join(codexHome, "config.toml"), `model = "`+codexModel+`"
model_provider = "agentsuite"
check_for_update_on_startup = false

[model_providers.agentsuite]
name = "agentsuite scripted model"
base_url = "`+url+`/v1"
wire_api = "responses"
env_key = "AGENTSUITE_API_KEY"

[analytics]
enabled = false
`)
		return []string{"exec", "--trust", "--dangerously-bypass-hook-trust", "--skip-git-repo-check",
				"--sandbox", "workspace-write", "--color", "never", prompt},
			[]string{"CODEX_HOME=" + codexHome, "AGENTSUITE_API_KEY=agentsuite-dummy"}
	},
}

// codexStopAgent is the Stop gate's row for Codex (issue 16): `codex
// exec` fires Stop when the model ends its turn. main.go is clean and
// committed before the session (a Codex event carries no text before the
// patch: the gate's state before is git HEAD); a patch breaks it and the
// model ends its turn: the gate blocks that end once, Codex continues the
// turn with the reason as the model's next input, and the model fixes
// main.go and ends again. Codex 0.169.0 hands the reason to the model
// inside <hook_prompt hook_run_id="stop:…"> with < and > as &lt; and &gt;,
// so the Codex adapter answers Stop with the tag-free block
// (diag.PlainLintBlock), which the model reads without entities.
var codexStopAgent = agent{
	name: "codex", row: "codex-stop", exe: "codex", stopGate: true, before: cleanMain, commit: true,
	dialect: func() dialect { return responsesAPI{} },
	script: func(string) []step {
		return []step{
			{Name: "break", Tool: "apply_patch", Args: map[string]any{"input": patchBreak}},
			{Name: "end", Text: "Done."},
			{Name: "fix", Tool: "apply_patch", Args: map[string]any{"input": patchFix}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: codexAgent.setup,
}

// codexStopNewAgent writes main.go as a new file (Add File), outside git,
// and ends its turn on its type error: the gate blocks that end as Claude
// Code's does for a Write that creates a file (an added file's change says
// it had no text before: hooks.PatchChanges).
var codexStopNewAgent = agent{
	name: "codex", row: "codex-stop-new", exe: "codex", stopGate: true,
	dialect: func() dialect { return responsesAPI{} },
	script: func(string) []step {
		return []step{
			{Name: "write", Tool: "apply_patch", Args: map[string]any{"input": patchAdd}},
			{Name: "end", Text: "Done."},
			{Name: "fix", Tool: "apply_patch", Args: map[string]any{"input": patchFix}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: codexAgent.setup,
}
