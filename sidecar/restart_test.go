//go:build unix

package sidecar

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestRestartMethod: over the socket, a killed server shows as broken with
// its last stderr lines in status; notify_change answers without it
// during its back-off (here longer than the test); restart clears it and
// the next notify_change starts a new one.
func TestRestartMethod(t *testing.T) {
	e := fakeEngine(t, "normal")
	e.Manager.Crash.Backoff, e.Manager.Crash.MaxBackoff = time.Hour, time.Hour
	testdaemon.WriteFile(t, e.Root, "a.fake", "ERROR: one\n")
	socket := serve(t, e)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	notify := func() wire.Result {
		t.Helper()
		var res wire.Result
		if err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: "a.fake"}}}, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	status := func() ServerStatus {
		t.Helper()
		var st StatusResult
		if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
			t.Fatal(err)
		}
		for _, s := range st.Servers {
			if s.Name == "fake" {
				return s
			}
		}
		return ServerStatus{}
	}
	if res := notify(); len(res.Servers) != 1 || res.Servers[0].Freshness != "fresh" {
		t.Fatalf("first notify: %+v", res.Servers)
	}
	pid := status().Pid
	syscall.Kill(pid, syscall.SIGKILL)
	var st ServerStatus
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if st = status(); st.State == lsp.StateBroken {
			break
		}
	}
	if st.State != lsp.StateBroken || !strings.Contains(strings.Join(st.Stderr, "\n"), "started in mode normal") {
		t.Fatalf("status after SIGKILL = %+v, want broken with stderr lines", st)
	}
	if res := notify(); res.Servers[0].State != lsp.StateBroken || !strings.Contains(res.Lint, "no fresh diagnostics from fake") {
		t.Errorf("notify with a broken server: %+v\n%s", res.Servers, res.Lint)
	}

	var rr RestartResult
	if err := c.Call(ctx, wire.MethodRestart, wire.RestartParams{Server: "nope"}, &rr); err == nil || !strings.Contains(err.Error(), "no such language server") {
		t.Errorf("restart nope: %v", err)
	}
	if err := c.Call(ctx, wire.MethodRestart, wire.RestartParams{}, &rr); err != nil {
		t.Fatal(err)
	}
	if len(rr.Restarted) != 1 || rr.Restarted[0].Name != "fake" || rr.Restarted[0].State != lsp.StateBroken {
		t.Errorf("restart result = %+v", rr)
	}
	if res := notify(); res.Servers[0].Freshness != "fresh" || !strings.Contains(res.Lint, "ERROR [1:1] one") {
		t.Errorf("notify after restart: %+v\n%s", res.Servers, res.Lint)
	}
	if p := status().Pid; p == pid || p == 0 {
		t.Errorf("pid after restart = %d (killed %d)", p, pid)
	}
}

func TestWriteStatusStderr(t *testing.T) {
	var b bytes.Buffer
	err := WriteStatus(&b, StatusResult{Pid: 1, Version: "v", Root: "/r", Servers: []ServerStatus{
		{Name: "fake", Root: "/r", State: lsp.StateBroken, LastError: "exit status 3", Stderr: []string{"panic: boom", "goroutine 1"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "fake stderr (last 2 lines):\n  panic: boom\n  goroutine 1\n") {
		t.Errorf("status output:\n%s", b.String())
	}
}
