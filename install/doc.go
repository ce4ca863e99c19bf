// Package install writes lsp-hook into AI coding agents' own config files
// and takes it out again: `lsp-hook install AGENT`, `lsp-hook uninstall
// AGENT`, and their --mcp for a project's .mcp.json.
//
// It owns each agent's config file: where it lives, its JSON shape and the
// entries lsp-hook adds (Target, in targets.go, which cites each page
// again; testdata/README.md walks through every shape):
//
//	claude    .claude/settings.json, ~/.claude/settings.json
//	          https://code.claude.com/docs/en/hooks, https://code.claude.com/docs/en/settings
//	cursor    .cursor/hooks.json, ~/.cursor/hooks.json
//	          https://cursor.com/docs/hooks
//	gemini    .gemini/settings.json, ~/.gemini/settings.json
//	          https://geminicli.com/docs/hooks/reference
//	codex     .codex/hooks.json, $CODEX_HOME/hooks.json (default ~/.codex)
//	          https://developers.openai.com/codex/hooks
//	copilot   .github/hooks/lsp-hook.json, ~/.copilot/hooks/lsp-hook.json
//	          https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
//	windsurf  .windsurf/hooks.json, ~/.codeium/windsurf/hooks.json
//	          https://docs.windsurf.com/windsurf/cascade/hooks
//	opencode  .opencode/plugin/lsp-hook.js, ~/.config/opencode/plugin/lsp-hook.js
//	          (a plugin file of lsp-hook's own, not an edit: opencode.go)
//	          https://opencode.ai/docs/plugins
//	--mcp     .mcp.json (project scope only; claude)
//	          https://code.claude.com/docs/en/mcp
//
// The Claude Code plugin of this repository (claude-plugin/, listed by
// .claude-plugin/marketplace.json) declares the same hooks and MCP server
// as files of its own; claudeplugin_test.go holds them to Claude Code's
// documented plugin and marketplace schemas and to the entries above.
//
// It also owns the hook command written into them and how uninstall
// recognises it (HookProgram, HookCommand, IsHookCommand in command.go),
// edits of JSON with comments that keep every other byte (json.go,
// jsonedit.go; the hook entries in merge.go, the MCP server in mcp.go),
// the diff a dry run prints (diff.go), and the steps around every edit,
// written once (file.go): read → parse → edit → diff → backup → write.
//
// What Add, Remove, AddMCP and RemoveMCP guarantee:
//
//   - Only lsp-hook's entries change. The file is edited as a syntax tree:
//     other keys, their order, comments, indentation and trailing commas
//     keep their bytes.
//   - Installing twice changes nothing the second time (the bytes are
//     compared), and uninstalling after installing gives back the original
//     bytes (the edits are inverses, and a backup equal to the result up to
//     empty containers is restored verbatim).
//   - Before the first change to an existing file its content is copied to
//     <file>.lsp-hook.bak (BackupSuffix), once: an existing backup is never
//     overwritten.
//   - A file that is not valid JSON (JWCC: comments and trailing commas are
//     accepted and kept) is an error naming the file, line and column
//     (ErrBadConfig), and is never written.
//   - A symlinked config file is followed: its target is replaced, the link
//     stays. Writes are atomic and keep the file's permissions.
//   - With Options.DryRun nothing is written; Result.Diff shows the change.
//
// install imports only the standard library and hujson (config, should it
// need settings). It must not import the engine (sidecar, lsp), the hook
// adapters (hooks), mcp or cmd: cmd/lsp-hook calls it, nothing calls back.
package install
