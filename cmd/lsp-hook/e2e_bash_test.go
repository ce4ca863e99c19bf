package main_test

// End-to-end tests of the span a shell tool's hook checks (issue 12,
// defect 4): the files a command changed are what the daemon's watcher
// recorded since the session's previous hook, whenever the hook arrives;
// where the watcher cannot vouch for that span, modification times answer
// and the block says so.

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// lateHook is how long after its command a shell hook arrives in these
// tests: past the 1 s of slack the command's own duration_ms gets, as when
// another PostToolUse hook (a formatter) runs first.
const lateHook = 1500 * time.Millisecond

// TestAgentClaudeBashLateHook: session S's Edit hook, then 20 times a
// `sed -i` that breaks greet.go anew and a Bash hook arriving 1.5 s after
// the command with duration_ms of the sed alone. Every answer must show
// the error this sed made (a stale or missing one fails). The first has
// S's Edit hook as its previous one, which vouches for greet.go alone,
// and no SessionStart before it, so its span reaches back a minute,
// before the watcher started, and its note says the files were found by
// modification time; after it, the watcher, running since S's first hook,
// covers the span since S's previous shell hook: no note.
func TestAgentClaudeBashLateHook(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	w.ageFiles()
	const session = "late"
	if block := w.hook(w.edit(session, "greet.go", w.readFile("greet.go"))); block != "" {
		t.Fatalf("the unchanged greet.go reported:\n%s", indent(block))
	}
	for i := range 20 {
		ident := fmt.Sprintf("nam%d", i)
		ev := w.bashLate(session, "greet.go", `s/TrimSpace([a-z0-9]*)/TrimSpace(`+ident+`)/`, true)
		block := w.hook(ev)
		if i == 0 {
			checkNote(t, block, "found by modification time")
		}
		checkSedError(t, i, block, ident, i > 0)
	}
}

// checkSedError fails t unless block of run i lists the error a sed made
// in greet.go by naming ident, and, when covered, has no note (the
// watcher covered the span).
func checkSedError(t *testing.T, i int, block, ident string, covered bool) {
	t.Helper()
	if notes := hookNotes(block); covered && len(notes) > 0 {
		t.Errorf("run %d: notes where the watcher covered the span:\n%s", i, indent(strings.Join(notes, "\n")))
	}
	checkLint(t, withoutNotes(block), []wantDiag{{file: "greet.go", line: 10, col: 52, msg: "undefined: " + ident, code: "UndeclaredName"}})
}

// TestAgentClaudeBashLateHookReplacedDaemon: a shell command writes
// lsp-hook's config and breaks greet.go (`sed -i`), and its Bash hook
// arrives 2.5 s later, with duration_ms of the command alone: the hook
// replaces the daemon for the config, and the new daemon's watcher
// started after the command. Its answer must show the sed's error, 4
// times over (each writing the config anew). The new daemon knew no
// previous hook of the session, and looked back from the command's start
// by duration_ms, 1 s of slack and the 1 s of modification times',
// past which the command had run: a false clean (make soak, seed
// 6079122614619537867, C #207). Now the daemon that stops leaves its
// hook marks to the next, and a hook with no previous one looks back a
// minute at least.
func TestAgentClaudeBashLateHookReplacedDaemon(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	w.ageFiles()
	const session = "replaced"
	checkSedError(t, 0, w.hook(w.bashLate(session, "greet.go", `s/TrimSpace([a-z0-9]*)/TrimSpace(nam0)/`, true)), "nam0", false)
	for i := 1; i <= 4; i++ {
		ident := fmt.Sprintf("nam%d", i)
		config := func() {
			w.writeFile(".lsp-hook.yaml", fmt.Sprintf("# written by a shell command, %d\n", i))
		}
		block := w.hook(w.bashAfter(session, "greet.go", `s/TrimSpace([a-z0-9]*)/TrimSpace(`+ident+`)/`, true, config, 2500*time.Millisecond))
		checkSedError(t, i, block, ident, false)
	}
}

// TestAgentClaudeBashWatcherGap: spans the daemon's watcher cannot vouch
// for. Session S's first hook is an Edit of config.json, a file no server
// checks, so the watcher starts only after that hook was answered; S's
// late Bash hook then finds the sed's file by modification time, shows its
// error and says how it was found. A session's first hook without
// duration_ms looks back a bounded default window and says so. A file the
// command created and deleted is never listed.
func TestAgentClaudeBashWatcherGap(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	w.ageFiles()
	badJSON := func(col int) []wantDiag {
		return []wantDiag{{file: "config.json", line: 10, col: col, msg: "invalid literal"}}
	}
	t.Run("watcher started after the span began", func(t *testing.T) {
		defer w.use(t)()
		if block := w.hook(w.edit("gap", "config.json", w.readFile("config.json"))); block != "" {
			t.Fatalf("the unchanged config.json reported:\n%s", indent(block))
		}
		block := w.hook(w.bashLate("gap", "config.json", `s/"debug": false/"debug": fals/`, true))
		checkNote(t, block, "found by modification time")
		checkLint(t, withoutNotes(block), badJSON(16))
		if strings.Contains(block, "gone.json") {
			t.Errorf("the block names a file the command deleted:\n%s", indent(block))
		}
	})
	t.Run("first hook without duration", func(t *testing.T) {
		defer w.use(t)()
		block := w.hook(w.bashLate("fresh", "config.json", `s/"debug": fals/"debug": fal/`, false))
		checkNote(t, block, "no earlier hook")
		checkLint(t, withoutNotes(block), badJSON(15))
	})
}

// TestAgentClaudeBashHookAfterEdit: a Bash command's hook comes after
// the hook of an Edit made after the command (parallel tool calls, a
// slow hook runner): 10 times, a `sed -i` breaks greet.go anew, an Edit
// of config.json is hooked, and the sed's Bash hook arrives 1.5 s after
// the command, with and without duration_ms. The Edit's hook vouches for
// config.json alone, so every Bash hook must show the error its sed made
// (before 46eb6a8 its span started at the Edit's hook: no file, no block,
// a false clean), and not config.json, which the Edit's hook checked.
// The session began with SessionStart, before its prewarm started the
// watcher: the first Bash hook, whose span reaches back to the session's
// start, says its files were found by modification time; the others,
// each starting at the previous Bash hook, have no note.
func TestAgentClaudeBashHookAfterEdit(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	w.ageFiles()
	const session = "after-edit"
	start := mustJSON(t, map[string]any{"session_id": session, "cwd": w.root, "hook_event_name": "SessionStart", "source": "startup"})
	if r := w.run(start, nil, "hook", "claude"); r.exit != 0 || strings.TrimSpace(r.stdout) != "" {
		t.Fatalf("SessionStart: exit %d, stdout %q", r.exit, r.stdout)
	}
	w.waitPrewarmed()
	config := w.readFile("config.json")
	for i := range 10 {
		ident := fmt.Sprintf("nam%d", i)
		withDuration := i%2 == 0
		ev := w.bashThen(session, "greet.go", `s/TrimSpace([a-z0-9]*)/TrimSpace(`+ident+`)/`, withDuration, func() {
			if block := w.hook(w.edit(session, "config.json", config)); block != "" {
				t.Errorf("run %d: the unchanged config.json reported:\n%s", i, indent(block))
			}
		})
		block := w.hook(ev)
		t.Logf("run %d (duration_ms given: %v):\n%s", i, withDuration, indent(block))
		if i == 0 {
			checkNote(t, block, "found by modification time")
		}
		checkSedError(t, i, block, ident, i > 0)
	}
}

// bashLate runs `sed -i script rel` in the workspace, as Claude Code's
// Bash tool would (also creating and deleting gone.json), waits lateHook,
// and returns the Bash PostToolUse event of session, with the command's
// duration_ms when withDuration.
func (w *workspace) bashLate(session, rel, script string, withDuration bool) string {
	w.t.Helper()
	return w.bashThen(session, rel, script, withDuration, nil)
}

// bashThen is bashLate that runs between (when not nil) right after the
// command, before the wait.
func (w *workspace) bashThen(session, rel, script string, withDuration bool, between func()) string {
	w.t.Helper()
	return w.bashAfter(session, rel, script, withDuration, between, lateHook)
}

// bashAfter is bashThen with the hook arriving late after the command.
func (w *workspace) bashAfter(session, rel, script string, withDuration bool, between func(), late time.Duration) string {
	w.t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		w.t.Skip("sh not installed")
	}
	command := fmt.Sprintf(`sed -i '%s' %s && echo '{' > gone.json && rm gone.json`, script, rel)
	begin := time.Now()
	cmd := exec.Command(sh, "-c", command)
	cmd.Dir = w.root
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("%s: %v\n%s", command, err, out)
	}
	d := time.Since(begin)
	if between != nil {
		between()
	}
	time.Sleep(late) // sets up the race: the hook arrives late
	input := map[string]any{"command": command, "description": "Edit " + rel}
	response := map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false}
	if withDuration {
		return w.claudeEventWith(session, "Bash", input, response, d)
	}
	return w.claudeEventWithout(session, "Bash", input, response)
}

// claudeEventWithout is claudeEventWith without duration_ms, as older
// Claude Code versions send it.
func (w *workspace) claudeEventWithout(session, tool string, input, response map[string]any) string {
	w.t.Helper()
	ev := w.claudeEventWith(session, tool, input, response, 0)
	return strings.Replace(ev, `"duration_ms":0,`, "", 1)
}

// hookNotes returns the block's `lsp-hook:` note lines.
func hookNotes(block string) []string {
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if strings.HasPrefix(l, "lsp-hook: ") {
			out = append(out, l)
		}
	}
	return out
}

// withoutNotes returns the block without its `lsp-hook:` note lines.
func withoutNotes(block string) string {
	var keep []string
	for _, l := range strings.Split(block, "\n") {
		if l != "" && !strings.HasPrefix(l, "lsp-hook: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// checkNote fails t unless one of block's notes contains want.
func checkNote(t *testing.T, block, want string) {
	t.Helper()
	for _, n := range hookNotes(block) {
		if strings.Contains(n, want) {
			return
		}
	}
	t.Errorf("no lsp-hook: note with %q in:\n%s", want, indent(block))
}

// TestAgentShellTools: the shell tool `install` now wires for every agent
// (Gemini's run_shell_command, Codex's Bash, Copilot's bash, OpenCode's
// bash) checks the files a command changed, found through the daemon's
// watcher: each agent's session edits greet.go with its file tool, then a
// `sed -i` breaks it and that agent's shell event, arriving 1.5 s late,
// reports the error this sed made.
func TestAgentShellTools(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("sh not installed")
	}
	w := newWorkspace(t)
	w.ageFiles()
	for i, a := range []struct{ agent, edit, shell string }{
		{"gemini",
			`{"session_id":"sh-g","cwd":"{{ROOT}}","hook_event_name":"AfterTool","tool_name":"replace","tool_input":{"file_path":"{{ROOT}}/greet.go","old_string":"a","new_string":"a"},"tool_response":{"llmContent":"ok"}}`,
			`{"session_id":"sh-g","cwd":"{{ROOT}}","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"CMD"},"tool_response":{"llmContent":"ok"}}`},
		{"codex",
			`{"session_id":"sh-c","turn_id":"t1","transcript_path":null,"cwd":"{{ROOT}}","hook_event_name":"PostToolUse","model":"gpt-5-codex","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: greet.go\n@@\n-a\n+a\n*** End Patch\n"},"tool_response":"Success.","tool_use_id":"u1"}`,
			`{"session_id":"sh-c","turn_id":"t1","transcript_path":null,"cwd":"{{ROOT}}","hook_event_name":"PostToolUse","model":"gpt-5-codex","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"CMD"},"tool_response":"","tool_use_id":"u2"}`},
		{"copilot",
			`{"sessionId":"sh-p","timestamp":1767521730123,"cwd":"{{ROOT}}","toolName":"edit","toolArgs":"{\"path\":\"greet.go\",\"old_str\":\"a\",\"new_str\":\"a\"}","toolResult":{"resultType":"success","textResultForLlm":"ok"}}`,
			`{"sessionId":"sh-p","timestamp":1767521740123,"cwd":"{{ROOT}}","toolName":"bash","toolArgs":"{\"command\":\"CMD\"}","toolResult":{"resultType":"success","textResultForLlm":""}}`},
		{"opencode",
			`{"hook_event_name":"tool.execute.after","session_id":"sh-o","call_id":"c1","tool":"edit","args":{"filePath":"{{ROOT}}/greet.go","oldString":"a","newString":"a"},"cwd":"{{ROOT}}","output":"Edit applied successfully."}`,
			`{"hook_event_name":"tool.execute.after","session_id":"sh-o","call_id":"c2","tool":"bash","args":{"command":"CMD"},"cwd":"{{ROOT}}","output":""}`},
	} {
		t.Run(a.agent, func(t *testing.T) {
			defer w.use(t)()
			defer w.restore([]string{"greet.go"})
			if r := w.run(w.fill(a.edit), nil, "hook", a.agent); r.exit != 0 || r.stdout != "" {
				t.Fatalf("edit of the unchanged greet.go: exit %d, %q", r.exit, r.stdout)
			}
			ident := fmt.Sprintf("sh%d", i)
			command := `sed -i 's/TrimSpace([a-z0-9]*)/TrimSpace(` + ident + `)/' greet.go`
			cmd := exec.Command(sh, "-c", command)
			cmd.Dir = w.root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", command, err, out)
			}
			time.Sleep(lateHook) // sets up the race: the hook arrives late
			r := w.run(w.fill(strings.Replace(a.shell, "CMD", command, 1)), nil, "hook", a.agent)
			if r.exit != 0 || !strings.Contains(r.stdout, "undefined: "+ident) {
				t.Errorf("%s shell event: exit %d, answer %q; want the error the sed made (undefined: %s)", a.agent, r.exit, r.stdout, ident)
			}
		})
	}
}
