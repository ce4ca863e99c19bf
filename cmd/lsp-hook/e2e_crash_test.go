package main_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// TestCrashedGoplsComesBack (issue 12, "A crashed server comes back by
// itself"): gopls killed with SIGKILL between two edits is started again by
// a later edit, without `lsp-hook restart`. The edit right after the crash
// may fall in the back-off (1 s): its block then says gopls crashed and
// when it starts again, and shows nothing stale; the first edit after the
// back-off is answered by a new gopls, which gets the file opened afresh:
// the type error at its right line, no note. Status tells the back-off
// while it runs; the killed gopls leaves no process behind.
func TestCrashedGoplsComesBack(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	warmGopls(t, w)
	old := w.gopls(w.daemonStatus())
	if err := killProcess(old.Pid); err != nil {
		t.Fatal(err)
	}

	// The edit right after the crash.
	block := w.hook(w.edit("s", "report.go", reportBroken(t, 1)))
	t.Logf("edit after the crash:\n%s", indent(block))
	const backoffNote = "lsp-hook: gopls is broken (server process exited: signal: killed); it restarts on the next change after "
	switch {
	case strings.Contains(block, backoffNote):
		if !strings.Contains(block, "no fresh diagnostics from gopls (not running)") || strings.Contains(block, "ERROR [") {
			t.Errorf("the edit in the back-off: the block must say gopls is not running and show nothing stale:\n%s", indent(block))
		}
		s := w.serverNamed("gopls")
		if s.State != "broken" || s.Crashes != 1 || s.RestartAt.IsZero() || !strings.Contains(s.LastError, "it restarts on the next change after") {
			t.Fatalf("status gopls in the back-off = %+v, want broken, 1 crash, when it restarts", s)
		}
		r := w.run("", nil, "status")
		if !strings.Contains(r.stdout, "crashed: gopls (1 crash); the next change after ") {
			t.Errorf("lsp-hook status does not say gopls crashed and restarts:\n%s", r.stdout)
		}
		// Sets up the next edit after the back-off; the answer is judged
		// on its content, not its timing.
		time.Sleep(time.Until(s.RestartAt) + 50*time.Millisecond)
	default:
		// The edit came after the back-off and restarted gopls already.
		checkLint(t, block, []wantDiag{reportTypeError(1)})
	}

	r := w.run(w.edit("s", "report.go", reportBroken(t, 2)), nil, "hook", "claude")
	block = w.checkHook(r)
	t.Logf("edit after the back-off (%v, budget %v):\n%s", r.elapsed.Round(time.Millisecond), wire.DefaultColdBudget, indent(block))
	checkLint(t, block, []wantDiag{reportTypeError(2)})
	if strings.Contains(block, "lsp-hook:") {
		t.Errorf("the edit after the back-off still reports a problem:\n%s", indent(block))
	}
	now := w.gopls(w.daemonStatus())
	if now.Pid == old.Pid || now.Crashes != 0 || now.Documents == 0 {
		t.Errorf("status gopls after the restart = %+v (killed %d), want a new active gopls with report.go open", now, old.Pid)
	}
	if alive(old.Pid) {
		t.Errorf("the killed gopls %d is still there", old.Pid)
	}
	if servers := waitFor(10*time.Second, func() []procInfo {
		var others []procInfo
		for _, p := range goplsServers(w.root) {
			if p.pid != now.Pid {
				others = append(others, p)
			}
		}
		return others
	}); len(servers) > 0 {
		t.Errorf("gopls processes beside the restarted one %d: %+v", now.Pid, servers)
	}
}
