// Package testdaemon is the one place for the test helpers of the engine,
// the daemon and their clients (engine, sidecar, mcp): a daemon started
// for a test and shut down when it ends (Serve), on a socket in a short
// directory (Socket, ShortDir), a client of it (Dial), an engine's
// workspace served by testdata/fakelsp (Fake), loggers that write to the
// test (Log, CaptureLog, Discard), and small file and lint-block helpers.
//
// Only tests import it. It imports lsp, wire, config and internal
// helpers, never engine or sidecar: their own tests use it, so it takes
// what it starts as the Daemon interface and hands Fake's parts to
// engine.NewEngine.
package testdaemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Daemon is what Serve starts and stops: a *sidecar.Server.
type Daemon interface {
	Listen(socket string) error
	Serve() error
	Shutdown()
}

// Serve listens with d on socket and serves in the background until the
// test ends, when it shuts d down and checks Serve's error.
func Serve(t testing.TB, d Daemon, socket string) {
	t.Helper()
	if err := d.Listen(socket); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- d.Serve() }()
	t.Cleanup(func() {
		d.Shutdown()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
}

// ShortDir returns a temporary directory with a short path, removed when
// the test ends: Unix socket paths (sun_path) are limited to 108 bytes, so
// a long temporary directory (macOS's, a CI runner's) gives way to /tmp
// on unix.
func ShortDir(t testing.TB) string {
	t.Helper()
	base := ""
	if len(os.TempDir()) > 40 && runtime.GOOS != "windows" {
		base = "/tmp"
	}
	d, err := os.MkdirTemp(base, "lh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// Socket returns a fresh socket path, run/d.sock in a ShortDir.
func Socket(t testing.TB) string {
	t.Helper()
	return filepath.Join(ShortDir(t), "run", "d.sock")
}

// Dial connects to the daemon at socket, closed when the test ends.
func Dial(ctx context.Context, t testing.TB, socket string) *wire.Client {
	t.Helper()
	c, err := wire.Dial(ctx, socket, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Fake returns what engine.NewEngine takes for a fresh workspace
// (symlink-free) whose only server is "fake", testdata/fakelsp in mode
// with flags (see internal/fakelsptest: 1 s warm and 2 s first-touch
// deadlines): its root, config, a manager shut down when the test ends,
// and a logger writing to t.
func Fake(t testing.TB, mode string, flags ...string) (root string, cfg *config.Config, m *lsp.Manager, log *slog.Logger) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg = fakelsptest.Config(t, mode, flags...)
	log = Log(t)
	m = lsp.NewManager(cfg, root, log)
	t.Cleanup(m.Shutdown)
	return root, cfg, m, log
}

// Log returns a logger writing to t, from level info.
func Log(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// CaptureLog returns a logger writing to t and to buf, from level info.
func CaptureLog(t testing.TB, buf *fakelsptest.LockedBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(io.MultiWriter(buf, testWriter{t}), &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// Discard returns a logger that writes nothing.
func Discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// testWriter writes each message to t's log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// WriteFile writes a workspace file, root joined with rel, making its
// directory as needed, and returns its path.
func WriteFile(t testing.TB, root, rel, text string) string {
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

// LintLines returns the diagnostic lines ("ERROR …", "WARN …") of a lint
// block.
func LintLines(block string) []string {
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if strings.HasPrefix(l, "ERROR ") || strings.HasPrefix(l, "WARN ") {
			out = append(out, l)
		}
	}
	return out
}
