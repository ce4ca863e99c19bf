//go:build unix

package wire

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/privdir"
)

// mcpEnv is the whole environment the official MCP SDKs give a stdio
// server on unix by default (TypeScript SDK src/client/stdio.ts,
// DEFAULT_INHERITED_ENV_VARS; the Python SDK's is the same list).
var mcpEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

// onlyEnv clears every variable of the environment but keep, for the test.
func onlyEnv(t *testing.T, keep ...string) {
	t.Helper()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(keep, k) {
			t.Setenv(k, "") // restores it after the test
			os.Unsetenv(k)
		}
	}
}

// TestSocketPathMinimalEnv: a client with only the MCP SDK's environment
// computes the socket a hook computes with the full one, where the full
// one's XDG_RUNTIME_DIR is the uid's runtime dir or unset, whatever its
// TMPDIR.
func TestSocketPathMinimalEnv(t *testing.T) {
	t.Setenv(SocketEnv, "")
	run := filepath.Join("/run/user", strconv.Itoa(os.Getuid()))
	full := map[string]string{"TMPDIR": t.TempDir(), "XDG_RUNTIME_DIR": ""}
	if privdir.Check(run) == nil {
		full["XDG_RUNTIME_DIR"] = run
	}
	for k, v := range full {
		t.Setenv(k, v)
	}
	root := "/home/u/repo"
	hook := SocketPath(root)
	onlyEnv(t, mcpEnv...)
	if mcp := SocketPath(root); mcp != hook {
		t.Errorf("SocketPath with only %v = %q; with the full environment %q", mcpEnv, mcp, hook)
	}
}

// TestSocketPathFindsListener: when nothing listens on the default socket
// but a daemon listens in another of the socket directories (started with
// another TMPDIR), SocketPath returns that one; an unsafe directory is not
// looked in.
func TestSocketPathFindsListener(t *testing.T) {
	t.Setenv(SocketEnv, "")
	t.Setenv("XDG_RUNTIME_DIR", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	root := t.TempDir() // a root no daemon serves
	def := SocketPath(root)
	dir := filepath.Join(tmp, "lsp-hook-"+strconv.Itoa(os.Getuid()))
	if filepath.Dir(def) == dir {
		t.Skipf("the default socket directory is already %s", dir)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, filepath.Base(def))
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if p := SocketPath(root); p != def {
		t.Errorf("SocketPath looked in %s (mode 0755): %q, want the default %q", dir, p, def)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if p := SocketPath(root); p != sock {
		t.Errorf("SocketPath = %q, want the listening %q", p, sock)
	}
	l.Close()
	if p := SocketPath(root); p != def {
		t.Errorf("SocketPath after the listener closed = %q, want the default %q", p, def)
	}
}
