//go:build unix

package main_test

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// TestDaemonCrashReportInLog: a daemon a hook started has its stderr on
// the null device, so when it crashed (the nil map a deletion's re-check
// wrote into, seed 7296602948696765552, was found only by redirecting it
// by hand) the log said nothing of why. The runtime's report of a fatal
// error now goes to the log as well (wire.CrashToLog). SIGQUIT makes the
// real daemon, started by a real hook, die as a crash does, with the
// runtime's report: the log must hold it, every goroutine's stack
// included, and the next hook must still answer.
func TestDaemonCrashReportInLog(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	ev := w.write("s", "bad.json", "{\"a\": 1,,}\n")
	if out := w.hook(ev); !strings.Contains(out, "bad.json") {
		t.Fatalf("the hook on a broken JSON file did not report it:\n%s", out)
	}
	d := w.daemon()
	if err := syscall.Kill(d.pid, syscall.SIGQUIT); err != nil {
		t.Fatalf("SIGQUIT to the daemon (pid %d): %v", d.pid, err)
	}
	if !pollUntil(10*time.Second, func() bool { return len(w.daemons()) == 0 }) {
		t.Fatalf("the daemon (pid %d) survived SIGQUIT", d.pid)
	}
	data, err := os.ReadFile(w.logFile())
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, want := range []string{"SIGQUIT: quit", "goroutine ", "sidecar.(*Server).Serve"} {
		if !strings.Contains(log, want) {
			t.Errorf("the daemon's log has no %q after it died of SIGQUIT; its end:\n%s", want, tail(log, 40))
		}
	}
	if out := w.hook(ev); !strings.Contains(out, "bad.json") {
		t.Errorf("the hook after the daemon's crash did not report the broken file:\n%s", out)
	}
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// TestStopGateDaemonNotAnswering: a session breaks its callers, then its
// daemon stops answering as the end of turn comes — frozen here with
// SIGSTOP, as a daemon swapped out, stuck or in the middle of dying is
// (the soak's kills found one whose socket accepted the Stop hook and
// closed: "connection is closed" in hello, C Stop #9 of seed 1357924680
// under a schedule of many kills). The Stop hook took any failure but "no
// daemon" for no session and allowed the turn in silence, a false allow
// over the errors go build reports. It now tries to start a daemon from
// the record the frozen one keeps as it runs, and, when that cannot be
// had either (the frozen daemon holds the socket's lock), warns that the
// turn was not checked. Once the daemon answers again the turn blocks.
func TestStopGateDaemonNotAnswering(t *testing.T) {
	w := greetSession(t)
	truth := w.callersBroken()
	record := wire.SessionsPath(w.socket())
	if !pollUntil(10*time.Second, func() bool { return fileExists(record) }) {
		t.Fatalf("the running daemon wrote no sessions' record at %s", record)
	}
	daemon := w.daemon()
	sigstop(t, daemon.pid)
	d, msg := stopDecision(t)(w.lifecycle("s", "Stop", map[string]any{"stop_hook_active": false}))
	if d != "warn" || !strings.Contains(msg, "this end of turn was not checked") {
		log, _ := w.logSince(0)
		t.Errorf("Stop with the daemon frozen: %q %q; want a warning that the turn was not checked; the log:\n%s", d, msg, indent(log))
	}
	if err := sigcont(daemon.pid); err != nil {
		t.Fatal(err)
	}
	w.stopBlocks("s", "the daemon answering again", truth)
}

// TestStopGateDaemonKilledMidCheck: a session's edit breaks Greet's
// callers, and its daemon is killed while the edit is being checked (the
// OOM killer amid a slow server's work; here gopls is frozen with
// SIGSTOP, so the check waits, and the daemon is killed 50 ms after the
// request came in). The hook answers that the daemon was lost. The
// session's end of turn must still be gated on greet.go: the daemon
// wrote its record at the session's first touch of the file, not
// checkpointEvery later (before that, the record never named greet.go,
// and the turn was allowed in silence over go build's errors, in 2 of 4
// runs: the write the hook's hello set off raced the edit's first touch).
func TestStopGateDaemonKilledMidCheck(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	commitAll(t, w.root)
	w.hook(w.editEvent("warm", "main.go", w.readFile("main.go"))) // the daemon and gopls warm, in another session
	ps := goplsServers(w.root)
	if len(ps) != 1 {
		t.Fatalf("%d gopls run in %s, want 1", len(ps), w.root)
	}
	d := w.daemon()
	sigstop(t, ps[0].pid)
	time.Sleep(time.Second) // the warm-up's checkpoints written: none is due when the edit comes
	_, offset := w.logSince(0)
	callee := w.readFile("greet/greet.go")
	wait := w.startLate(w.editEvent("s", "greet/greet.go", greetWithSuffix(callee)), 0)
	w.awaitCheckBegun(offset, "s")
	time.Sleep(50 * time.Millisecond)
	w.killAll(d.pid, ps[0].pid) // gopls too: frozen, it would not see its stdin close
	if r, err := wait(); err != nil || r.exit != 0 || !strings.Contains(r.stdout, "unknown, not absent") {
		t.Errorf("the hook whose daemon was killed mid-check: %v, exit %d, %q; want exit 0 and a note that it could not check", err, r.exit, r.stdout)
	}
	w.stopBlocks("s", "an edit whose daemon was killed mid-check", w.callersBroken())
}
