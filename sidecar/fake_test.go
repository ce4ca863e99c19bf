package sidecar

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/lsp"
)

func TestMain(m *testing.M) {
	proc.SupervisorMain() // before the test daemon: a supervisor inherits its environment
	if os.Getenv(testDaemonEnv) != "" {
		os.Exit(testDaemon(os.Args[1:]))
	}
	fakelsptest.Main(m)
}

// fakeEngine returns an engine for a fresh workspace (symlink-free) whose
// only server is "fake", testdata/fakelsp in mode with flags (see
// internal/fakelsptest: 1 s warm and 2 s first-touch deadlines), shut down
// when the test ends.
func fakeEngine(t *testing.T, mode string, flags ...string) *Engine {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := fakelsptest.Config(t, mode, flags...)
	log := testLog(t)
	m := lsp.NewManager(cfg, root, log)
	t.Cleanup(m.Shutdown)
	return NewEngine(root, cfg, m, log)
}

// testLog logs to t.
func testLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// captureLog logs to t and to buf.
func captureLog(t *testing.T, buf *fakelsptest.LockedBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(io.MultiWriter(buf, testWriter{t}), &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// writeFile writes a workspace file, making its directory as needed.
func writeFile(t *testing.T, root, rel, text string) string {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lintLines returns the diagnostic lines of a lint block.
func lintLines(block string) []string {
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if strings.HasPrefix(l, "ERROR ") || strings.HasPrefix(l, "WARN ") {
			out = append(out, l)
		}
	}
	return out
}
