package main_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStopGate plays Claude Code's session events through the real
// binary, daemon and gopls (DESIGN.md "Sessions"): a session writes a type
// error and tries to end its turn — the Stop hook blocks, its reason the
// error go build reports; a second end of the same turn is not blocked
// again (stop_hook_active); once fixed, the turn ends silently. A session
// that starts on an already-broken file and leaves it so ends without a
// block, as does an end of turn for a session the daemon never saw.
func TestStopGate(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	lifecycle, editEvent, decision := w.lifecycle, w.editEvent, stopDecision(t)
	if out := lifecycle("s1", "SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Errorf("SessionStart printed %q, want nothing", out)
	}
	// With no daemon running, the hook started one with serve --prewarm:
	// it starts gopls before any edit, and gopls checks the file the user
	// modified last (Manager.Prewarm), at most one.
	prewarmed := func() bool {
		st, ok := w.status()
		for _, s := range st.Servers {
			if ok && s.Name == "gopls" && (s.State == "starting" || s.State == "active") && s.Documents <= 1 {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(15 * time.Second)
	for !prewarmed() {
		if time.Now().After(deadline) {
			st, _ := w.status()
			t.Fatalf("SessionStart did not prewarm gopls: %+v", st.Servers)
		}
		time.Sleep(100 * time.Millisecond)
	}
	clean := w.readFile("main.go")
	broken := strings.Replace(clean, "func main() {", "func main() {\n\tvar n int = \"seven\"\n\t_ = n", 1)
	if broken == clean {
		t.Fatalf("main.go has no func main() {:\n%s", clean)
	}
	w.hook(editEvent("s1", "main.go", broken))
	truth := goErrors(t, w.root)
	if len(truth) != 1 {
		t.Fatalf("go build reports %v, want the one type error", truth)
	}
	d, reason := decision(lifecycle("s1", "Stop", map[string]any{"stop_hook_active": false}))
	if want := fmt.Sprintf("ERROR [%d:", truth[0].line); d != "block" || !strings.Contains(reason, `<diagnostics file="main.go">`) || !strings.Contains(reason, want) {
		t.Fatalf("Stop after a type error: %s %q; want a block naming main.go line %d as go build does", d, reason, truth[0].line)
	}
	if d, _ := decision(lifecycle("s1", "Stop", map[string]any{"stop_hook_active": true})); d == "block" {
		t.Errorf("the second end of the same turn was blocked again")
	}
	w.hook(editEvent("s1", "main.go", clean))
	if errs := goErrors(t, w.root); len(errs) != 0 {
		t.Fatalf("go build after the fix: %v", errs)
	}
	if out := lifecycle("s1", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		t.Errorf("Stop after the fix printed %q, want nothing", out)
	}
	lifecycle("s1", "SessionEnd", map[string]any{"reason": "exit"})

	// A session that starts on a file broken before it, and leaves it so.
	w.writeFile("loud.go", strings.Replace(w.readFile("loud.go"), "package main", "package main\n\nvar pre int = \"broken before\"", 1))
	if len(goErrors(t, w.root)) != 1 {
		t.Fatalf("go build: want loud.go's one error")
	}
	w.hook(editEvent("s2", "loud.go", w.readFile("loud.go")+"\n// a comment\n"))
	if out := lifecycle("s2", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		t.Errorf("Stop of a session that left an older error as it was: %q, want nothing", out)
	}
	if out := lifecycle("never-seen", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		t.Errorf("Stop of an unknown session: %q, want nothing", out)
	}
}

// TestStopGateRacesAnEdit plays an end of turn that races a write of the
// file it checks: the session leaves a type error in main.go, and while
// its Stop hook runs, main.go is written again (the error kept, a comment
// added) and that Edit's own hook runs — a newer text reaches gopls under
// the gate's check. The gate must still block on the error go build
// reports, in every round, at each delay of the write after the Stop
// event: a check overtaken by a newer text is asked again, never read as
// clean (it was, when a prewarm's re-check re-sent a file under it).
func TestStopGateRacesAnEdit(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	decision := stopDecision(t)
	clean := w.readFile("main.go")
	broken := strings.Replace(clean, "func main() {", "func main() {\n\tvar n int = \"seven\"\n\t_ = n", 1)
	if broken == clean {
		t.Fatalf("main.go has no func main() {:\n%s", clean)
	}
	w.hook(w.editEvent("warm", "main.go", clean+"\n// warm\n")) // the daemon and gopls up
	w.hook(w.editEvent("warm", "main.go", clean))
	const rounds = 18
	for i := range rounds {
		session := fmt.Sprintf("race-%d", i)
		w.hook(w.editEvent(session, "main.go", broken))
		truth := goErrors(t, w.root)
		if len(truth) != 1 {
			t.Fatalf("go build reports %v, want the one type error", truth)
		}
		again := broken + fmt.Sprintf("\n// round %d\n", i)
		edit := w.claudeEventWith(session, "Edit", map[string]any{"file_path": w.path("main.go"), "old_string": "…", "new_string": "…"},
			map[string]any{"filePath": w.path("main.go"), "originalFile": broken, "userModified": false}, 0)
		delay := time.Duration(i%6) * 5 * time.Millisecond
		_, off := w.logSince(0)
		stopped := w.start(w.lifecycleEvent(session, "Stop", map[string]any{"stop_hook_active": false}), nil, "hook", "claude")
		time.Sleep(delay)
		w.writeFile("main.go", again)
		edited := w.start(edit, nil, "hook", "claude")
		stop, err := stopped()
		if err != nil {
			t.Fatal(err)
		}
		if r, err := edited(); err != nil || r.exit != 0 {
			t.Fatalf("the racing Edit's hook: exit %d, %v; stderr:\n%s", r.exit, err, r.stderr)
		}
		if stop.exit != 0 {
			t.Fatalf("Stop hook exited %d; stderr:\n%s", stop.exit, stop.stderr)
		}
		d, reason := decision(stop.stdout)
		if want := fmt.Sprintf("ERROR [%d:", truth[0].line); d != "block" || !strings.Contains(reason, want) {
			log, _ := w.logSince(off)
			t.Errorf("round %d (write %v after the Stop event): %q %q; want a block naming main.go line %d as go build does; the daemon's log:\n%s",
				i, delay, d, reason, truth[0].line, log)
		}
		w.hook(w.editEvent(session, "main.go", clean))
		w.lifecycle(session, "SessionEnd", map[string]any{"reason": "exit"})
	}
	log, _ := w.logSince(0)
	t.Logf("the gate's checks overtaken by the racing write and asked again: %d in %d rounds", strings.Count(log, "stop gate: a file changed"), rounds)
}

// lifecycle runs the hook on Claude Code's session event (SessionStart,
// Stop, SessionEnd) of session, with extra fields, and returns what it
// printed; it fails the test when the hook exits non-zero. Not for other
// goroutines than the test's: use lifecycleEvent and w.run there.
func (w *workspace) lifecycle(session, event string, extra map[string]any) string {
	w.t.Helper()
	r := w.run(w.lifecycleEvent(session, event, extra), nil, "hook", "claude")
	if r.exit != 0 {
		w.t.Fatalf("%s hook exited %d; stderr:\n%s", event, r.exit, r.stderr)
	}
	return r.stdout
}

// lifecycleEvent is Claude Code's session event (hook_event_name event)
// of session, with extra fields, as JSON.
func (w *workspace) lifecycleEvent(session, event string, extra map[string]any) string {
	ev := map[string]any{"session_id": session, "cwd": w.root, "hook_event_name": event,
		"transcript_path": "/home/dev/.claude/projects/-demo/" + session + ".jsonl"}
	maps.Copy(ev, extra)
	return mustJSON(w.t, ev)
}

// editEvent writes text to rel and returns Claude Code's PostToolUse for
// an Edit of it in session, with the text before in
// tool_response.originalFile.
func (w *workspace) editEvent(session, rel, text string) string {
	w.t.Helper()
	before := w.readFile(rel)
	w.writeFile(rel, text)
	return w.claudeEventWith(session, "Edit", map[string]any{"file_path": w.path(rel), "old_string": "…", "new_string": "…"},
		map[string]any{"filePath": w.path(rel), "originalFile": before, "userModified": false}, 0)
}

// stopDecision returns a reader of a Stop hook's output: its decision
// ("block"; "warn" for a systemMessage; "" for no output) and the text
// that goes with it.
func stopDecision(t *testing.T) func(stdout string) (string, string) {
	return func(stdout string) (string, string) {
		t.Helper()
		if stdout == "" {
			return "", ""
		}
		var d struct{ Decision, Reason, SystemMessage string }
		if err := json.Unmarshal([]byte(stdout), &d); err != nil {
			t.Fatalf("Stop answer %q: %v", stdout, err)
		}
		if d.Decision == "" {
			return "warn", d.SystemMessage
		}
		return d.Decision, d.Reason
	}
}

// greetWithSuffix is langs/go's greet/greet.go (callee) with Greet's
// signature changed: its callers break.
func greetWithSuffix(callee string) string {
	return strings.Replace(callee, "Greet(name string)", "Greet(name, suffix string)", 1)
}

// greetSession is a committed copy of langs/go whose session "s" has
// broken Greet's callers through an Edit hook (greetWithSuffix), its
// daemon and gopls running; the daemon logs at debug.
func greetSession(t *testing.T) *workspace {
	t.Helper()
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	commitAll(t, w.root)
	w.hook(w.editEvent("s", "greet/greet.go", greetWithSuffix(w.readFile("greet/greet.go"))))
	return w
}

// callersBroken returns the errors go build reports in the workspace with
// Greet's signature changed (greetWithSuffix); the test fails on none.
func (w *workspace) callersBroken() []compilerErr {
	w.t.Helper()
	truth := goErrors(w.t, w.root)
	if len(truth) == 0 {
		w.t.Fatal("go build reports no error with Greet's signature changed")
	}
	return truth
}

// stopBlocks ends session's turn and requires the Stop hook to block,
// its reason naming the compiler's errors (truth) and no other; after
// says what the session did, for the failure.
func (w *workspace) stopBlocks(session, after string, truth []compilerErr) {
	w.t.Helper()
	d, reason := stopDecision(w.t)(w.lifecycle(session, "Stop", map[string]any{"stop_hook_active": false}))
	if d != "block" {
		log, _ := w.logSince(0)
		w.t.Fatalf("Stop after %s: %q %q; want a block; the daemon's log:\n%s", after, d, reason, indent(log))
	}
	if p := judge(w.t, w.root, reason, truth); p != "" {
		w.t.Errorf("the block's reason: %s\n%s", p, indent(reason))
	}
}

// stopAllows ends session's turn and requires the Stop hook to print
// nothing: the session left no error; after says what it did.
func (w *workspace) stopAllows(session, after string) {
	w.t.Helper()
	if out := w.lifecycle(session, "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		w.t.Errorf("Stop after %s printed %q, want nothing", after, out)
	}
}

// TestStopGateNoStateBefore: a repository with no commit yet (a project
// begun in this session, `git init` only) and an Edit event that carries
// no text before (other agents' events do not; Claude Code's Bash edits
// neither): what the file held before the session is unknown, so the
// gate cannot tell whether its errors are the session's. Before, it left
// such a file out and allowed the turn in silence over the error `go
// build` reports; now it warns with that error, never blocking on it.
func TestStopGateNoStateBefore(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	w.hook(w.edit("s", "main.go", w.readFile("main.go")+"\nvar broken int = \"x\"\n"))
	truth := goErrors(t, w.root)
	if len(truth) == 0 {
		t.Fatal("go build reports no error after the edit")
	}
	d, msg := stopDecision(t)(w.lifecycle("s", "Stop", map[string]any{"stop_hook_active": false}))
	if d != "warn" {
		log, _ := w.logSince(0)
		t.Fatalf("Stop, main.go's state before unknown: %q %q; want a warning naming go build's error; the log:\n%s", d, msg, indent(log))
	}
	if p := judge(t, w.root, msg, truth); p != "" {
		t.Errorf("the warning: %s\n%s", p, indent(msg))
	}
	if !strings.Contains(msg, "lsp-hook: stop gate: what main.go held before the session is unknown") {
		t.Errorf("the warning does not say why:\n%s", indent(msg))
	}
}

// TestStopGateSessionCommits: a session whose events carry no text
// before (Gemini CLI's and Codex's do not, nor does a Bash edit) breaks
// main.go and commits it, as agents do, then ends its turn. The gate's
// baseline for main.go is its text at the commit the session began on,
// not at HEAD, which the session's commit moved: before, the committed
// error was taken for one older than the session and the turn allowed in
// silence over the error `go build` reports.
func TestStopGateSessionCommits(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	commitAll(t, w.root)
	w.lifecycle("s", "SessionStart", map[string]any{"source": "startup"})
	w.hook(w.edit("s", "main.go", w.readFile("main.go")+"\nvar broken int = \"x\"\n"))
	commitAll(t, w.root) // the session's `git commit -am …`
	truth := goErrors(t, w.root)
	if len(truth) == 0 {
		t.Fatal("go build reports no error after the edit")
	}
	w.stopBlocks("s", "committing main.go's type error", truth)
}

// TestStopGateUnchecked: when the gate cannot check — the session's file
// is served by a server that never publishes (testdata/fakelsp: a fault a
// real server does not make on demand) — the end of turn is allowed but
// never in silence: the hook warns, saying which server gave no answer,
// for silence would mean the session left no errors.
func TestStopGateUnchecked(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	w.useFakeServer("never-publishes")
	w.writeFile("a.fake", "before\n")
	w.run(w.editEvent("s", "a.fake", "after\n"), nil, "hook", "claude")
	out := w.lifecycle("s", "Stop", map[string]any{"stop_hook_active": false})
	d, msg := stopDecision(t)(out)
	if d != "warn" || !strings.Contains(msg, "fake") {
		t.Fatalf("Stop when the server never answered: %q %q; want a warning naming the fake server", d, msg)
	}
}

// TestStopGateBrokenCallers: a session changes a callee's signature, and
// only its callers break — the file it touched compiles. The Stop hook
// must block, naming the callers' errors as the compiler reports them
// (DESIGN.md "Sessions": the files the session's changes broke count).
// The session touched no other file: its baseline for the callers is
// what the servers say of them beside the callee's text before the
// session, not what they published last (clangd does not re-check an
// importer when a header's text goes back, and its answer about the
// changed header stood as the baseline: the soak's Stop judge caught the
// turn allowed). Per language, with a fresh daemon and a warm one.
func TestStopGateBrokenCallers(t *testing.T) {
	e2e(t)
	cases := []struct {
		lang, exe, callee, from, to string
		truth                       func(t *testing.T, dir string) []compilerErr
	}{
		{"c", "clangd", "greet.h", "void greet(const char *name);", "void greet(const char *name, int n);",
			func(t *testing.T, dir string) []compilerErr { return cErrors(t, dir, "main.c", "loud.c", "greet.c") }},
		{"go", "gopls", "greet/greet.go", "Greet(name string)", "Greet(name, suffix string)", goErrors},
		{"py", "pyright-langserver", "greet.py", "def greet(name: str) -> str:", "def greet(name: str, suffix: str) -> str:", pyErrors},
		{"ts", "typescript-language-server", "src/greet.ts",
			"export function greet(name: string): string {", "export function greet(name: string, suffix: string): string {", tsErrors},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			requireExe(t, tc.exe)
			w := newWorkspaceOf(t, "langs/"+tc.lang, "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
			commitAll(t, w.root)
			orig := w.readFile(tc.callee)
			for round, session := range []string{"cold", "warm"} {
				_, off := w.logSince(0)
				w.hook(w.editEvent(session, tc.callee, strings.Replace(orig, tc.from, tc.to, 1)))
				truth := tc.truth(t, w.root)
				if len(truth) < 2 {
					t.Fatalf("the compiler reports %v, want the broken callers", truth)
				}
				d, reason := stopDecision(t)(w.lifecycle(session, "Stop", map[string]any{"stop_hook_active": false}))
				if d != "block" {
					log, _ := w.logSince(off)
					t.Errorf("round %d (%s): Stop after breaking the callers: %q %q; want a block; the daemon's log:\n%s", round, session, d, reason, indent(log))
				} else if p := judge(t, w.root, reason, truth); p != "" {
					t.Errorf("round %d (%s): the block's reason: %s\n%s", round, session, p, indent(reason))
				}
				w.hook(w.editEvent(session, tc.callee, orig))
				if out := w.lifecycle(session, "Stop", map[string]any{"stop_hook_active": false}); out != "" {
					t.Errorf("round %d (%s): Stop after the fix printed %q, want nothing", round, session, out)
				}
				w.lifecycle(session, "SessionEnd", map[string]any{"reason": "exit"})
			}
		})
	}
}

// TestStopGateDeletedFile: a session deletes a file with a Bash command
// and its callers break; the Stop hook must block, naming the callers'
// errors as go build reports them — a deleted file is checked as a
// deletion, not left out (the soak's Stop judge caught the turn allowed,
// seed 5331349451578838942, Go #18). Putting the file back ends the turn
// silently.
func TestStopGateDeletedFile(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	commitAll(t, w.root)
	orig := w.readFile("greet/greet.go")
	w.hook(w.editEvent("warm", "main.go", w.readFile("main.go"))) // the daemon and gopls warm, in another session
	time.Sleep(1500 * time.Millisecond)                           // the watcher covers the command's span (its start, with a second's slack)
	bash := func(command string) {
		t.Helper()
		if out, err := exec.Command("sh", "-c", command).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", command, err, out)
		}
		w.hook(w.claudeEventWith("s", "Bash", map[string]any{"command": command},
			map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false}, 10*time.Millisecond))
	}
	bash("rm " + w.path("greet/greet.go"))
	truth := goErrors(t, w.root)
	if len(truth) == 0 {
		t.Fatalf("go build reports no error with greet/greet.go deleted")
	}
	w.stopBlocks("s", "deleting greet/greet.go", truth)
	w.writeFile("greet/greet.go", orig)
	w.hook(w.editEvent("s", "greet/greet.go", orig))
	w.stopAllows("s", "putting it back")
}

// TestStopGateAcrossDaemonRestart: a session breaks its callers, then
// the daemon ends and the session goes on: with an edit of a caller that
// keeps the broken call, or straight to the end of its turn. The daemon
// ends by `lsp-hook stop` (as at its idle timeout, which is shorter than
// a session's, or an upgrade), or is killed with SIGKILL (the kernel's
// OOM killer, a crash) a moment after the hook, once its checkpoint has
// written what it knows. The Stop hook must still block, naming the
// callers' errors as go build reports them: the next daemon reads the
// sessions' record the first left, so the callee's change and its text
// before are not forgotten (the soak's Stop judge caught a turn allowed
// after a restart, TypeScript, seed 7598964929262669485, Stop #22).
// Straight to the end of turn, the Stop hook found no daemon and allowed
// the turn in silence, a false allow (seen while adding the soak's
// mid-session stops): it now starts a daemon when a stopped one left a
// record. A killed daemon left no record at all, so its session's end of
// turn was allowed in silence too (both cases failed before records were
// written as the daemon runs). After the fix (and another end) the turn
// is allowed; in a workspace with no record the Stop hook allows at once
// and starts no daemon.
func TestStopGateAcrossDaemonRestart(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	for _, end := range []string{"lsp-hook stop", "SIGKILL"} {
		for _, next := range []string{"an edit", "the end of turn"} {
			t.Run(end+"/"+next, func(t *testing.T) {
				w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
				commitAll(t, w.root)
				var hooked time.Time
				hook := func(ev string) {
					w.hook(ev)
					hooked = time.Now()
				}
				stop := func() {
					if end == "SIGKILL" {
						w.killDaemonAfter(hooked)
						return
					}
					if r := w.run("", nil, "stop"); r.exit != 0 {
						t.Fatalf("lsp-hook stop: exit %d: %s", r.exit, r.stderr)
					}
				}
				callee := w.readFile("greet/greet.go")
				hook(w.editEvent("s", "greet/greet.go", greetWithSuffix(callee)))
				stop()
				if next == "an edit" {
					hook(w.editEvent("s", "main.go", w.readFile("main.go")+"\n// a comment\n"))
				}
				w.stopBlocks("s", "a daemon's "+end+", then "+next, w.callersBroken())
				hook(w.editEvent("s", "greet/greet.go", callee))
				stop()
				w.stopAllows("s", "the fix and a daemon's "+end)
			})
		}
	}
	other := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	other.stopAllows("s", "no daemon, no record")
	if r := other.run("", nil, "status"); r.exit != 0 || !strings.Contains(strings.ToLower(r.stdout), "no daemon running") {
		t.Errorf("after an end of turn with no record, lsp-hook status: exit %d\n%s; want no daemon running", r.exit, r.stdout)
	}
}
