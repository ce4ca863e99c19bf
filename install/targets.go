package install

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// An Target is one agent's hook configuration file as `lsp-hook install`
// edits it: where the file lives, the JSON skeleton of a new file, and the
// entries lsp-hook adds. Every path, event name, field and matcher below is
// taken from the agent's own documentation, cited in Docs and in
// testdata/README.md.
//
// The file is always a JSON object with a "hooks" object mapping event
// names to arrays. An array element is either a matcher group
// ({"matcher": "…", "hooks": [handler…]}: Claude Code, Gemini CLI, Codex)
// or a handler itself (Cursor, GitHub Copilot, Windsurf).
type Target struct {
	// Agent is the name given to `lsp-hook install` and `lsp-hook hook`.
	Agent string
	// Title is the agent's product name, for messages.
	Title string
	// ProjectFile is the file's path relative to the workspace root.
	ProjectFile string
	// userFile returns the user-level file's absolute path from the home
	// directory and the environment.
	userFile func(home string, getenv func(string) string) string
	// Skeleton is the object a new file starts from, before "hooks" is
	// added: {} or {"version": 1}.
	Skeleton []Field
	// Events are the entries install adds, one per hook event.
	Events []Entry
	// Retired are events an older lsp-hook installed for the agent and
	// install now takes its handlers out of, unless an entry it writes has
	// the event (Copilot's agentStop, since postToolUse delivers in the
	// same turn; it stays as the Stop gate, and goes with --no-stop-gate).
	Retired []string
	// Notes are printed after a change: what the user still has to do.
	Notes []string
	// Docs are the documentation pages the shapes above come from.
	Docs []string
	// Plugin marks an agent without hook files (OpenCode): install writes
	// a plugin file of lsp-hook's own at the path instead of editing
	// JSON, and Events, Skeleton and Retired are unused (opencode.go).
	Plugin bool
}

// Field is one member of a JSON object lsp-hook writes, kept in order so
// that new entries read like the documentation's examples.
type Field struct {
	Key   string
	Value any // string, bool or int; "{command}" in a string is replaced by the hook command
}

// An Entry is what install adds under hooks.<Event>.
type Entry struct {
	// Event is the key under "hooks" (PostToolUse, postToolUse, AfterTool, …).
	Event string
	// Grouped says the event's array holds matcher groups; otherwise it
	// holds handlers directly.
	Grouped bool
	// Matcher is the group's "matcher" ("" writes a group without one).
	Matcher string
	// Shell is the agent's shell tool as its hook sees it ("Bash",
	// "run_shell_command"): joined to Matcher with "|" unless
	// Options.NoShell; for an entry without a matcher, whose hook sees
	// every tool, NoShell adds --no-shell to the command instead.
	Shell string
	// Handler is the handler object; one of its values is "{command}".
	Handler []Field
	// Batch marks Claude Code's PostToolBatch entry, added only with
	// --batch (Options.Batch).
	Batch bool
	// Session marks a session entry (DESIGN.md "Sessions": a session's
	// start prewarms the servers, an end of turn is the Stop gate, the
	// session's end lets the daemon forget it), left out with
	// Options.NoSession; StopGate marks the end-of-turn ones among them
	// (Claude Code's Stop and SubagentStop, Codex's Stop, Gemini CLI's
	// AfterAgent, Copilot's agentStop, Cursor's stop), left out with
	// --no-stop-gate (Options.NoStopGate).
	Session, StopGate bool
}

// commandPlaceholder stands for the hook command in Handler values.
const commandPlaceholder = "{command}"

// commandKeys are the handler fields that hold a shell command: "command"
// everywhere, "bash" and "powershell" in GitHub Copilot's files.
var commandKeys = []string{"command", "bash", "powershell"}

// userFileUnder joins elem under home.
func userFileUnder(elem ...string) func(string, func(string) string) string {
	return func(home string, _ func(string) string) string {
		return filepath.Join(append([]string{home}, elem...)...)
	}
}

// targets is the table of supported agents, keyed by Target.Agent.
var targets = map[string]*Target{
	// https://code.claude.com/docs/en/hooks (Configuration; PostToolUse;
	// PostToolBatch) and https://code.claude.com/docs/en/settings (file
	// locations): hooks.<Event> is an array of {matcher, hooks:[{type:
	// "command", command}]}; the matcher is a regex over tool names.
	"claude": {
		Agent: "claude", Title: "Claude Code",
		ProjectFile: ".claude/settings.json",
		userFile:    userFileUnder(".claude", "settings.json"),
		Events: []Entry{
			{Event: "PostToolUse", Grouped: true, Matcher: "Write|Edit|MultiEdit|NotebookEdit", Shell: "Bash",
				Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "PostToolBatch", Grouped: true, Batch: true,
				Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
			// The session's start prewarms the servers; an end of turn is the
			// Stop gate; the session's end lets the daemon forget it
			// (DESIGN.md "Sessions").
			{Event: "SessionStart", Grouped: true, Session: true, Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "Stop", Grouped: true, Session: true, StopGate: true, Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "SubagentStop", Grouped: true, Session: true, StopGate: true, Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "SessionEnd", Grouped: true, Session: true, Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
		},
		Notes: []string{"Claude Code reads hooks when a session starts: " +
			"restart running sessions (or review the change in /hooks)."},
		Docs: []string{"https://code.claude.com/docs/en/hooks", "https://code.claude.com/docs/en/settings"},
	},
	// https://cursor.com/docs/hooks (formerly /docs/agent/hooks):
	// {"version": 1, "hooks": {"<event>": [{"command": "…"}]}} in
	// .cursor/hooks.json (project) or ~/.cursor/hooks.json (user); handlers
	// sit in the event's array, without matcher groups.
	"cursor": {
		Agent: "cursor", Title: "Cursor",
		ProjectFile: ".cursor/hooks.json",
		userFile:    userFileUnder(".cursor", "hooks.json"),
		Skeleton:    []Field{{"version", 1}},
		Events: []Entry{
			{Event: "postToolUse", Shell: "Shell", Handler: []Field{{"command", commandPlaceholder}}},
			{Event: "afterFileEdit", Handler: []Field{{"command", commandPlaceholder}}},
			// sessionStart prewarms, stop is the Stop gate (its answer's
			// followup_message continues the agent), sessionEnd forgets the
			// session (https://cursor.com/docs/hooks: sessionStart, stop,
			// sessionEnd).
			{Event: "sessionStart", Session: true, Handler: []Field{{"command", commandPlaceholder}}},
			{Event: "stop", Session: true, StopGate: true, Handler: []Field{{"command", commandPlaceholder}}},
			{Event: "sessionEnd", Session: true, Handler: []Field{{"command", commandPlaceholder}}},
		},
		Notes: []string{"Cursor lists configured hooks in its settings (Hooks); restart Cursor if the new one is missing."},
		Docs:  []string{"https://cursor.com/docs/hooks"},
	},
	// https://geminicli.com/docs/hooks/reference (Configuration schema) and
	// https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/index.md
	// (Matchers: "write_file|replace"; configuration layers): settings.json
	// hooks.AfterTool is an array of {matcher, hooks:[{name, type, command}]}.
	"gemini": {
		Agent: "gemini", Title: "Gemini CLI",
		ProjectFile: ".gemini/settings.json",
		userFile:    userFileUnder(".gemini", "settings.json"),
		Events: []Entry{
			{Event: "AfterTool", Grouped: true, Matcher: "write_file|replace", Shell: "run_shell_command",
				Handler: []Field{{"name", "lsp-hook"}, {"type", "command"}, {"command", commandPlaceholder}}},
			// SessionStart prewarms, AfterAgent (once per turn, after the
			// final response; decision "deny" retries with the reason as the
			// prompt) is the Stop gate, SessionEnd forgets the session
			// (reference: "Lifecycle & system hooks", "Agent hooks").
			{Event: "SessionStart", Grouped: true, Session: true,
				Handler: []Field{{"name", "lsp-hook"}, {"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "AfterAgent", Grouped: true, Session: true, StopGate: true,
				Handler: []Field{{"name", "lsp-hook"}, {"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "SessionEnd", Grouped: true, Session: true,
				Handler: []Field{{"name", "lsp-hook"}, {"type", "command"}, {"command", commandPlaceholder}}},
		},
		Notes: []string{"Gemini CLI asks you to trust a project's hooks the first time it sees them; /hooks panel lists them. " +
			"With folder trust on, it drops the hooks of an untrusted folder silently: trust the project folder (its trust dialog)."},
		Docs: []string{"https://geminicli.com/docs/hooks/reference",
			"https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/index.md"},
	},
	// https://developers.openai.com/codex/hooks: hooks.json beside each
	// config layer (<repo>/.codex/hooks.json, ~/.codex/hooks.json), the same
	// {matcher, hooks:[{type, command}]} groups as Claude Code; PostToolUse's
	// matcher filters tool names and supports apply_patch. CODEX_HOME moves
	// ~/.codex (https://developers.openai.com/codex/environment-variables).
	// The documented alternative, inline [hooks] tables in config.toml, is
	// not written: Codex warns when one layer has both.
	"codex": {
		Agent: "codex", Title: "Codex CLI",
		ProjectFile: ".codex/hooks.json",
		userFile: func(home string, getenv func(string) string) string {
			if h := getenv("CODEX_HOME"); h != "" {
				return filepath.Join(h, "hooks.json")
			}
			return filepath.Join(home, ".codex", "hooks.json")
		},
		Events: []Entry{
			{Event: "PostToolUse", Grouped: true, Matcher: "apply_patch", Shell: "Bash",
				Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "SessionStart", Grouped: true, Session: true, Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
			{Event: "Stop", Grouped: true, Session: true, StopGate: true, Handler: []Field{{"type", "command"}, {"command", commandPlaceholder}}},
		},
		Notes: []string{"Codex runs a new or changed hook only after you review and trust it: " +
			"open /hooks in Codex. Project hooks load only in a trusted project."},
		Docs: []string{"https://developers.openai.com/codex/hooks", "https://developers.openai.com/codex/environment-variables"},
	},
	// https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
	// and https://docs.github.com/en/copilot/concepts/agents/hooks: any
	// .github/hooks/*.json (project) or ~/.copilot/hooks/*.json (Copilot CLI,
	// user) holding {"version": 1, "hooks": {"<event>": [{"type": "command",
	// "bash": "…"}]}}. Copilot CLI 1.0.51 and later append a postToolUse
	// hook's additionalContext to the tool result (its changelog.md), so
	// the agentStop entry of older installs, which re-delivered at the end
	// of the turn, is retired; agentStop now returns as the Stop gate
	// ("block" forces another turn with reason as the prompt), unless
	// --no-stop-gate. sessionStart prewarms, sessionEnd forgets the
	// session (cli-hooks-reference, "Hook events").
	"copilot": {
		Agent: "copilot", Title: "GitHub Copilot",
		ProjectFile: ".github/hooks/lsp-hook.json",
		userFile:    userFileUnder(".copilot", "hooks", "lsp-hook.json"),
		Skeleton:    []Field{{"version", 1}},
		Events: []Entry{
			{Event: "postToolUse", Shell: "bash", Handler: []Field{{"type", "command"}, {"bash", commandPlaceholder}}},
			{Event: "sessionStart", Session: true, Handler: []Field{{"type", "command"}, {"bash", commandPlaceholder}}},
			{Event: "agentStop", Session: true, StopGate: true, Handler: []Field{{"type", "command"}, {"bash", commandPlaceholder}}},
			{Event: "sessionEnd", Session: true, Handler: []Field{{"type", "command"}, {"bash", commandPlaceholder}}},
		},
		Retired: []string{"agentStop"},
		Notes: []string{"Copilot CLI loads repository hooks only in a trusted folder (its trust prompt, or " +
			"--trust-folder with -p); it delivers the block with the tool result from version 1.0.51.",
			"Copilot cloud agent reads .github/hooks/*.json from the default branch: " +
				"commit and merge the file there; Copilot CLI reads it from the working directory."},
		Docs: []string{"https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference",
			"https://docs.github.com/en/copilot/concepts/agents/hooks"},
	},
	// https://docs.windsurf.com/windsurf/cascade/hooks: {"hooks":
	// {"post_write_code": [{"command": "…", "show_output": true}]}} in
	// .windsurf/hooks.json (workspace) or ~/.codeium/windsurf/hooks.json
	// (user).
	"windsurf": {
		Agent: "windsurf", Title: "Windsurf",
		ProjectFile: ".windsurf/hooks.json",
		userFile:    userFileUnder(".codeium", "windsurf", "hooks.json"),
		Events: []Entry{
			{Event: "post_write_code", Handler: []Field{{"command", commandPlaceholder}, {"show_output", true}}},
		},
		Docs: []string{"https://docs.windsurf.com/windsurf/cascade/hooks"},
	},
}

func init() { targets[openCodeTarget.Agent] = openCodeTarget }

// codexInlineHooks matches a [hooks…] or [[hooks…]] table header in a
// Codex config.toml: the inline form of the hooks install writes to
// hooks.json.
var codexInlineHooks = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*\[\[?[ \t]*hooks[ \t]*[\].]`) })

// Lookup returns the install target for an agent name ("claude-code"
// is accepted for "claude"), or an error listing the known agents.
func Lookup(agent string) (*Target, error) {
	if agent == "claude-code" {
		agent = "claude"
	}
	if t, ok := targets[agent]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("unknown agent %q (known: %s)", agent, strings.Join(Agents(), ", "))
}

// Agents lists the agents install supports, sorted.
func Agents() []string {
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Path returns the absolute path of the file install edits for scope:
// root/ProjectFile for ProjectScope, the user-level file under home for
// UserScope.
func (t *Target) Path(scope Scope, root, home string, getenv func(string) string) (string, error) {
	switch scope {
	case ProjectScope:
		if root == "" {
			return "", fmt.Errorf("no workspace root for the project-level %s file", t.Title)
		}
		return filepath.Join(root, filepath.FromSlash(t.ProjectFile)), nil
	case UserScope:
		if home == "" {
			return "", fmt.Errorf("no home directory for the user-level %s file", t.Title)
		}
		return t.userFile(home, getenv), nil
	}
	return "", fmt.Errorf("unknown scope %d", scope)
}

// entries returns the events install writes with o: all of them, but the
// Batch ones without o.Batch, the Session ones with o.NoSession and the
// StopGate ones with o.NoStopGate; with the shell tool joined to each
// matcher unless o.NoShell.
func (t *Target) entries(o Options) []Entry {
	var out []Entry
	for _, e := range t.Events {
		if e.Batch && !o.Batch || e.Session && o.NoSession || e.StopGate && o.NoStopGate {
			continue
		}
		if e.Shell != "" && e.Matcher != "" && !o.NoShell {
			e.Matcher += "|" + e.Shell
		}
		out = append(out, e)
	}
	return out
}

// NoShellFlag is the `lsp-hook hook` flag install adds to the command of
// an entry without a matcher when the shell tool is left out.
const NoShellFlag = "--no-shell"

// entryCommand is the command install writes for e: command, with
// NoShellFlag when noShell leaves out the shell tool of an entry that has
// no matcher to leave it out of.
func entryCommand(e Entry, command string, noShell bool) string {
	if noShell && e.Shell != "" && e.Matcher == "" {
		return command + " " + NoShellFlag
	}
	return command
}

// HasBatch reports whether the target has a --batch entry (Claude Code's
// PostToolBatch).
func (t *Target) HasBatch() bool {
	for _, e := range t.Events {
		if e.Batch {
			return true
		}
	}
	return false
}
