package lsp

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

func TestMain(m *testing.M) { fakelsptest.Main(m) }

// requireServer skips the test when name is not installed, or fails it when
// LSP_HOOK_REQUIRE_SERVERS=1 (as `make test` sets).
func requireServer(t *testing.T, name string) {
	t.Helper()
	if _, err := LookPath(name); err != nil {
		if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
			t.Fatalf("%s is required (LSP_HOOK_REQUIRE_SERVERS=1): %v", name, err)
		}
		t.Skipf("%s not installed: %v", name, err)
	}
}

// tempDir is t.TempDir made symlink-free, as the daemon names files and
// servers report them.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// workspace returns a fresh tempDir holding files (slash-separated
// relative path → text).
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := tempDir(t)
	writeFiles(t, dir, files)
	return dir
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		writeFile(t, dir, name, text)
	}
}

// writeFile writes text to dir/name, making its directory, and returns the
// file's path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startClient starts srv for the workspace dir and returns its client,
// shut down when the test ends. ctx bounds the start.
func startClient(ctx context.Context, t *testing.T, srv config.Server, dir string) *Client {
	t.Helper()
	c, err := Start(ctx, srv, dir, true, testLogger(t)) // trusted: the test's own environment
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Shutdown(ShutdownGrace) })
	return c
}

// watchDir subscribes c to a new Watcher of dir, closed when the test ends,
// and returns the watcher.
func watchDir(t *testing.T, c *Client, dir string) *Watcher {
	t.Helper()
	w, err := NewWatcher(dir, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	c.Watch(w)
	return w
}

// testLogger logs to t at Info, or at Debug when LSP_HOOK_TEST_LOG=debug.
func testLogger(t *testing.T) *slog.Logger {
	level := slog.LevelInfo
	if os.Getenv("LSP_HOOK_TEST_LOG") == "debug" {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: level}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// eventually polls cond every 10 ms until it holds or d passes.
func eventually(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// outFreshness is the outcomes' freshness, comma-separated.
func outFreshness(out []Outcome) string {
	var s []string
	for _, o := range out {
		s = append(s, string(o.Freshness))
	}
	return strings.Join(s, ",")
}

// outErr joins the outcomes' errors.
func outErr(out []Outcome) error {
	var errs []error
	for _, o := range out {
		errs = append(errs, o.Err)
	}
	return errors.Join(errs...)
}

// realManager returns a Manager of the catalogue's servers for the
// workspace dir, shut down when the test ends, and a context that ends
// within 60 s: the setup of the tests that run real servers through the
// daemon's manager.
func realManager(t *testing.T, dir string) (*Manager, context.Context) {
	t.Helper()
	m := NewManager(config.Default(), dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return m, ctx
}

// diskDoc is the file at p as the engine reads a hook's file: its text
// from disk, FromDisk set.
func diskDoc(t *testing.T, p string) Doc {
	t.Helper()
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return Doc{Path: p, Text: text, FromDisk: true}
}
