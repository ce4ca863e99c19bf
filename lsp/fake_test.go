package lsp

import (
	"os"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// The fake server is testdata/fakelsp, a real program (see its package
// comment for the modes), built and configured by internal/fakelsptest:
// 1 s warm and 2 s first-touch deadlines. It is for faults a real server
// will not produce on demand; real servers are tested for behaviour.

// fakeManager returns a manager of a fresh workspace, dir, whose only
// server is "fake", fakelsp in mode with flags; it is shut down when the
// test ends.
func fakeManager(t *testing.T, mode string, flags ...string) (m *Manager, dir string) {
	t.Helper()
	dir = tempDir(t)
	m = NewManager(fakelsptest.Config(t, mode, flags...), dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	return m, dir
}

// traceLines returns the lines fakelsp wrote to its -trace file that start
// with prefix.
func traceLines(t *testing.T, file, prefix string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// fakeStatus returns the status line of the fake server, failing the test
// unless there is exactly one.
func fakeStatus(t *testing.T, m *Manager) ServerStatus {
	t.Helper()
	var found []ServerStatus
	for _, s := range m.Status() {
		if s.Name == "fake" {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("status = %+v, want one fake server", m.Status())
	}
	return found[0]
}
