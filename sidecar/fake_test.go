package sidecar

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
)

func TestMain(m *testing.M) {
	proc.SupervisorMain() // before the test daemon: a supervisor inherits its environment
	if os.Getenv(testDaemonEnv) != "" {
		os.Exit(testDaemon(os.Args[1:]))
	}
	fakelsptest.Main(m)
}

// fakeEngine returns an engine for a fresh workspace whose only server is
// "fake", testdata/fakelsp in mode with flags (testdaemon.Fake).
func fakeEngine(t *testing.T, mode string, flags ...string) *engine.Engine {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := fakelsptest.Config(t, mode, flags...)
	log := testdaemon.Log(t)
	m := lsp.NewManager(cfg, root, log)
	t.Cleanup(m.Shutdown)
	return engine.NewEngine(root, cfg, m, log)
}
