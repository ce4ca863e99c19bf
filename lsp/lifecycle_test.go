//go:build unix

package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestConcurrentStartsCollapse: five checks arriving together for a cold
// server start one process, and all five get a fresh answer.
func TestConcurrentStartsCollapse(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "normal", "-trace="+trace)
	var wg sync.WaitGroup
	outs := make([][]Outcome, 5)
	for i := range outs {
		path := writeFile(t, dir, fmt.Sprintf("f%d.fake", i), fmt.Sprintf("ERROR: in file %d\n", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = m.Check(context.Background(), []Doc{{Path: path}}, 0)
		}()
	}
	wg.Wait()
	for i, out := range outs {
		if len(out) != 1 || out[0].Freshness != Fresh {
			t.Errorf("check %d: %+v", i, out)
		}
	}
	if starts := traceLines(t, trace, "start "); len(starts) != 1 {
		t.Errorf("%d server processes started, want 1: %q", len(starts), starts)
	}
	if inits := traceLines(t, trace, "initialize "); len(inits) != 1 {
		t.Errorf("%d initialize requests, want 1", len(inits))
	}
}

// TestRestart: a server that died stays broken (checks answer at once
// without it) during its back-off, here longer than the test, until
// Restart, after which the next check starts a new one.
func TestRestart(t *testing.T) {
	m, dir := fakeManager(t, "normal")
	m.Crash.Backoff, m.Crash.MaxBackoff = time.Hour, time.Hour
	path := writeFile(t, dir, "a.fake", "ERROR: one\n")
	if out := m.Check(context.Background(), []Doc{{Path: path}}, 0); out[0].Freshness != Fresh {
		t.Fatalf("first check: %+v", out)
	}
	old := fakeStatus(t, m).Pid
	syscall.Kill(old, syscall.SIGKILL)
	if !eventually(2*time.Second, func() bool { return fakeStatus(t, m).State == StateBroken }) {
		t.Fatalf("status after SIGKILL = %+v, want broken", fakeStatus(t, m))
	}
	begin := time.Now()
	out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if out[0].Freshness != None || !errors.Is(out[0].Err, ErrBroken) || time.Since(begin) > 500*time.Millisecond {
		t.Fatalf("check of a broken server = %+v after %v, want none at once, not at the 1 s deadline", out, time.Since(begin))
	}

	if _, err := m.Restart("nope"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("Restart(nope) = %v, want ErrUnknownServer", err)
	}
	before, err := m.Restart("fake")
	if err != nil || len(before) != 1 || before[0].State != StateBroken || !strings.Contains(before[0].LastError, "killed") {
		t.Fatalf("Restart = %+v, %v", before, err)
	}
	if st := m.Status(); len(st) != 0 {
		t.Errorf("status after restart = %+v, want nothing started", st)
	}
	out = m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if out[0].Freshness != Fresh || len(out[0].Files[path]) != 1 {
		t.Fatalf("check after restart: %+v", out)
	}
	if pid := fakeStatus(t, m).Pid; pid == old || pid == 0 {
		t.Errorf("pid after restart = %d (old %d)", pid, old)
	}

	// Restart("") stops a healthy server too.
	pid := fakeStatus(t, m).Pid
	if before, err := m.Restart(""); err != nil || len(before) != 1 || before[0].State != StateActive {
		t.Fatalf("Restart(\"\") = %+v, %v", before, err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("restarted server %d still running", pid)
	}
}

// TestIdleServerStops: a server unused for IdleServerTimeout is shut down,
// and the next check starts it again.
func TestIdleServerStops(t *testing.T) {
	m, dir := fakeManager(t, "normal")
	path := writeFile(t, dir, "a.fake", "ERROR: one\n")
	m.IdleServerTimeout = 300 * time.Millisecond
	if out := m.Check(context.Background(), []Doc{{Path: path}}, 0); out[0].Freshness != Fresh {
		t.Fatalf("first check: %+v", out)
	}
	pid := fakeStatus(t, m).Pid
	begin := time.Now()
	gone := eventually(3*time.Second, func() bool { return syscall.Kill(pid, 0) != nil })
	t.Logf("idle server stopped %v after its last check", time.Since(begin).Round(time.Millisecond))
	if !gone {
		t.Fatalf("idle server %d still running", pid)
	}
	if st := m.Status(); len(st) != 0 {
		t.Errorf("status after idle stop = %+v", st)
	}
	if m.Warm(path) {
		t.Errorf("Warm after idle stop")
	}
	if out := m.Check(context.Background(), []Doc{{Path: path}}, 0); out[0].Freshness != Fresh {
		t.Fatalf("check after idle stop: %+v", out)
	}
	if p := fakeStatus(t, m).Pid; p == pid || p == 0 {
		t.Errorf("pid after lazy restart = %d (old %d)", p, pid)
	}
}

// TestIdleDocumentsClosed: a document no check names for
// DocumentIdleTimeout gets didClose; checking it again opens it anew.
func TestIdleDocumentsClosed(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "normal", "-trace="+trace)
	a, b := writeFile(t, dir, "a.fake", "ERROR: a\n"), writeFile(t, dir, "b.fake", "ERROR: b\n")
	m.DocumentIdleTimeout = 400 * time.Millisecond
	m.IdleServerTimeout = time.Hour
	m.Check(context.Background(), []Doc{{Path: a}}, 0)
	// Keep checking b, back to back, until a is closed.
	begin := time.Now()
	eventually(10*time.Second, func() bool { // a deadline, not a speed claim: the janitor on a loaded machine
		m.Check(context.Background(), []Doc{{Path: b}}, 0)
		return len(traceLines(t, trace, "textDocument/didClose")) > 0
	})
	t.Logf("a.fake closed %v after its check, while b.fake was being checked", time.Since(begin).Round(time.Millisecond))
	closes := traceLines(t, trace, "textDocument/didClose")
	if len(closes) != 1 || !strings.HasSuffix(closes[0], "/a.fake") {
		t.Fatalf("didClose sent = %q, want a.fake's only", closes)
	}
	if st := fakeStatus(t, m); st.Documents != 1 {
		t.Errorf("open documents = %d, want 1", st.Documents)
	}
	out := m.Check(context.Background(), []Doc{{Path: a}}, 0)
	if out[0].Freshness != Fresh || len(out[0].Files[a]) != 1 {
		t.Fatalf("check of the closed document: %+v", out)
	}
	if opens := traceLines(t, trace, "textDocument/didOpen"); len(opens) != 3 {
		t.Errorf("didOpen sent %d times, want 3 (a, b, a again): %q", len(opens), opens)
	}
}

// TestMaxOpenDocuments: past MaxOpenDocuments the least recently checked
// documents are closed.
func TestMaxOpenDocuments(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "normal", "-trace="+trace)
	m.MaxOpenDocuments = 2
	m.DocumentIdleTimeout, m.IdleServerTimeout = 0, 0
	var paths []string
	for i := range 5 {
		p := writeFile(t, dir, fmt.Sprintf("f%d.fake", i), "x\n")
		paths = append(paths, p)
		if out := m.Check(context.Background(), []Doc{{Path: p}}, 0); out[0].Freshness != Fresh {
			t.Fatalf("check %d: %+v", i, out)
		}
		time.Sleep(5 * time.Millisecond) // distinct touch times
	}
	if !eventually(2*time.Second, func() bool { return len(traceLines(t, trace, "textDocument/didClose")) == 3 }) {
		t.Fatalf("didClose sent = %q, want 3", traceLines(t, trace, "textDocument/didClose"))
	}
	closes := strings.Join(traceLines(t, trace, "textDocument/didClose"), "\n")
	for i, p := range paths {
		if closed := strings.Contains(closes, "/"+filepath.Base(p)); closed != (i < 3) {
			t.Errorf("%s closed = %v", filepath.Base(p), closed)
		}
	}
}

// TestBrokenStreamReaped: a server whose stdout stops being LSP is killed,
// not left running beside a dead connection.
func TestBrokenStreamReaped(t *testing.T) {
	m, dir := fakeManager(t, "garbage-stdout")
	path := writeFile(t, dir, "a.fake", "x")
	m.Check(context.Background(), []Doc{{Path: path}}, 0)
	st := fakeStatus(t, m)
	if st.State != StateBroken || st.Pid == 0 {
		t.Fatalf("status = %+v, want broken", st)
	}
	if !eventually(time.Second, func() bool { return syscall.Kill(st.Pid, 0) != nil }) {
		t.Errorf("server %d with a broken stream still running", st.Pid)
	}
}

// TestWatchFilesWiring: with WatchFiles, every client is subscribed to the
// workspace watcher: an open document changed on disk is re-synced without
// any check asking.
func TestWatchFilesWiring(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "normal", "-trace="+trace)
	path := writeFile(t, dir, "a.fake", "ERROR: one\n")
	m.WatchFiles = true
	if out := m.Check(context.Background(), []Doc{{Path: path}}, 0); out[0].Freshness != Fresh {
		t.Fatalf("check: %+v", out)
	}
	// The subscription is made once the watcher is ready.
	if !eventually(2*time.Second, func() bool {
		m.mu.Lock()
		var c *Client
		for _, e := range m.entries {
			c = e.readyClient()
		}
		m.mu.Unlock()
		c.watchMu.Lock()
		defer c.watchMu.Unlock()
		return c.watch != nil
	}) {
		t.Fatal("the client is not subscribed to a workspace watcher")
	}
	writeFile(t, dir, "a.fake", "ERROR: two\n")
	if !eventually(3*time.Second, func() bool { return len(traceLines(t, trace, "textDocument/didChange")) == 1 }) {
		t.Errorf("the out-of-band write was not re-synced; trace: %q", traceLines(t, trace, ""))
	}
}
