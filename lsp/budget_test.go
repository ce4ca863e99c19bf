package lsp

import (
	"context"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// TestStopIdle: Running lists an idle server with its last use; StopIdle
// refuses when a check used it since (another last use) and stops it
// otherwise; the next check starts it again and answers fresh.
func TestStopIdle(t *testing.T) {
	m, dir := fakeManager(t, "normal")
	path := writeFile(t, dir, "a.fake", "ERROR: one\n")
	if out := m.Check(context.Background(), []Doc{{Path: path}}, 0); out[0].Freshness != Fresh {
		t.Fatalf("first check: %+v", out)
	}
	run := m.Running()
	if len(run) != 1 || run[0].Name != "fake" || run[0].Pid == 0 || run[0].Busy || run[0].LastUse.IsZero() {
		t.Fatalf("Running = %+v, want the idle fake server", run)
	}
	s := run[0]
	if m.StopIdle(s.Name, s.Root, s.LastUse.Add(-time.Second)) {
		t.Fatal("StopIdle with a last use older than the server's stopped it")
	}
	if m.StopIdle("other", s.Root, s.LastUse) {
		t.Fatal("StopIdle of a server not running reported a stop")
	}
	if !m.StopIdle(s.Name, s.Root, s.LastUse) {
		t.Fatal("StopIdle of the idle server did not stop it")
	}
	if !eventually(10*time.Second, func() bool { return !proc.Alive(s.Pid) }) {
		t.Fatalf("server %d still running after StopIdle", s.Pid)
	}
	if run := m.Running(); len(run) != 0 {
		t.Errorf("Running after StopIdle = %+v, want none", run)
	}
	out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if out[0].Freshness != Fresh || len(out[0].Files[path]) != 1 {
		t.Fatalf("check after StopIdle: %+v", out)
	}
	if run := m.Running(); len(run) != 1 || run[0].Pid == s.Pid {
		t.Errorf("Running after the next check = %+v, want a new fake server", run)
	}
}
