//go:build unix

package wire

import (
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/lsp-hook/lsp-hook/internal/privdir"
)

// socketDirs returns the socket directories, the default first:
// $XDG_RUNTIME_DIR/lsp-hook when XDG_RUNTIME_DIR is set (XDG Base
// Directory: a per-user 0700 directory); /run/user/<uid>/lsp-hook when
// that runtime dir (systemd-logind's, what XDG_RUNTIME_DIR names on Linux)
// is ours with mode 0700 (privdir.Check); <userTempDir>/lsp-hook-<uid>;
// and $TMPDIR/lsp-hook-<uid> when $TMPDIR differs (where a daemon started
// with that environment listens). Only the first depends on a variable an
// MCP client drops, and where it is set it normally names the second.
func socketDirs() []string {
	uid := strconv.Itoa(os.Getuid())
	var xdg, run string
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		xdg = filepath.Join(d, "lsp-hook")
	}
	if d := filepath.Join("/run/user", uid); privdir.Check(d) == nil {
		run = filepath.Join(d, "lsp-hook")
	}
	return uniqueDirs(xdg, run,
		filepath.Join(userTempDir(), "lsp-hook-"+uid),
		filepath.Join(os.TempDir(), "lsp-hook-"+uid))
}

// socketDirHint is what CheckSocketPath suggests setting besides
// $LSP_HOOK_SOCKET.
const socketDirHint = "XDG_RUNTIME_DIR"

// openAppend opens the log at path for appending, creating it 0600,
// refusing a symlink (O_NOFOLLOW: open(2) fails with ELOOP).
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
}
