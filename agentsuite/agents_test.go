package agentsuite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// An agent is one CLI as the suite drives it.
type agent struct {
	// name is lsp-hook's name for it (install and hook).
	name string
	// row names the test when one agent has several rows ("" for name).
	row string
	// install are more `lsp-hook install` flags (--batch).
	install []string
	// exe is its program in .tools/agents/node_modules/.bin.
	exe string
	// dialect is the provider API its model requests use.
	dialect func() dialect
	// script is the scripted session in the agent's own tools, for the
	// workspace ws.
	script func(ws string) []step
	// setup writes the agent's own configuration (provider, telemetry,
	// trust) into the session's home and workspace, after `lsp-hook
	// install`, and returns the command line and extra environment.
	setup func(s *session, modelURL string) (args, env []string)
	// verbatim: the model reads the lint block exactly as lsp-hook renders
	// it (DESIGN.md); otherwise the agent has its own rendering, judged by
	// its error lines and the absence of HTML entities.
	verbatim bool
	// pending names the product change an agent's row still waits for
	// (judge logs its failures instead of failing).
	pending string
	// recordOnly: drive the CLI and record what it sends, but do not judge
	// the blocks (the product side is not there yet).
	recordOnly bool
}

// prompt is the user's request in every session.
const prompt = "Create main.go as planned, then edit it, then rewrite it cleanly."

// agents is the table of CLIs, in priority order.
var agents = []agent{
	claudeAgent,
	claudeBatchAgent,
	claudeBashAgent,
	geminiAgent,
	codexAgent,
	copilotAgent,
	copilotPatchAgent,
	opencodeAgent,
}

// TestAgents runs every CLI's scripted session and judges each request
// that follows a tool call.
func TestAgents(t *testing.T) {
	for _, a := range agents {
		row := a.row
		if row == "" {
			row = a.name
		}
		t.Run(row, func(t *testing.T) {
			exe := requireAgent(t, a.exe)
			runAgent(t, a, exe)
		})
	}
}

// runAgent is one CLI's session: set up, run, judge, record.
func runAgent(t *testing.T, a agent, exe string) {
	s := newSession(t)
	out, err := s.lspHook(append([]string{"install", a.name, "--project"}, a.install...)...)
	switch {
	case err != nil && a.recordOnly:
		t.Logf("%s: no hook installed (the product side is not there yet): %v", a.name, err)
	case err != nil:
		t.Fatal(err)
	default:
		t.Logf("lsp-hook install %s --project:\n%s", a.name, out)
	}
	script := a.script(s.ws)
	m := newModelServer(t, a.dialect(), script, filepath.Join(s.ws, "main.go"), s.logDir)
	args, env := a.setup(s, m.URL())
	r := s.run(exe, args, env, "")
	t.Logf("%s ran %s (exit: %v); model requests: %v", a.name, r.elapsed.Round(time.Millisecond), r.err, m.Paths())
	turns := m.Turns()
	if len(turns) > 0 {
		var body map[string]any
		_ = json.Unmarshal(turns[0].Body, &body)
		t.Logf("%s offers the model: %v", a.name, toolNames(body))
	}
	if t.Failed() || r.err != nil || len(turns) < len(script) {
		t.Errorf("%s: %d of %d scripted turns reached the model (exit: %v); requests: %v\nstdout:\n%s\nstderr:\n%s\nrequest bodies in %s",
			a.name, len(turns), len(script), r.err, m.Paths(), tail(r.stdout), tail(r.stderr), s.logDir)
	}
	pl := s.payloads()
	for _, p := range pl {
		t.Logf("hook payload (lsp-hook %s, ran %s): %s", p.Args, p.Took.Round(time.Millisecond), p.JSON)
	}
	if *recordFlag {
		record(t, a, s, script, pl)
	}
	judge(t, a, script, turns)
	logLatency(t, a, script, turns, pl)
	if a.recordOnly && len(turns) > 0 {
		last := turns[len(turns)-1]
		t.Logf("%s: the model's last request (%d in all) holds %d lint block(s):\n%s",
			a.name, len(turns), strings.Count(last.Text, blockMarker), around(last.Text, blockMarker))
	}
	if !strings.Contains(r.stdout, "Done.") {
		t.Errorf("%s did not print the model's last answer (Done.):\nstdout:\n%s\nstderr:\n%s", a.name, tail(r.stdout), tail(r.stderr))
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, blockMarker) || strings.Contains(strings.ToLower(out), "hook error") {
			t.Errorf("%s showed the user hook output:\n%s", a.name, tail(out))
		}
	}
}

// judge checks the request after each tool call: the compiler's errors,
// once each, after a broken write or edit, in the block as lsp-hook
// renders it (verbatim agents) or readable without entities (the others);
// no block after a clean one. It logs the gap from the tool call to that
// request (the first is cold). While a.pending names the product change
// an agent waits for, a failing step is logged as a known gap, and a run
// whose every broken step passes is an error: the marker is out of date.
func judge(t *testing.T, a agent, script []step, turns []turn) {
	t.Helper()
	broken, failed := 0, 0
	for i := 1; i < len(turns) && i < len(script); i++ {
		prev, cur, name := turns[i-1], turns[i], script[i-1].Name
		label := "warm"
		if i == 1 {
			label = "cold"
		}
		t.Logf("%s %s: %s → next request %s (%s)", a.name, name, script[i-1].Tool, cur.Gap.Round(time.Millisecond), label)
		if i == 1 {
			t.Logf("%s: what the model read after the first %s:\n%s", a.name, script[0].Tool, around(cur.Text, blockMarker))
		}
		want := expectedBlock(t, cur.File, mainCode)
		if a.recordOnly {
			added := strings.Count(cur.Text, blockMarker) - strings.Count(prev.Text, blockMarker)
			t.Logf("%s after %s: %d new block(s); the compiler's block:\n%s", a.name, name, added, want)
			continue
		}
		if want != "" {
			broken++
		}
		problems := judgeStep(a, want, prev.Text, cur.Text)
		if len(problems) == 0 {
			continue
		}
		if want != "" {
			failed++
		}
		if a.pending != "" {
			t.Logf("%s after %s: KNOWN GAP (%s): %s\n%s", a.name, name, a.pending, strings.Join(problems, "; "), around(cur.Text, blockMarker))
			continue
		}
		t.Errorf("%s after %s: %s\n--- the compiler's block\n%s\n--- what the model read\n%s",
			a.name, name, strings.Join(problems, "; "), want, around(cur.Text, blockMarker))
	}
	if a.pending != "" && broken > 0 && failed == 0 {
		t.Errorf("%s: every block arrived as it should: remove pending %q from the agent's row", a.name, a.pending)
	}
}

// logLatency logs, per tool step, the gap from the model's tool call to
// its next request and the hook process's own time (the step's first
// tool event; "-" when the agent ran none), the first step cold.
func logLatency(t *testing.T, a agent, script []step, turns []turn, pl []payload) {
	var hooks []time.Duration
	for _, p := range pl {
		var ev map[string]any
		if json.Unmarshal(p.JSON, &ev) != nil {
			continue
		}
		if ev["tool_name"] != nil || ev["toolName"] != nil {
			hooks = append(hooks, p.Took)
		}
	}
	var parts []string
	k := 0
	for i := 1; i < len(turns) && i < len(script); i++ {
		st := script[i-1]
		hook := "-"
		if k < len(hooks) {
			hook = hooks[k].Round(time.Millisecond).String()
		}
		k += 1 + len(st.Also)
		parts = append(parts, fmt.Sprintf("%s gap %s hook %s", st.Name, turns[i].Gap.Round(time.Millisecond), hook))
	}
	t.Logf("latency %s (first cold): %s", a.name, strings.Join(parts, "; "))
}

// judgeStep returns what is wrong with the request cur after a tool call,
// prev being the request before it: want is the compiler's block ("" for
// a clean file).
func judgeStep(a agent, want, prev, cur string) []string {
	var problems []string
	added := strings.Count(cur, blockMarker) - strings.Count(prev, blockMarker)
	if want == "" {
		if added != 0 {
			problems = append(problems, fmt.Sprintf("%d new lint block(s) for a clean file, want none", added))
		}
		return problems
	}
	if added != 1 {
		problems = append(problems, fmt.Sprintf("%d new lint blocks, want 1", added))
	}
	if a.verbatim {
		if n := strings.Count(cur, want) - strings.Count(prev, want); n != 1 {
			problems = append(problems, fmt.Sprintf("the compiler's block arrived %d time(s), want once", n))
		}
		return problems
	}
	for _, line := range strings.Split(want, "\n") {
		if !strings.HasPrefix(line, "ERROR [") {
			continue
		}
		plain := html.UnescapeString(line) // the model should read the message as the compiler wrote it
		if n := strings.Count(cur, plain) - strings.Count(prev, plain); n != 1 {
			problems = append(problems, fmt.Sprintf("%q arrived %d time(s), want once", plain, n))
		}
	}
	near := around(cur, blockMarker)
	for _, e := range []string{"&lt;", "&gt;", "&amp;", "&quot;"} {
		if strings.Contains(near, e) {
			problems = append(problems, "the model reads the entity "+e)
		}
	}
	return problems
}

// around returns the part of s from 300 bytes before the last marker to
// 700 after it, or the start of s when there is none.
func around(s, marker string) string {
	i := strings.LastIndex(s, marker)
	if i < 0 {
		return s[:min(len(s), 1000)]
	}
	return s[max(0, i-300):min(len(s), i+700)]
}

// tail is the last 4000 bytes of s.
func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// record writes each hook payload into testdata/agents/<agent>/ as
// cli-[<row>-]<event>-<step>.json (a tool's event, named after the
// script's step that made it) or cli-[<row>-]<event>.json, where <row> is
// what the test row's name adds to the agent's (batch in claude-batch),
// in the form of the hand-made payloads beside them: the workspace as
// {{ROOT}}, the home directory as /home/dev.
func record(t *testing.T, a agent, s *session, script []step, pl []payload) {
	t.Helper()
	dir := filepath.Join(moduleRoot, "testdata", "agents", a.name)
	prefix := "cli-"
	if a.row != "" {
		prefix += strings.TrimPrefix(a.row, a.name+"-") + "-"
	}
	var calls []string // the step of each tool call, in order
	for _, st := range script {
		for range 1 + len(st.Also) {
			if st.Tool != "" {
				calls = append(calls, st.Name)
			}
		}
	}
	seen := map[string]int{}
	tools := 0
	for _, p := range pl {
		var ev map[string]any
		if err := json.Unmarshal(p.JSON, &ev); err != nil {
			t.Errorf("hook payload is not a JSON object: %v\n%s", err, p.JSON)
			continue
		}
		event := firstString(ev, "hook_event_name", "hookEventName")
		_, hasTool := ev["tool_name"]
		if _, ok := ev["toolName"]; ok {
			hasTool = true
		}
		switch {
		case event != "":
		case hasTool: // Copilot's own event names are not in its payloads
			event = "postToolUse"
		case ev["stopReason"] != nil:
			event = "agentStop"
		default:
			event = "unknown"
		}
		key := slug(event)
		if hasTool && tools < len(calls) {
			key += "-" + calls[tools]
			tools++
		}
		if seen[key]++; seen[key] > 1 {
			key += "-" + strconv.Itoa(seen[key])
		}
		var pretty bytes.Buffer // the CLI's own field order and escapes
		if err := json.Indent(&pretty, bytes.TrimSpace(p.JSON), "", "  "); err != nil {
			t.Fatal(err)
		}
		pretty.WriteByte('\n')
		text := strings.NewReplacer(s.ws, "{{ROOT}}", s.home, "/home/dev",
			strings.ReplaceAll(s.ws, "/", "-"), "-demo").Replace(pretty.String())
		writeFile(t, filepath.Join(dir, prefix+key+".json"), text)
	}
}

// firstString returns the first of keys that ev holds as a string.
func firstString(ev map[string]any, keys ...string) string {
	for _, k := range keys {
		if v, ok := ev[k].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// nonWord matches what a file name slug leaves out.
var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// slug turns PostToolUse into post-tool-use and write_file into write-file.
func slug(s string) string {
	s = regexp.MustCompile(`([a-z0-9])([A-Z])`).ReplaceAllString(s, "$1-$2")
	return strings.Trim(nonWord.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

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

// geminiAgent is Gemini CLI: `gemini -p` with an API key against
// GOOGLE_GEMINI_BASE_URL (settings security.auth.selectedType
// gemini-api-key). Its trust step is the one its folder-trust dialog
// takes: the workspace as TRUST_FOLDER in ~/.gemini/trustedFolders.json
// (https://geminicli.com/docs/cli/trusted-folders); the project's hooks
// are then trusted at first sight with a warning. write_file and replace
// run under --approval-mode auto_edit.
var geminiAgent = agent{
	name: "gemini", exe: "gemini",
	// Gemini CLI HTML-escapes additionalContext inside <hook_context>.
	pending: "issue 15 item 2: Gemini's block readable",
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

// The scripted apply_patch calls (codex-rs apply_patch grammar: paths
// relative to the working directory).
const (
	patchAdd   = "*** Begin Patch\n*** Add File: main.go\n+package main\n+\n+import \"fmt\"\n+\n+func main() {\n+\tvar n int = \"seven\"\n+\tfmt.Println(n, greeting())\n+}\n*** End Patch\n"
	patchEdit  = "*** Begin Patch\n*** Update File: main.go\n@@\n func main() {\n-\tvar n int = \"seven\"\n+\tvar n int = 7\n+\tvar c <-chan string = make(chan int)\n+\t_ = c\n \tfmt.Println(n, greeting())\n*** End Patch\n"
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
	name: "codex", exe: "codex", verbatim: true,
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

// copilotModel is a model Copilot CLI offers its create and edit tools
// to (with GPT-5 models it offers apply_patch only).
const copilotModel = "gpt-4.1"

// copilotAgent is Copilot CLI: `copilot -p` with a bring-your-own
// provider (COPILOT_PROVIDER_BASE_URL, type openai, Chat Completions) in
// offline mode (no GitHub sign-in, telemetry or update). Its trust step is
// --trust-folder: in -p mode repository hooks load only for a trusted
// folder (`copilot help environment`, `copilot --help`). The block's
// delivery is being changed (issue 15 item 2), so the run is recorded,
// not judged.
var copilotAgent = agent{
	name: "copilot", exe: "copilot", recordOnly: true,
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
// advises for GPT-5): its edits are apply_patch calls. Recorded, not
// judged: lsp-hook's Copilot adapter does not read apply_patch yet (issue
// 15 item 2).
var copilotPatchAgent = agent{
	name: "copilot", row: "copilot-apply-patch", exe: "copilot", recordOnly: true,
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

// opencodeAgent is OpenCode: `opencode run` with a provider of its own
// (@ai-sdk/openai-compatible, bundled, baseURL to the scripted model) in
// the user's config, models.dev, autoupdate, sharing, default plugins and
// its own LSP off (its LSP block would be a second one). It has no trust
// step; `lsp-hook install opencode` is its plugin (issue 15 item 3), so
// the run is recorded, not judged, until that lands.
var opencodeAgent = agent{
	name: "opencode", exe: "../opencode-linux-x64/bin/opencode", recordOnly: true,
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
