package agentsuite

import (
	"path/filepath"
)

// opencodeAgent is OpenCode: `opencode run` with a provider of its own
// (@ai-sdk/openai-compatible, bundled, baseURL to the scripted model) in
// the user's config, models.dev, autoupdate, sharing, default plugins and
// its own LSP off (its LSP block would be a second one). It has no trust
// step; `lsp-hook install opencode` writes its plugin
// (.opencode/plugin/lsp-hook.js), which appends the block to the tool's
// output: the text of the tool result its model reads, and the text
// `opencode run` prints for a write, so the user sees the block there too
// (showsToolOutput).
var opencodeAgent = agent{
	name: "opencode", exe: "../opencode-linux-x64/bin/opencode", showsToolOutput: true,
	dialect: func() dialect { return chatAPI{writeTool: "write"} },
	script: func(ws string) []step {
		p := filepath.Join(ws, "main.go")
		return []step{
			{Name: "write", Tool: "write", Args: map[string]any{"filePath": p, "content": brokenMain}},
			{Name: "edit", Tool: "edit", Args: map[string]any{"filePath": p, "oldString": editOld, "newString": editNew}},
			{Name: "clean", Tool: "write", Args: map[string]any{"filePath": p, "content": cleanMain}},
			{Name: "done", Text: "Done."},
		}
	},
	setup: func(s *session, url string) ([]string, []string) {
		writeFile(s.t, filepath.Join(s.home, ".config", "opencode", "opencode.json"), mustJSON(map[string]any{
			"$schema": "https://opencode.ai/config.json",
			"provider": map[string]any{"agentsuite": map[string]any{
				"npm": "@ai-sdk/openai-compatible", "name": "agentsuite scripted model",
				"options": map[string]any{"baseURL": url + "/v1", "apiKey": "agentsuite-dummy"},
				"models":  map[string]any{"scripted": map[string]any{"name": "scripted", "tool_call": true}},
			}},
			"model":       "agentsuite/scripted",
			"small_model": "agentsuite/scripted",
			"autoupdate":  false,
			"share":       "disabled",
			"lsp":         false,
			"permission":  map[string]any{"edit": "allow", "bash": "allow"},
		}))
		return []string{"run", prompt}, []string{
			"OPENCODE_DISABLE_AUTOUPDATE=true",
			"OPENCODE_DISABLE_MODELS_FETCH=true",
			"OPENCODE_DISABLE_SHARE=true",
			"OPENCODE_DISABLE_LSP_DOWNLOAD=true",
			"OPENCODE_DISABLE_DEFAULT_PLUGINS=true",
			"OPENCODE_DISABLE_CLAUDE_CODE=true",
		}
	},
}
