package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
	"github.com/lsp-hook/lsp-hook/sidecar"
)

// TestPrewarmRacesFirstEdit: a session starts (SessionStart: the daemon
// starts with --prewarm and checks the file the user modified last, in
// the background) and the agent's first edit follows at once, to that
// very file, breaking its callers — so the prewarm's check reads the
// edited text from disk and answers it while the edit's own hook shows
// the server the committed text first (what was wrong before the
// change). The hook must list the callers the edit broke, as the
// compiler reports them: the prewarm's answers about the new text are
// not what was wrong before. The hook comes at once, or once the prewarm
// has opened its documents (status), so that its first answers — a cold
// pull takes a second — are still coming while the hook shows the
// server the text before (make soak seed 7258263686478161465,
// TypeScript #231: an importer's answer pulled by the prewarm was
// taken as its baseline; clangd does not re-check main.c when greet.h's
// buffer goes back, so its answer about the changed text stood as the
// baseline too). Each language and timing, three fresh
// workspaces; 0 failures allowed.
func TestPrewarmRacesFirstEdit(t *testing.T) {
	e2e(t)
	for _, tc := range greetBreaks {
		t.Run(tc.lang, func(t *testing.T) {
			requireExe(t, tc.exe)
			check := memoTruth("langs/"+tc.lang, tc.truth) // each round ends in the same files
			for _, late := range []bool{false, true} {
				for round := range 3 {
					w, block := firstEditRacingPrewarm(t, "langs/"+tc.lang, tc.callee, tc.callee, tc.from, tc.to, tc.server, late)
					judgeCallers(t, w, check, block, fmt.Sprintf("round %d (hook late %v), first Edit racing the prewarm", round, late))
					w.stopAll()
				}
			}
		})
	}
}

// greetBreaks are, per language of testdata/langs, an edit of the callee
// (from replaced by to) that breaks both its callers, main and loud;
// caller is main, server the server's name in status, truth the
// compiler's errors.
var greetBreaks = []struct {
	lang, exe, server, callee, caller, from, to string
	truth                                       func(t *testing.T, dir string) []compilerErr
}{
	{"c", "clangd", "clangd", "greet.h", "main.c", "void greet(const char *name);", "void greet(const char *name, int n);",
		func(t *testing.T, dir string) []compilerErr { return cErrors(t, dir, "main.c", "loud.c", "greet.c") }},
	{"go", "gopls", "gopls", "greet/greet.go", "main.go", "Greet(name string)", "Greet(name, suffix string)", goErrors},
	{"py", "pyright-langserver", "pyright", "greet.py", "main.py", "def greet(name: str) -> str:", "def greet(name: str, suffix: str) -> str:", pyErrors},
	{"ts", "typescript-language-server", "typescript-language-server", "src/greet.ts", "src/main.ts",
		"export function greet(name: string): string {", "export function greet(name: string, suffix: string): string {", tsErrors},
}

// judgeCallers judges block, a hook's answer in w after a greetBreaks
// edit, by the compiler's errors there (check), which must hold at least
// the two broken callers; an untrue answer fails t with what (the round
// and its timing), the block and the daemon's log.
func judgeCallers(t *testing.T, w *workspace, check func(*testing.T, string) []compilerErr, block, what string) {
	t.Helper()
	truth := check(t, w.root)
	if len(truth) < 2 {
		t.Fatalf("the compiler reports %v, want at least the two broken callers", truth)
	}
	if p := judge(t, w.root, block, truth); p != "" {
		log, _ := w.logSince(0)
		t.Errorf("%s: %s\nhook:\n%s\ndaemon log:\n%s", what, p, indent(block), indent(log))
	}
}

// firstEditRacingPrewarm starts a session in a fresh committed copy of
// testdata/<dir> whose file the user modified last is touchedLast
// (SessionStart: the daemon starts with --prewarm, which checks it in the
// background), at once writes callee with from replaced by to, and hooks
// that Edit at once, or once server has opened a document (late). It
// returns the workspace and the hook's block.
func firstEditRacingPrewarm(t *testing.T, dir, touchedLast, callee, from, to, server string, late bool) (*workspace, string) {
	t.Helper()
	w := newWorkspaceOf(t, dir, "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	commitAll(t, w.root)
	if err := testdir.TouchedLast(w.root, touchedLast); err != nil {
		t.Fatal(err)
	}
	orig := w.readFile(callee)
	start := mustJSON(t, map[string]any{"session_id": "s", "cwd": w.root, "hook_event_name": "SessionStart", "source": "startup"})
	if r := w.run(start, nil, "hook", "claude"); r.exit != 0 || strings.TrimSpace(r.stdout) != "" {
		t.Fatalf("SessionStart: exit %d, stdout %q", r.exit, r.stdout)
	}
	ev := w.edit("s", callee, strings.Replace(orig, from, to, 1))
	if late {
		w.waitOpened(server)
	}
	return w, w.hook(ev)
}

// waitOpened polls status until the server named name has a document
// open — the prewarm's check has begun — or the daemon's log says the
// prewarm's check ended without opening one (its read of the file was
// overtaken by the edit's write: errMovedOn).
func (w *workspace) waitOpened(name string) {
	w.t.Helper()
	opened := func() bool {
		st, _ := w.status()
		if slices.ContainsFunc(st.Servers, func(s sidecar.ServerStatus) bool { return s.Name == name && s.Documents > 0 }) {
			return true
		}
		b, _ := os.ReadFile(w.logFile())
		return strings.Contains(string(b), `msg="prewarm checked"`)
	}
	if !pollUntil(20*time.Second, opened) {
		w.t.Fatalf("%s never opened a document, and the prewarm never ended", name)
	}
}

// commitAll commits every file of the git work tree at root, so that a
// changed file's committed text is what was there before the change.
func commitAll(t *testing.T, root string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		if out, err := exec.Command("git", "-C", root, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestLateBashAfterSessionStart: a session starts with no daemon running
// (SessionStart starts one, which prewarms), a Bash command breaks a
// caller, and its hook comes 1.5 s later, so the command's start by the
// event's timing (its 50 ms, with a second's slack) is after the change.
// The daemon records the session's start from SessionStart, and the
// hook's span looks back to it: the error go build reports is listed.
// Three fresh workspaces; 0 failures allowed.
func TestLateBashAfterSessionStart(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	for round := range 3 {
		w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
		commitAll(t, w.root)
		start := mustJSON(t, map[string]any{"session_id": "s", "cwd": w.root, "hook_event_name": "SessionStart", "source": "startup"})
		if r := w.run(start, nil, "hook", "claude"); r.exit != 0 || strings.TrimSpace(r.stdout) != "" {
			t.Fatalf("round %d: SessionStart: exit %d, stdout %q", round, r.exit, r.stdout)
		}
		time.Sleep(300 * time.Millisecond) // the agent's first command, once the daemon runs
		w.writeFile("main.go", strings.Replace(w.readFile("main.go"), `greet.Greet("world")`, `greet.Greet(1)`, 1))
		time.Sleep(1500 * time.Millisecond) // the hook comes late
		block := w.hook(w.bash("s", `sed -i 's/"world"/1/' main.go`))
		truth := goErrors(t, w.root)
		if len(truth) == 0 {
			t.Fatal("go build reports no error, want main.go's")
		}
		if p := judge(t, w.root, block, truth); p != "" {
			t.Errorf("round %d, late Bash hook after SessionStart: %s\nhook:\n%s", round, p, indent(block))
		}
		w.stopAll()
	}
}

// TestChangeOlderThanServer: a change written before its server started
// is hooked once the server has answered something else — the agent's
// hook came late (a Bash edit, a slow hook runner, parallel tool calls
// whose other hook started the daemon), and meanwhile SessionStart's
// prewarm, or a hook of another file, started the server, which read the
// changed file from disk. Everything the server said of the callers then
// already knew the change, so none of it is what was wrong before: the
// hook must list the callers the change broke, as the compiler reports
// them (make test's soak, seed 5339203591661381269, Go #11: the prewarm
// of a session begun after a restart answered the callers' errors before
// the edit's hook came, and that hook answered nothing). The server is
// started by the prewarm of the caller (touched last), or by a hook of an
// Edit of the caller that leaves it as it is. Each language and starter,
// a fresh workspace (every one failed before); 0 failures allowed.
func TestChangeOlderThanServer(t *testing.T) {
	e2e(t)
	for _, tc := range greetBreaks {
		t.Run(tc.lang, func(t *testing.T) {
			requireExe(t, tc.exe)
			check := memoTruth("langs/"+tc.lang, tc.truth)
			for _, starter := range []string{"prewarm", "another hook"} {
				w := newWorkspaceOf(t, "langs/"+tc.lang, "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
				commitAll(t, w.root)
				ev := w.edit("s", tc.callee, strings.Replace(w.readFile(tc.callee), tc.from, tc.to, 1))
				w.startBy(starter, tc.caller)
				judgeCallers(t, w, check, w.hook(ev), starter+" first, then the late hook of the change")
				w.stopAll()
			}
		})
	}
}

// waitPrewarmed waits until the daemon's log says the prewarm's check
// ended.
func (w *workspace) waitPrewarmed() {
	w.t.Helper()
	ended := func() bool {
		b, _ := os.ReadFile(w.logFile())
		return strings.Contains(string(b), `msg="prewarm checked"`)
	}
	if !pollUntil(60*time.Second, ended) {
		w.t.Fatal("the prewarm's check never ended")
	}
}

// TestGoneOlderThanServer is TestChangeOlderThanServer for a deletion:
// the callee deleted before its server gave any answer, and the
// deletion hooked (a Codex patch's Delete File) once the server, started
// by a hook of the caller's unchanged Edit, had loaded a workspace that
// never held it. gopls published the importer that lost its package
// once, at its load, and had no news for the deletion's re-check: the
// re-check's answer left it out, a false clean (with the prewarm as
// starter the answer was true before too). Each language, two fresh
// workspaces; 0 failures allowed.
func TestGoneOlderThanServer(t *testing.T) {
	e2e(t)
	for _, tc := range greetBreaks {
		t.Run(tc.lang, func(t *testing.T) {
			requireExe(t, tc.exe)
			for round := range 2 {
				w := newWorkspaceOf(t, "langs/"+tc.lang, "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
				commitAll(t, w.root)
				if err := os.Remove(w.path(tc.callee)); err != nil {
					t.Fatal(err)
				}
				w.startBy("another hook", tc.caller)
				block := w.checkHook(w.run(w.codexPatch("s", "*** Begin Patch\n*** Delete File: "+tc.callee+"\n*** End Patch\n"), nil, "hook", "codex"))
				truth := tc.truth(t, w.root)
				if len(truth) == 0 {
					t.Fatalf("the compiler reports no error with %s deleted", tc.callee)
				}
				if p := judge(t, w.root, block, truth); p != "" {
					log, _ := w.logSince(0)
					t.Errorf("round %d, the caller's hook first, then the late hook of the deletion: %s\nhook:\n%s\ndaemon log:\n%s", round, p, indent(block), indent(log))
				}
				w.stopAll()
			}
		})
	}
}

// startBy starts the daemon and the server of caller's language in w:
// by SessionStart, whose prewarm checks caller (made the file touched
// last) and is waited for (starter "prewarm"), or by the hook of an Edit
// of caller that leaves it as it is ("another hook").
func (w *workspace) startBy(starter, caller string) {
	w.t.Helper()
	if err := testdir.TouchedLast(w.root, caller); err != nil {
		w.t.Fatal(err)
	}
	if starter != "prewarm" {
		w.hook(w.edit("s", caller, w.readFile(caller)))
		return
	}
	start := mustJSON(w.t, map[string]any{"session_id": "s", "cwd": w.root, "hook_event_name": "SessionStart", "source": "startup"})
	if r := w.run(start, nil, "hook", "claude"); r.exit != 0 || strings.TrimSpace(r.stdout) != "" {
		w.t.Fatalf("SessionStart: exit %d, stdout %q", r.exit, r.stdout)
	}
	w.waitPrewarmed()
}

// TestSavedOnlyChangeOlderThanServer: go.mod's language version lowered
// to go 1.20 before gopls gave any answer, so that a file using the max
// builtin (go1.21) breaks, and the Edit of go.mod hooked as the daemon's
// first check, or after a prewarm or another file's hook started it.
// gopls reads go.mod from disk, not from the text a client sends
// (config.Server.SavedOnlyFiles): it cannot be shown go.mod as it was
// before the change, and all it says of the other files already knows
// the change, so none of it is a baseline of what the change
// introduced. The first timing was a false clean (the soak's
// older-go-configured, seed 5686079508259208714, Go #1: the hook started
// the daemon, and the error gopls published at its load stood as old).
// Judged by go build; each timing, two fresh workspaces; 0 failures
// allowed.
func TestSavedOnlyChangeOlderThanServer(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	check := memoTruth("langs/go+clamp", goErrors) // each round ends in the same files
	for _, starter := range []string{"the change's hook", "prewarm", "another hook"} {
		t.Run(strings.ReplaceAll(starter, " ", "-"), func(t *testing.T) {
			for round := range 2 {
				w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
				w.writeFile("clamp.go", "package main\n\n// clamp returns n, at least 0.\nfunc clamp(n int) int {\n\treturn max(n, 0)\n}\n")
				commitAll(t, w.root)
				mod := w.readFile("go.mod")
				if !strings.Contains(mod, "\ngo 1.22\n") {
					t.Fatalf("testdata/langs/go/go.mod has no go 1.22 line:\n%s", mod)
				}
				ev := w.edit("s", "go.mod", strings.Replace(mod, "\ngo 1.22\n", "\ngo 1.20\n", 1))
				if starter != "the change's hook" {
					w.startBy(starter, "main.go")
				}
				block := w.hook(ev)
				truth := check(t, w.root)
				if len(truth) == 0 {
					t.Fatal("go build reports no error at go 1.20, want clamp.go's max")
				}
				if p := judge(t, w.root, block, truth); p != "" {
					log, _ := w.logSince(0)
					t.Errorf("round %d, %s started the daemon: %s\nhook:\n%s\ndaemon log:\n%s", round, starter, p, indent(block), indent(log))
				}
				w.stopAll()
			}
		})
	}
}
