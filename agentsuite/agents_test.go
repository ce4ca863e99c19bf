package agentsuite

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// An agent is one CLI as the suite drives it.
type agent struct {
	// name is lsp-hook's name for it (install and hook).
	name string
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
	// readable turns the lint block into what the model should read from
	// this agent ("" for the block as is).
	readable func(block string) string
	// recordOnly: drive the CLI and record what it sends, but do not judge
	// the blocks (the product side is not there yet).
	recordOnly bool
}

// prompt is the user's request in every session.
const prompt = "Create main.go as planned, then edit it, then rewrite it cleanly."

// agents is the table of CLIs, in priority order.
var agents = []agent{
	claudeAgent,
}

// TestAgents runs every CLI's scripted session and judges each request
// that follows a tool call.
func TestAgents(t *testing.T) {
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			exe := requireAgent(t, a.exe)
			runAgent(t, a, exe)
		})
	}
}

// runAgent is one CLI's session: set up, run, judge, record.
func runAgent(t *testing.T, a agent, exe string) {
	s := newSession(t)
	s.lspHook("install", a.name, "--project")
	script := a.script(s.ws)
	m := newModelServer(t, a.dialect(), script, filepath.Join(s.ws, "main.go"), s.logDir)
	args, env := a.setup(s, m.URL())
	r := s.run(exe, args, env, "")
	t.Logf("%s ran %s (exit: %v)", a.name, r.elapsed.Round(time.Millisecond), r.err)
	turns := m.Turns()
	if t.Failed() || r.err != nil || len(turns) < len(script) {
		t.Errorf("%s: %d of %d scripted turns reached the model (exit: %v); requests: %v\nstdout:\n%s\nstderr:\n%s\nrequest bodies in %s",
			a.name, len(turns), len(script), r.err, m.Paths(), tail(r.stdout), tail(r.stderr), s.logDir)
	}
	pl := s.payloads()
	for _, p := range pl {
		t.Logf("hook payload (lsp-hook %s): %s", p.Args, p.JSON)
	}
	if *recordFlag {
		record(t, a.name, s.ws, pl)
	}
	judge(t, a, script, turns)
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, blockMarker) || strings.Contains(strings.ToLower(out), "hook error") {
			t.Errorf("%s showed the user hook output:\n%s", a.name, tail(out))
		}
	}
}

// judge checks the request after each tool call: the compiler's block,
// once, after a broken write or edit; no block after a clean one. It logs
// the gap from the tool call to that request (the first is cold).
func judge(t *testing.T, a agent, script []step, turns []turn) {
	t.Helper()
	for i := 1; i < len(turns) && i < len(script); i++ {
		prev, cur := turns[i-1], turns[i]
		label := "warm"
		if i == 1 {
			label = "cold"
		}
		t.Logf("%s %s: %s → next request %s (%s)", a.name, script[i-1].Name, script[i-1].Tool, cur.Gap.Round(time.Millisecond), label)
		want := expectedBlock(t, cur.File, mainCode)
		if i == 1 {
			t.Logf("%s: what the model read after the first %s:\n%s", a.name, script[0].Tool, around(cur.Text, blockMarker))
		}
		added := strings.Count(cur.Text, blockMarker) - strings.Count(prev.Text, blockMarker)
		if a.recordOnly {
			t.Logf("%s after %s: %d new block(s); compiler's block:\n%s", a.name, script[i-1].Name, added, want)
			continue
		}
		if want == "" {
			if added != 0 {
				t.Errorf("%s after the clean %s: %d new lint block(s), want none:\n%s", a.name, script[i-1].Name, added, newText(prev.Text, cur.Text))
			}
			continue
		}
		if a.readable != nil {
			want = a.readable(want)
		}
		n := strings.Count(cur.Text, want) - strings.Count(prev.Text, want)
		if n != 1 || added != 1 {
			t.Errorf("%s after %s: the compiler's block arrived %d time(s) (%d new blocks), want once:\n--- want\n%s\n--- new text of the request\n%s",
				a.name, script[i-1].Name, n, added, want, newText(prev.Text, cur.Text))
		}
	}
}

// newText is what cur holds beyond prev's text, for messages: the suffix
// after their common prefix, or all of cur.
func newText(prev, cur string) string {
	i := 0
	for i < len(prev) && i < len(cur) && prev[i] == cur[i] {
		i++
	}
	return tail(cur[i:])
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

// record writes each distinct hook payload into
// testdata/agents/<agent>/cli-<event>-<tool>.json, the workspace path as
// {{ROOT}} (the form of the hand-made payloads beside them).
func record(t *testing.T, name, ws string, pl []payload) {
	t.Helper()
	dir := filepath.Join(moduleRoot, "testdata", "agents", name)
	seen := map[string]int{}
	for _, p := range pl {
		var ev map[string]any
		if err := json.Unmarshal(p.JSON, &ev); err != nil {
			t.Errorf("hook payload is not a JSON object: %v\n%s", err, p.JSON)
			continue
		}
		key := slug(firstString(ev, "hook_event_name", "hookEventName", "event")) + "-" +
			slug(firstString(ev, "tool_name", "toolName", "tool"))
		seen[key]++
		if seen[key] > 1 {
			key += "-" + string(rune('0'+seen[key]))
		}
		var pretty strings.Builder
		enc := json.NewEncoder(&pretty)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(pretty.String(), ws, "{{ROOT}}")
		writeFile(t, filepath.Join(dir, "cli-"+key+".json"), text)
	}
}

// firstString returns the first of keys that ev holds as a string.
func firstString(ev map[string]any, keys ...string) string {
	for _, k := range keys {
		if v, ok := ev[k].(string); ok && v != "" {
			return v
		}
	}
	return "none"
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
	name: "claude", exe: "claude",
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
