package engine

import (
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
)

func TestMain(m *testing.M) {
	fakelsptest.Main(m)
}

// fakeEngine returns an engine for a fresh workspace whose only server is
// "fake", testdata/fakelsp in mode with flags (testdaemon.Fake).
func fakeEngine(t *testing.T, mode string, flags ...string) *Engine {
	t.Helper()
	return NewEngine(testdaemon.Fake(t, mode, flags...))
}
