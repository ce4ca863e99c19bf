package agentsuite

import (
	"path/filepath"
)

// copilotModel is a model Copilot CLI offers its create and edit tools
// to (with GPT-5 models it offers apply_patch only).
const copilotModel = "gpt-4.1"

// copilotAgent is Copilot CLI: `copilot -p` with a bring-your-own
// provider (COPILOT_PROVIDER_BASE_URL, type openai, Chat Completions) in
// offline mode (no GitHub sign-in, telemetry or update). Its trust step is
// --trust-folder: in -p mode repository hooks load only for a trusted
// folder (`copilot help environment`, `copilot --help`). The block
// reaches the model verbatim in the same turn, appended to the tool
// result as postToolUse additionalContext ("Additional guidance from
// postToolUse hooks"), and nothing re-delivers it at agentStop.
var copilotAgent = agent{
	name: "copilot", exe: "copilot",
	dialect: func() dialect { return chatAPI{writeTool: "create"} },
	script: func(ws string) []step {
		p := filepath.Join(ws, "main.go")
		return []step{
			{Name: "write", Tool: "create", Args: map[string]any{"path": p, "file_text": brokenMain}},
			{Name: "edit", Tool: "edit", Args: map[string]any{"path": p, "old_str": editOld, "new_str": editNew}},
			// create refuses an existing file: the clean rewrite is an edit.
			{Name: "clean", Tool: "edit", Args: map[string]any{"path": p, "old_str": cleanOld, "new_str": cleanNew}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: func(s *session, url string) ([]string, []string) {
		return []string{"-p", prompt, "--allow-all-tools", "--trust-folder", "--no-auto-update", "--silent",
				"--model", copilotModel, "--log-dir", filepath.Join(s.home, "copilot-logs")},
			[]string{
				"COPILOT_HOME=" + filepath.Join(s.home, ".copilot"),
				"COPILOT_PROVIDER_BASE_URL=" + url + "/v1",
				"COPILOT_PROVIDER_TYPE=openai",
				"COPILOT_PROVIDER_API_KEY=agentsuite-dummy",
				"COPILOT_MODEL=" + copilotModel,
				"COPILOT_OFFLINE=true",
				"COPILOT_AUTO_UPDATE=false",
			}
	},
}

// copilotPatchModel is a GPT-5 model to which Copilot CLI offers
// apply_patch (a custom tool: its input is the raw patch) instead of
// create and edit; with gpt-5 and gpt-5.2 it still offers create and edit.
const copilotPatchModel = "gpt-5.5"

// copilotPatchAgent is Copilot CLI with a GPT-5 model over the Responses
// API (COPILOT_PROVIDER_WIRE_API=responses, as `copilot help environment`
// advises for GPT-5): its edits are apply_patch calls (the raw patch in
// toolArgs), judged as the create and edit row.
var copilotPatchAgent = agent{
	name: "copilot", row: "copilot-apply-patch", exe: "copilot",
	dialect: func() dialect { return responsesAPI{} },
	script:  codexAgent.script,
	setup: func(s *session, url string) ([]string, []string) {
		args, env := copilotAgent.setup(s, url)
		for i, a := range args {
			if a == copilotModel {
				args[i] = copilotPatchModel
			}
		}
		for i, e := range env {
			if e == "COPILOT_MODEL="+copilotModel {
				env[i] = "COPILOT_MODEL=" + copilotPatchModel
			}
		}
		return args, append(env, "COPILOT_PROVIDER_WIRE_API=responses")
	},
}
