//go:build unix

package main_test

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
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
	ds := w.daemons()
	if len(ds) != 1 {
		t.Fatalf("%d daemons run in %s after a hook, want 1", len(ds), w.root)
	}
	if err := syscall.Kill(ds[0].pid, syscall.SIGQUIT); err != nil {
		t.Fatalf("SIGQUIT to the daemon (pid %d): %v", ds[0].pid, err)
	}
	if !pollUntil(10*time.Second, func() bool { return len(w.daemons()) == 0 }) {
		t.Fatalf("the daemon (pid %d) survived SIGQUIT", ds[0].pid)
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
