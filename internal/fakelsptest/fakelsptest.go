// Package fakelsptest builds testdata/fakelsp, the scripted language server
// of the fault tests, and configures it as a server. It is shared by the
// tests of lsp and sidecar, so it imports only config, internal/proc and
// the standard library, never lsp or sidecar.
package fakelsptest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// build is the executable Bin builds, once per test binary.
var build struct {
	once sync.Once
	dir  string // the temporary directory holding bin, removed by Main
	bin  string
	err  error
}

// Main runs the tests of m, then removes what Bin built. A package whose
// tests use Bin calls it from TestMain; the test wrapper exits with the
// code of m.Run when TestMain returns. Started as the supervisor of a
// server (internal/proc, on macOS or with LSP_HOOK_SUPERVISE=1), the test
// binary is the supervisor instead, and runs no test.
func Main(m *testing.M) {
	proc.SupervisorMain()
	m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// Bin returns the path of the fakelsp executable, building it on first use
// into a temporary directory (see Main). It fails tb if the build fails.
func Bin(tb testing.TB) string {
	tb.Helper()
	build.once.Do(func() { build.bin, build.err = compile() })
	if build.err != nil {
		tb.Fatal(build.err)
	}
	return build.bin
}

func compile() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", fmt.Errorf("building testdata/fakelsp: %w", err)
	}
	if build.dir, err = os.MkdirTemp("", "fakelsp"); err != nil {
		return "", fmt.Errorf("building testdata/fakelsp: %w", err)
	}
	bin := filepath.Join(build.dir, "fakelsp")
	cmd := exec.Command("go", "build", "-o", bin, "./testdata/fakelsp")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building testdata/fakelsp: %w\n%s", err, out)
	}
	return bin, nil
}

// moduleRoot returns the nearest directory at or above the working
// directory (a package's own, under go test) that holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("finding the module root: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Server returns an enabled server named name that runs fakelsp in mode
// (see the modes in testdata/fakelsp's package comment) with extra flags,
// for .fake files of language "fake".
func Server(tb testing.TB, name, mode string, flags ...string) config.Server {
	tb.Helper()
	return config.Server{
		Name: name, Command: append([]string{Bin(tb), "-mode=" + mode}, flags...), Extensions: []string{".fake"},
		LanguageIDs: map[string]string{".fake": "fake"}, Enabled: true,
	}
}

// Config returns the default config with one server, Server(tb, "fake",
// mode, flags...), and short deadlines: 1 s warm (LSP.Timeout), 2 s first
// touch (LSP.FirstTouchTimeout).
func Config(tb testing.TB, mode string, flags ...string) *config.Config {
	tb.Helper()
	cfg := config.Default()
	cfg.LSP.Timeout = time.Second
	cfg.LSP.FirstTouchTimeout = 2 * time.Second
	cfg.LSP.Servers = map[string]config.Server{"fake": Server(tb, "fake", mode, flags...)}
	return cfg
}
