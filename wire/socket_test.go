package wire

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSocketPath: one socket per root, in the platform's default
// directory (socketDirs), unless LSP_HOOK_SOCKET names one.
func TestSocketPath(t *testing.T) {
	t.Setenv(SocketEnv, "")
	dir, env := filepath.FromSlash("/run/user/1000"), "XDG_RUNTIME_DIR"
	if runtime.GOOS == "windows" {
		dir, env = `C:\Users\u\AppData\Local`, "LOCALAPPDATA"
	}
	t.Setenv(env, dir)
	p := SocketPath("/home/u/repo")
	if filepath.Dir(p) != filepath.Join(dir, "lsp-hook") || len(filepath.Base(p)) != 16+len(".sock") {
		t.Errorf("SocketPath = %q, want <16 hex digits>.sock in %s", p, filepath.Join(dir, "lsp-hook"))
	}
	if SocketPath("/home/u/other") == p {
		t.Errorf("two roots share a socket")
	}
	t.Setenv(SocketEnv, "/tmp/x.sock")
	if SocketPath("/home/u/repo") != "/tmp/x.sock" {
		t.Errorf("LSP_HOOK_SOCKET ignored")
	}
	if LogPath("/tmp/x.sock") != "/tmp/x.log" {
		t.Errorf("LogPath = %q", LogPath("/tmp/x.sock"))
	}
}

// TestCheckSocketPath: a path longer than the platform's sun_path allows
// is refused before bind, naming the limit.
func TestCheckSocketPath(t *testing.T) {
	ok := "/" + strings.Repeat("a", maxSocketPath-1)
	if err := CheckSocketPath(ok); err != nil {
		t.Errorf("CheckSocketPath(%d bytes) = %v", len(ok), err)
	}
	if err := CheckSocketPath(ok + "a"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("Unix sockets allow %d", maxSocketPath)) {
		t.Errorf("CheckSocketPath(%d bytes) = %v, want a refusal naming %d", len(ok)+1, err, maxSocketPath)
	}
}
