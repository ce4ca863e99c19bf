package agentsuite

import (
	"path/filepath"
)

// geminiAgent is Gemini CLI: `gemini -p` with an API key against
// GOOGLE_GEMINI_BASE_URL (settings security.auth.selectedType
// gemini-api-key). Its trust step is the one its folder-trust dialog
// takes: the workspace as TRUST_FOLDER in ~/.gemini/trustedFolders.json
// (https://geminicli.com/docs/cli/trusted-folders); the project's hooks
// are then trusted at first sight with a warning. write_file and replace
// run under --approval-mode auto_edit.
var geminiAgent = agent{
	// Gemini CLI HTML-escapes additionalContext inside <hook_context>:
	// lsp-hook renders its block without < and > (diag.PlainLintBlock).
	name: "gemini", exe: "gemini", plain: true,
	dialect: func() dialect { return geminiAPI{} },
	script: func(ws string) []step {
		p := filepath.Join(ws, "main.go")
		return []step{
			{Name: "write", Tool: "write_file", Args: map[string]any{"file_path": p, "content": brokenMain}},
			{Name: "edit", Tool: "replace", Args: map[string]any{"file_path": p, "old_string": editOld, "new_string": editNew,
				"instruction": "In main, set n to 7 and declare a receive-only channel c."}},
			{Name: "clean", Tool: "write_file", Args: map[string]any{"file_path": p, "content": cleanMain}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: func(s *session, url string) ([]string, []string) {
		dir := filepath.Join(s.home, ".gemini")
		writeFile(s.t, filepath.Join(dir, "settings.json"), mustJSON(map[string]any{
			"security": map[string]any{
				"auth":        map[string]any{"selectedType": "gemini-api-key"},
				"folderTrust": map[string]any{"enabled": true},
			},
			"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
			"privacy":   map[string]any{"usageStatisticsEnabled": false},
			"telemetry": map[string]any{"enabled": false},
		}))
		writeFile(s.t, filepath.Join(dir, "trustedFolders.json"), mustJSON(map[string]any{s.ws: "TRUST_FOLDER"}))
		return []string{"-p", prompt, "--approval-mode", "auto_edit"},
			[]string{"GEMINI_API_KEY=agentsuite-dummy", "GOOGLE_GEMINI_BASE_URL=" + url}
	},
}
