package lsp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// The fake server is testdata/fakelsp, a real program built once per test
// binary (see its package comment for the modes). It is for faults a real
// server will not produce on demand; real servers are tested for
// behaviour.

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

// fakeBin builds testdata/fakelsp (once) and returns the executable.
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

// fakeConfig returns a config whose only server is "fake", testdata/fakelsp
// in mode with extra flags, serving .fake files, with short deadlines: 1 s
// warm, 2 s first touch.
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

// tempDir is t.TempDir made symlink-free, as the daemon names files.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
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
