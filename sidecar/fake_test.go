package sidecar

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// testdata/fakelsp, the scripted language server, built once per test
// binary (see its package comment for the modes).
var fake struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fake.dir != "" {
		os.RemoveAll(fake.dir)
	}
	os.Exit(code)
}

func fakeBin(t *testing.T) string {
	t.Helper()
	fake.once.Do(func() {
		if fake.dir, fake.err = os.MkdirTemp("", "fakelsp"); fake.err != nil {
			return
		}
		fake.bin = filepath.Join(fake.dir, "fakelsp")
		cmd := exec.Command("go", "build", "-o", fake.bin, "./testdata/fakelsp")
		cmd.Dir = ".." // the module root
		if out, err := cmd.CombinedOutput(); err != nil {
			fake.err = fmt.Errorf("building testdata/fakelsp: %v\n%s", err, out)
		}
	})
	if fake.err != nil {
		t.Fatal(fake.err)
	}
	return fake.bin
}

// fakeConfig is a config whose only server is "fake" (testdata/fakelsp in
// mode) for .fake files, 1 s warm and 2 s first-touch deadlines.
func fakeConfig(t *testing.T, mode string, flags ...string) *config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.LSP.Timeout = time.Second
	cfg.LSP.FirstTouchTimeout = 2 * time.Second
	cfg.LSP.Servers = map[string]config.Server{"fake": {
		Name: "fake", Command: append([]string{fakeBin(t), "-mode=" + mode}, flags...), Extensions: []string{".fake"},
		LanguageIDs: map[string]string{".fake": "fake"}, Enabled: true,
	}}
	return cfg
}

// fakeEngine returns an engine for a fresh workspace (symlink-free) with
// the fake server in mode, and registers its shutdown.
func fakeEngine(t *testing.T, mode string, flags ...string) *Engine {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := fakeConfig(t, mode, flags...)
	log := testLog(t)
	m := lsp.NewManager(cfg, root, log)
	t.Cleanup(m.Shutdown)
	return NewEngine(root, cfg, m, log)
}

// testLog logs to t.
func testLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// writeFile writes a workspace file.
func writeFile(t *testing.T, root, rel, text string) string {
	t.Helper()
	p := filepath.Join(root, rel)
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
