package main_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

// useFakeServer configures testdata/fakelsp in mode as the workspace's
// server for .fake files, through .lsp-hook.yaml as a user would.
func (w *workspace) useFakeServer(mode string) {
	w.t.Helper()
	w.writeFile(".lsp-hook.yaml", fmt.Sprintf(`lsp:
  first_touch_timeout: 3s
  servers:
    fake:
      command: [%q, -mode=%s]
      extensions: [.fake]
`, fakeLSP, mode))
	if r := w.run("", nil, "trust"); r.exit != 0 {
		w.t.Fatalf("lsp-hook trust exited %d: %s", r.exit, r.stderr)
	}
}

// fakeServer returns the fake server's status line, failing the test
// unless there is one.
func (w *workspace) fakeServer() sidecar.ServerStatus {
	w.t.Helper()
	st, ok := w.status()
	if !ok {
		w.t.Fatal("no daemon")
	}
	for _, s := range st.Servers {
		if s.Name == "fake" {
			return s
		}
	}
	w.t.Fatalf("no fake server in status: %+v", st.Servers)
	return sidecar.ServerStatus{}
}

// TestRestartCommand: a language server that dies is shown broken, with
// its last stderr lines, by `lsp-hook status`; hooks answer without it
// during its back-off, saying so (one that comes later, on a loaded
// machine, finds it started again by itself); `lsp-hook restart fake`
// stops it and the next hook starts a new one. Killing the daemon with
// SIGKILL takes the server with it.
func TestRestartCommand(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	w.useFakeServer("normal")
	if block := w.hook(w.edit("s", "a.fake", "ERROR(F1): one\n")); !strings.Contains(block, "ERROR [1:1] one (F1)") {
		t.Fatalf("first hook:\n%s", block)
	}
	first := w.fakeServer()
	if first.State != "active" || first.Pid == 0 {
		t.Fatalf("status = %+v", first)
	}
	if err := killProcess(first.Pid); err != nil {
		t.Fatal(err)
	}
	if !pollUntil(5*time.Second, func() bool { return w.fakeServer().State == "broken" }) {
		t.Fatalf("status after SIGKILL = %+v, want broken", w.fakeServer())
	}
	r := w.run("", nil, "status")
	if !strings.Contains(r.stdout, "fake stderr (last") || !strings.Contains(r.stdout, "fakelsp: started in mode normal") {
		t.Errorf("status does not show the broken server's stderr:\n%s", r.stdout)
	}

	r = w.run(w.edit("s", "a.fake", "ERROR(F2): two\n"), nil, "hook", "claude")
	block := w.checkHook(r)
	was := "(was broken"
	if strings.Contains(block, "ERROR [1:1] two (F2)") && !strings.Contains(block, "lsp-hook:") {
		t.Logf("the hook came after fake's back-off, which started it again")
		was = "(was active"
	} else if !strings.Contains(block, "no fresh diagnostics from fake (not running)") || strings.Contains(block, "ERROR [") {
		t.Errorf("hook with a broken server:\n%s", block)
	}
	if r.elapsed > wire.DefaultBudget {
		t.Errorf("hook with a broken server took %v, more than the %v budget", r.elapsed, wire.DefaultBudget)
	}

	if r := w.run("", nil, "restart", "nope"); r.exit != 2 || !strings.Contains(r.stderr, "no such language server") {
		t.Errorf("restart nope: exit %d, stderr %q", r.exit, r.stderr)
	}
	r = w.run("", nil, "restart", "fake")
	if r.exit != 0 || !strings.Contains(r.stdout, "restarted fake for "+w.root+" "+was) {
		t.Errorf("restart fake: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
	if block := w.hook(w.edit("s", "a.fake", "ERROR(F3): three\n")); !strings.Contains(block, "ERROR [1:1] three (F3)") {
		t.Errorf("hook after restart:\n%s", block)
	}
	second := w.fakeServer()
	if second.State != "active" || second.Pid == first.Pid {
		t.Errorf("status after restart = %+v (first pid %d)", second, first.Pid)
	}

	st, ok := w.status()
	if !ok {
		t.Fatal("no daemon after the hook that restarted fake")
	}
	if err := killProcess(st.Pid); err != nil {
		t.Fatal(err)
	}
	if !pollUntil(5*time.Second, func() bool { return !alive(second.Pid) }) {
		killProcess(second.Pid)
		t.Errorf("fake server %d outlived its daemon's SIGKILL by 5s", second.Pid)
	}
}

// TestRestartWithoutDaemon: restart with nothing running says so and
// succeeds.
func TestRestartWithoutDaemon(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	r := w.run("", nil, "restart")
	if r.exit != 0 || !strings.Contains(r.stdout, "no daemon running") {
		t.Errorf("restart: exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}
}
