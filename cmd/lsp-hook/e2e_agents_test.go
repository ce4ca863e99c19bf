package main_test

// End-to-end tests of every agent's hook: recorded events from
// testdata/agents (see its README.md for each field's source) through the
// real binary, a real daemon and real gopls, compared with golden answers;
// then the behaviours that take more than one event: Copilot's
// collect-then-deliver, the delivered-once guard for agents that also run
// .claude/settings.json hooks, a Codex apply_patch that adds, updates and
// moves files, and a sed run through Claude Code's Bash tool.

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var updateAgents = flag.Bool("update-agents", false, "rewrite testdata/agents/*/*.golden from the hooks' answers")

func agentsDir() string { return filepath.Join(moduleRoot, "testdata", "agents") }

// agentCase is one line of testdata/agents/cases.tsv.
type agentCase struct {
	golden string   // golden file, without .golden, relative to agentsDir
	event  string   // event file, without .json
	after  string   // directory under after/ copied into the workspace first ("-": none)
	keep   bool     // leave the after files in place for the next case
	args   []string // the lsp-hook command line
}

func agentCases(t *testing.T) []agentCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(agentsDir(), "cases.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []agentCase
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 || (f[3] != "keep" && f[3] != "restore") {
			t.Fatalf("cases.tsv: bad line %q", line)
		}
		out = append(out, agentCase{golden: f[0], event: f[1], after: f[2], keep: f[3] == "keep", args: strings.Fields(f[4])})
	}
	return out
}

// applyAfter copies testdata/agents/after/<name> over the workspace, as
// the agent's tool left the files, and returns the workspace-relative
// paths it wrote.
func (w *workspace) applyAfter(name string) []string {
	w.t.Helper()
	if name == "-" {
		return nil
	}
	dir := filepath.Join(agentsDir(), "after", name)
	var rels []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		w.writeFile(filepath.ToSlash(rel), mustRead(w.t, p))
		rels = append(rels, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return rels
}

// restore puts back testdata/demo's version of each file, removing the
// ones the sample does not have.
func (w *workspace) restore(rels []string) {
	w.t.Helper()
	for _, rel := range rels {
		orig := filepath.Join(moduleRoot, "testdata", "demo", filepath.FromSlash(rel))
		if _, err := os.Stat(orig); err != nil {
			os.Remove(w.path(rel))
			continue
		}
		w.writeFile(rel, mustRead(w.t, orig))
	}
}

// agentEvent reads testdata/agents/<name>.json with {{ROOT}} filled in.
func (w *workspace) agentEvent(name string) string {
	w.t.Helper()
	return w.fill(mustRead(w.t, filepath.Join(agentsDir(), filepath.FromSlash(name)+".json")))
}

var elapsedRE = regexp.MustCompile(`"elapsed_ms":\d+`)

// transcript renders what one hook run did, in the golden files' form,
// with the workspace root as {{ROOT}} and elapsed times as 0.
func (w *workspace) transcript(r result) string {
	s := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", r.exit, r.stdout, r.stderr)
	s = strings.ReplaceAll(s, w.root, "{{ROOT}}")
	return elapsedRE.ReplaceAllString(s, `"elapsed_ms":0`)
}

// TestAgentGoldens replays testdata/agents/cases.tsv in order in one
// workspace: each case writes the files the agent's tool changed, runs the
// hook as the agent does, and compares exit status, stdout and stderr with
// its golden file (go test -update-agents rewrites them).
func TestAgentGoldens(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	var dirty []string
	for _, c := range agentCases(t) {
		t.Run(c.golden, func(t *testing.T) {
			defer w.use(t)()
			dirty = append(dirty, w.applyAfter(c.after)...)
			got := w.transcript(w.run(w.agentEvent(c.event), nil, c.args...))
			if !c.keep {
				w.restore(dirty)
				dirty = nil
			}
			golden := filepath.Join(agentsDir(), filepath.FromSlash(c.golden)+".golden")
			if *updateAgents {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := mustRead(t, golden)
			if got != want {
				t.Errorf("lsp-hook %s answered:\n%s\nwant (%s):\n%s", strings.Join(c.args, " "), indent(got), golden, indent(want))
			}
		})
	}
}

// TestAgentDeliverOnce: Cursor and Copilot also run the hooks of
// .claude/settings.json, so one change reaches both `lsp-hook hook
// <agent>` and `lsp-hook hook claude`. Each block is delivered once per
// session and content, even when both run at the same time; Copilot's
// postToolUse delivers and its agentStop does not repeat it. The files are YAML: the
// validators answer, no language server is needed.
func TestAgentDeliverOnce(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	dup := "environment: staging\nreplicas: 2\nreplicas: 3\n"
	w.writeFile("settings.yaml", dup)
	want := []wantDiag{{file: "settings.yaml", line: 3, col: 1, msg: `duplicate key "replicas" (first at 2:1)`}}

	t.Run("cursor", func(t *testing.T) {
		defer w.use(t)()
		ev := w.fill(`{"conversation_id":"conv-dup","generation_id":"g1","model":"m","hook_event_name":"postToolUse",
			"cursor_version":"1.7.2","workspace_roots":["{{ROOT}}"],"user_email":null,"transcript_path":null,
			"tool_name":"Write","tool_input":{"file_path":"{{ROOT}}/settings.yaml"},"tool_output":"{}",
			"tool_use_id":"t1","cwd":"{{ROOT}}","duration":3}`)
		native := w.start(ev, nil, "hook", "cursor")
		viaClaude := w.start(ev, nil, "hook", "claude")
		var blocks []string
		for _, wait := range []func() (result, error){native, viaClaude} {
			r, err := wait()
			if err != nil || r.exit != 0 || r.stderr != "" {
				t.Fatalf("hook: %v, exit %d, stderr %q", err, r.exit, r.stderr)
			}
			if r.stdout != "" {
				blocks = append(blocks, cursorContext(t, r.stdout))
			}
		}
		if len(blocks) != 1 {
			t.Fatalf("Cursor's own hook and the Claude Code hook delivered %d blocks, want 1: %q", len(blocks), blocks)
		}
		checkLint(t, blocks[0], want)
		// New content is a new block.
		w.writeFile("settings.yaml", "# v2\n"+dup)
		r := w.run(ev, nil, "hook", "claude")
		checkLint(t, cursorContext(t, r.stdout), []wantDiag{{file: "settings.yaml", line: 4, col: 1, msg: `duplicate key "replicas" (first at 3:1)`}})
		w.writeFile("settings.yaml", dup)
	})

	t.Run("copilot", func(t *testing.T) {
		defer w.use(t)()
		native := w.fill(`{"sessionId":"cp-dup","timestamp":1767521730123,"cwd":"{{ROOT}}","toolName":"edit",
			"toolArgs":"{\"path\":\"{{ROOT}}/settings.yaml\",\"old_str\":\"replicas: 2\\n\",\"new_str\":\"replicas: 2\\nreplicas: 3\\n\"}",
			"toolResult":{"resultType":"success","textResultForLlm":"ok"}}`)
		// The same tool call as Copilot sends it to a PascalCase hook of
		// .claude/settings.json.
		viaClaude := w.fill(`{"session_id":"cp-dup","timestamp":"2026-01-04T10:15:30.123Z","cwd":"{{ROOT}}",
			"hook_event_name":"PostToolUse","tool_name":"edit","tool_input":{"path":"{{ROOT}}/settings.yaml"},
			"tool_result":{"resultType":"success","textResultForLlm":"ok"}}`)
		a, b := w.start(native, nil, "hook", "copilot"), w.start(viaClaude, nil, "hook", "claude")
		var blocks []string
		for _, wait := range []func() (result, error){a, b} {
			r, err := wait()
			if err != nil || r.exit != 0 || r.stderr != "" {
				t.Fatalf("postToolUse: %v, exit %d, stderr %q", err, r.exit, r.stderr)
			}
			if r.stdout != "" {
				blocks = append(blocks, copilotContext(t, r.stdout))
			}
		}
		if len(blocks) != 1 {
			t.Fatalf("postToolUse delivered %d blocks, want 1: %q", len(blocks), blocks)
		}
		checkLint(t, blocks[0], want)
		stop := w.fill(`{"sessionId":"cp-dup","timestamp":1767521745678,"cwd":"{{ROOT}}","transcriptPath":"/t","stopReason":"end_turn"}`)
		stopViaClaude := w.fill(`{"session_id":"cp-dup","timestamp":"2026-01-04T10:15:45.678Z","cwd":"{{ROOT}}","hook_event_name":"Stop","stop_hook_active":false}`)
		for _, run := range []struct{ ev, agent string }{{stop, "copilot"}, {stopViaClaude, "claude"}} {
			if r := w.run(run.ev, nil, "hook", run.agent); r.exit != 0 || r.stdout != "" {
				t.Errorf("agentStop via hook %s: exit %d, printed %q; the block was delivered already", run.agent, r.exit, r.stdout)
			}
		}
	})
}

// cursorContext returns// cursorContext returns additional_context from Cursor's answer, failing
// unless the answer is exactly that object.
func cursorContext(t *testing.T, stdout string) string {
	t.Helper()
	var out struct {
		AdditionalContext string `json:"additional_context"`
	}
	decodeOnly(t, stdout, &out)
	return out.AdditionalContext
}

// copilotContext returns additionalContext from Copilot's postToolUse
// answer, failing unless the answer is exactly that object.
func copilotContext(t *testing.T, stdout string) string {
	t.Helper()
	var out struct {
		AdditionalContext string `json:"additionalContext"`
	}
	decodeOnly(t, stdout, &out)
	return out.AdditionalContext
}

// TestAgentCodexApplyPatch: one apply_patch adds textfmt.go (formatCount
// with a unit parameter), updates greet.go (removing the old formatCount),
// moves report.go to reporting.go with a type error, and deletes
// settings.yaml: the moved file is checked at its new path, with the call
// the new file broke.
func TestAgentCodexApplyPatch(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	patch := "*** Begin Patch\n" +
		"*** Add File: textfmt.go\n" +
		"+package main\n+\n+import \"fmt\"\n+\n+// formatCount renders a count with its unit: \"1 apple\", \"3 apples\".\n" +
		"+func formatCount(n int, unit string) string {\n+\tif n == 1 {\n+\t\treturn \"1 \" + unit\n+\t}\n+\treturn fmt.Sprintf(\"%d %ss\", n, unit)\n+}\n" +
		"*** Update File: greet.go\n" +
		"@@ func greet(name string) string {\n" +
		" \treturn fmt.Sprintf(\"hello, %s\", strings.TrimSpace(name))\n }\n-\n-// formatCount renders a count of items: \"1 item\", \"3 items\".\n-func formatCount(n int) string {\n" +
		"-\tif n == 1 {\n-\t\treturn \"1 item\"\n-\t}\n-\treturn fmt.Sprintf(\"%d items\", n)\n-}\n" +
		"*** Update File: report.go\n" +
		"*** Move to: reporting.go\n" +
		"@@ func report(inv *inventory.Inventory) string {\n \tvar b strings.Builder\n+\tb.WriteString(len(inv.Items()))\n" +
		"*** Delete File: settings.yaml\n" +
		"*** End Patch\n"
	// What Codex did before running the hook.
	greet := w.readFile("greet.go")
	cut := strings.Index(greet, "\n// formatCount")
	w.writeFile("greet.go", greet[:cut+1])
	w.writeFile("textfmt.go", "package main\n\nimport \"fmt\"\n\n// formatCount renders a count with its unit: \"1 apple\", \"3 apples\".\n"+
		"func formatCount(n int, unit string) string {\n\tif n == 1 {\n\t\treturn \"1 \" + unit\n\t}\n\treturn fmt.Sprintf(\"%d %ss\", n, unit)\n}\n")
	w.writeFile("reporting.go", mustRead(t, filepath.Join(agentsDir(), "after", "report-broken", "report.go")))
	for _, f := range []string{"report.go", "settings.yaml"} {
		if err := os.Remove(w.path(f)); err != nil {
			t.Fatal(err)
		}
	}
	ev := fmt.Sprintf(`{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":%q,"hook_event_name":"PostToolUse",
		"model":"gpt-5-codex","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":%q},
		"tool_response":"Success.","tool_use_id":"call_1"}`, w.root, patch)
	r := w.run(ev, nil, "hook", "codex")
	block := w.checkHook(r)
	checkLint(t, block, []wantDiag{
		{file: "reporting.go", line: 13, col: 16, msg: "cannot use len(inv.Items())", code: "IncompatibleAssign"},
		{file: "reporting.go", line: 17, col: 56, msg: "not enough arguments in call to formatCount", code: "WrongArgCount"},
	})
	if strings.Contains(block, "settings.yaml") || strings.Contains(block, `"report.go"`) {
		t.Errorf("the block names a deleted or moved-away file:\n%s", indent(block))
	}
}

// TestAgentClaudeBashSed: sed edits greet.go through Claude Code's Bash
// tool; the hook finds the file from the command's duration and checks it
// as a write. The first sed breaks main.go's call (another file), the
// second fixes the call but breaks greet.go itself, the third fixes that.
// The first run starts the daemon, whose watcher has not seen the command:
// modification times answer changed_files, and the block says so; the
// later runs are the watcher's, with no note.
func TestAgentClaudeBashSed(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	sed, err := exec.LookPath("sed")
	if err != nil {
		t.Skip("sed not installed")
	}
	w := newWorkspace(t)
	w.ageFiles() // the copy just made is not the command's doing
	bash := func(script string) string {
		t.Helper()
		begin := time.Now()
		cmd := exec.Command(sed, "-i", script, "greet.go")
		cmd.Dir = w.root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sed: %v\n%s", err, out)
		}
		return w.claudeEventWith("bash", "Bash", map[string]any{"command": "sed -i '" + script + "' greet.go", "description": "Change greet"},
			map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false}, time.Since(begin))
	}
	first := w.hook(bash(`s/^func greet(name string) string {$/func greet(name string, loud bool) string {/`))
	checkNote(t, first, "found by modification time and git (the file watcher started after the span began)")
	checkLint(t, withoutNotes(first),
		[]wantDiag{{other: true, file: "main.go", line: 18, col: 28, msg: "not enough arguments in call to greet", code: "WrongArgCount"}})
	checkLint(t, w.hook(bash(`s/^func greet(name string, loud bool) string {$/func greet(name string) string {/; s/TrimSpace(name)/TrimSpace(nam)/`)),
		[]wantDiag{{file: "greet.go", line: 10, col: 52, msg: "undefined: nam", code: "UndeclaredName"}})
	if block := w.hook(bash(`s/TrimSpace(nam)/TrimSpace(name)/`)); block != "" {
		t.Errorf("the fixing sed reported:\n%s", indent(block))
	}
	if logged, _ := w.logSince(0); !strings.Contains(logged, "msg=changed_files") {
		t.Errorf("the daemon answered no changed_files:\n%s", logged)
	}
}

// claudeEventWith builds a PostToolUse event as Claude Code sends it, with
// the tool's response and duration.
func (w *workspace) claudeEventWith(session, tool string, input, response map[string]any, d time.Duration) string {
	w.t.Helper()
	b, err := json.Marshal(map[string]any{
		"session_id": session, "transcript_path": "/home/dev/.claude/projects/-demo/" + session + ".jsonl",
		"cwd": w.root, "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_name": tool,
		"tool_input": input, "tool_response": response, "tool_use_id": "toolu_" + session, "duration_ms": d.Milliseconds(),
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// decodeOnly decodes stdout into v, failing unless it is exactly one JSON
// object with v's fields and nothing else.
func decodeOnly(t *testing.T, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil || dec.More() {
		t.Fatalf("hook printed something other than one answer object (%v):\n%s", err, stdout)
	}
}

// ageFiles sets every file of the workspace (outside .git) an hour back,
// so that only what a test changes later looks recently modified.
func (w *workspace) ageFiles() {
	w.t.Helper()
	past := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			return os.Chtimes(p, past, past)
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}
