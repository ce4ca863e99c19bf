package main_test

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestStopGateParallelSessions: two agent sessions work in one checkout
// at once (two agents, or one agent's parallel sessions). Session "a"
// breaks Greet's callers — with an Edit, or by deleting greet/greet.go
// with a shell command —; session "b" runs a shell command that changes
// nothing, and its Bash hook's span takes in a's change: after a's hook
// has answered (and, for the Edit, a's own shell hook after it), or
// while a's check still runs (gopls frozen with SIGSTOP, b's hook sent
// once the daemon logs a's check as begun). b made none of the errors go
// build reports: its Bash hook must say nothing and its end of turn be
// allowed; a's end of turn must block, naming them. So must a third
// session's be allowed, c, which commented main.go, one of the callers
// a broke, before a did. Before, b's Bash hook reported a's errors as
// its command's, and b's Stop gate blocked on them: b was told to fix
// files it never touched, mid-way through a's work; after a's deletion,
// b's and c's ends of turn warned that they may have deleted the file.
func TestStopGateParallelSessions(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	for _, how := range []string{"after a's check", "during a's check", "a's shell command deletes"} {
		t.Run(how, func(t *testing.T) {
			w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
			commitAll(t, w.root)
			w.hook(w.editEvent("warm", "main.go", w.readFile("main.go"))) // the daemon and gopls warm, in a session of their own
			time.Sleep(1500 * time.Millisecond)                           // the copy's writes before b's span, with its second of slack
			w.lifecycle("b", "SessionStart", map[string]any{"source": "startup"})
			w.hook(w.editEvent("c", "main.go", w.readFile("main.go")+"\n// c was here\n"))
			broken := greetWithSuffix(w.readFile("greet/greet.go"))
			switch how {
			case "during a's check":
				ps := goplsServers(w.root)
				if len(ps) != 1 {
					t.Fatalf("%d gopls run in %s, want 1", len(ps), w.root)
				}
				sigstop(t, ps[0].pid)
				_, offset := w.logSince(0)
				aDone := w.startLate(w.editEvent("a", "greet/greet.go", broken), 0)
				w.awaitCheckBegun(offset, "a")
				bashed := w.hook(w.bash("b", "ls"))
				if err := sigcont(ps[0].pid); err != nil {
					t.Fatal(err)
				}
				if bashed != "" {
					log, _ := w.logSince(0)
					t.Errorf("b's Bash hook, a's check running, answered for a's change:\n%s\nthe daemon's log:\n%s", indent(bashed), indent(log))
				}
				if r, err := aDone(); err != nil || r.exit != 0 || !strings.Contains(r.stdout, "WrongArgCount") {
					t.Errorf("a's Edit hook: %v, exit %d, %q; want the callers' errors", err, r.exit, r.stdout)
				}
			case "after a's check":
				w.hook(w.editEvent("a", "greet/greet.go", broken))
				w.hook(w.bash("a", "go vet ./...")) // a's own shell hook: its span starts after the edit's
				if bashed := w.hook(w.bash("b", "ls")); bashed != "" {
					t.Errorf("b's Bash hook, after a's hook, answered for a's change:\n%s", indent(bashed))
				}
			default:
				if err := os.Remove(w.path("greet/greet.go")); err != nil {
					t.Fatal(err)
				}
				w.hook(w.bash("a", "rm greet/greet.go"))
				if bashed := w.hook(w.bash("b", "ls")); bashed != "" {
					t.Errorf("b's Bash hook, after a's deleting one, answered for a's deletion:\n%s", indent(bashed))
				}
			}
			truth := goErrors(t, w.root)
			if len(truth) == 0 {
				t.Fatal("go build reports no error after session a's change")
			}
			w.stopAllows("b", "a shell command that changed nothing, while session a broke Greet's callers")
			w.stopAllows("c", "a comment in main.go, a caller of Greet, before session a broke it")
			w.stopBlocks("a", "breaking Greet's callers", truth)
		})
	}
}

// TestStopGateSharedFile: two sessions change one file. Session b adds a
// comment to greet/greet.go; then session a changes Greet's signature
// there, breaking its callers; then b adds another comment. The texts
// before are each session's at its first touch, so a's change counted as
// b's: b's end of turn was blocked on the callers' errors a made. Now
// the gate knows which change made them (a's hook saw them appear), and
// a's end of turn blocks, naming them as go build does, while b's is
// allowed — also after a's session ended, and after the daemon restarts
// (the sessions' record keeps the touches and who made what). Errors
// whose making no hook saw are shown with a note naming the other
// session, never blocked on (Engine.Introduced).
func TestStopGateSharedFile(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	commitAll(t, w.root)
	const callee = "greet/greet.go"
	w.hook(w.editEvent("b", callee, w.readFile(callee)+"\n// b was here\n"))
	w.hook(w.editEvent("a", callee, greetWithSuffix(w.readFile(callee))))
	w.hook(w.editEvent("b", callee, w.readFile(callee)+"// and again\n"))
	truth := w.callersBroken()
	w.stopBlocks("a", "breaking Greet's callers, b's comment after", truth)
	w.stopAllows("b", "two comments, a's change between")
	w.lifecycle("a", "SessionEnd", map[string]any{"reason": "exit"})
	w.stopAllows("b", "two comments, a's change between, a's session ended")
	if r := w.run("", nil, "stop"); r.exit != 0 {
		t.Fatalf("lsp-hook stop: exit %d: %s", r.exit, r.stderr)
	}
	w.stopAllows("b", "two comments, a's change between, the daemon restarted")
}
