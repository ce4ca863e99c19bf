package lsp

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// TestCompanionWatch plays luau-lsp and `rojo sourcemap --watch` with the
// scripted server (neither installs here): the server reads sourcemap.json
// and registers a file watcher for it; the companion (config.Server.Watch)
// rewrites it as .luau files come and go. A require of a module created
// mid-session must resolve: the companion runs in the server's root, the
// server is told of each rewrite (workspace/didChangeWatchedFiles, through
// the registration), and the next check of the requiring file is clean.
// The companion shows in status, is started again when it dies, does not
// run in an untrusted workspace, and stops with the server.
func TestCompanionWatch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the scripted companion polls a POSIX file tree")
	}
	dir := tempDir(t)
	trace := filepath.Join(tempDir(t), "trace")
	companionTrace := filepath.Join(tempDir(t), "companion")
	writeFile(t, dir, "default.project.json", `{"name": "game", "tree": {"$path": "src"}}`)
	main := writeFile(t, dir, "src/main.luau", "local util = REQUIRE(util)\n")
	srv := fakelsptest.Server(t, "luau", "sourcemap", "-trace="+trace)
	srv.Extensions, srv.LanguageIDs = []string{".luau"}, map[string]string{".luau": "luau"}
	srv.RootMarkers = []string{"default.project.json"}
	srv.Watch = []string{fakelsptest.Bin(t), "-mode=rojo-watch", "-trace=" + companionTrace}
	cfg := fakelsptest.Config(t, "normal")
	cfg.LSP.Servers = map[string]config.Server{"luau": srv}
	cfg.WorkspaceTrusted = true
	m := NewManager(cfg, dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	errs := func() []string {
		t.Helper()
		out := m.Check(ctx, []Doc{{Path: main}}, DefaultSettle)
		if len(out) != 1 || out[0].Freshness != Fresh {
			t.Fatalf("check of main.luau: %+v", out)
		}
		var msgs []string
		for _, d := range out[0].Files[main] {
			msgs = append(msgs, d.Message)
		}
		return msgs
	}
	if got := errs(); len(got) != 1 || got[0] != "Unknown require: util" {
		t.Fatalf("before util.luau exists: %q, want the unknown require", got)
	}
	// The companion, started with the server, writes the first sourcemap
	// (main only).
	if !eventually(5*time.Second, func() bool { return len(traceLines(t, companionTrace, "rewrite")) > 0 }) {
		t.Fatal("the companion never wrote sourcemap.json")
	}
	writeFile(t, dir, "src/util.luau", "return {}\n")
	if !eventually(10*time.Second, func() bool {
		return len(traceLines(t, trace, "watched file://"+filepath.ToSlash(filepath.Join(dir, "sourcemap.json")))) > 0
	}) {
		t.Fatalf("the server was never told of the rewritten sourcemap.json; companion: %q; server: %q",
			traceLines(t, companionTrace, ""), traceLines(t, trace, "watched"))
	}
	if !eventually(10*time.Second, func() bool { return len(errs()) == 0 }) {
		t.Fatalf("util.luau created mid-session: main.luau still has %q", errs())
	}

	st := statusOf(t, m, "luau")
	if st.Companion == nil || st.Companion.Pid == 0 || strings.Join(st.Companion.Command, " ") != strings.Join(srv.Watch, " ") {
		t.Fatalf("status companion = %+v", st.Companion)
	}
	pid := st.Companion.Pid
	if err := killPid(pid); err != nil {
		t.Fatal(err)
	}
	if !eventually(10*time.Second, func() bool {
		c := statusOf(t, m, "luau").Companion
		return c.Restarts == 1 && c.Pid != 0 && c.Pid != pid && c.LastExit != ""
	}) {
		t.Fatalf("a killed companion was not started again: %+v", statusOf(t, m, "luau").Companion)
	}
	pid = statusOf(t, m, "luau").Companion.Pid
	m.Shutdown()
	if !eventually(5*time.Second, func() bool { return !proc.Alive(pid) }) {
		t.Errorf("the companion (pid %d) outlived its server", pid)
	}

	// Untrusted: the server runs, its companion does not.
	cfg.WorkspaceTrusted = false
	m2 := NewManager(cfg, dir, testLogger(t))
	t.Cleanup(m2.Shutdown)
	m2.Check(ctx, []Doc{{Path: main}}, DefaultSettle)
	if c := statusOf(t, m2, "luau").Companion; c != nil {
		t.Errorf("a companion ran in an untrusted workspace: %+v", c)
	}
}

// statusOf returns the status line of the server name, failing the test
// unless there is exactly one.
func statusOf(t *testing.T, m *Manager, name string) ServerStatus {
	t.Helper()
	var found []ServerStatus
	for _, s := range m.Status() {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("status = %+v, want one %s server", m.Status(), name)
	}
	return found[0]
}

// killPid kills the process pid (SIGKILL, TerminateProcess).
func killPid(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// TestPrewarm: Prewarm starts the server a file needs, once per server and
// root, initialized, and opens the first file listed for it (the one the
// user changed last) and no other; a later check finds it running (no
// second start), and a second Prewarm opens nothing.
func TestPrewarm(t *testing.T) {
	trace := filepath.Join(tempDir(t), "trace")
	m, dir := fakeManager(t, "normal", "-trace="+trace)
	a := writeFile(t, dir, "a.fake", "fine\n")
	b := writeFile(t, dir, "sub/b.fake", "ERROR: x\n")
	other := writeFile(t, dir, "c.txt", "no server\n")
	if got := m.Prewarm([]string{a, b, other}); len(got) != 1 || !strings.HasPrefix(got[0], "fake ") {
		t.Fatalf("Prewarm = %q, want the fake server started once", got)
	}
	if got := m.Prewarm([]string{a}); len(got) != 0 {
		t.Errorf("a second Prewarm started %q again", got)
	}
	if !eventually(5*time.Second, func() bool { return len(traceLines(t, trace, "initialized")) == 1 }) {
		t.Fatalf("the prewarmed server was not initialized: %q", traceLines(t, trace, ""))
	}
	if !eventually(5*time.Second, func() bool { return len(traceLines(t, trace, "textDocument/didOpen")) > 0 }) {
		t.Fatalf("Prewarm opened no document: %q", traceLines(t, trace, ""))
	}
	if opened := traceLines(t, trace, "textDocument/didOpen"); len(opened) != 1 || !strings.Contains(opened[0], "a.fake") {
		t.Errorf("Prewarm opened %q, want a.fake alone", opened)
	}
	// Then its change path: warmUpRechecks didChanges of the same text.
	if !eventually(5*time.Second, func() bool { return len(traceLines(t, trace, "textDocument/didChange")) >= warmUpRechecks }) {
		t.Fatalf("Prewarm re-checked %q, want %d didChanges of a.fake", traceLines(t, trace, "textDocument/didChange"), warmUpRechecks)
	}
	if changed := traceLines(t, trace, "textDocument/didChange"); len(changed) != warmUpRechecks || !strings.Contains(changed[0], "a.fake") {
		t.Errorf("Prewarm re-checked %q, want %d didChanges of a.fake", changed, warmUpRechecks)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if out := m.Check(ctx, []Doc{{Path: b}}, DefaultSettle); len(out) != 1 || out[0].Freshness != Fresh || len(out[0].Files[b]) != 1 {
		t.Fatalf("check after prewarm: %+v", out)
	}
	if starts := traceLines(t, trace, "start "); len(starts) != 1 {
		t.Errorf("server started %d times, want once: %q", len(starts), starts)
	}
}
