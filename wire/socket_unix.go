//go:build unix

package wire

import (
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// socketDir is the default socket directory: $XDG_RUNTIME_DIR/lsp-hook
// when XDG_RUNTIME_DIR is set (XDG Base Directory: a per-user 0700
// directory, Linux's /run/user/<uid>), else $TMPDIR/lsp-hook-<uid> (macOS's
// $TMPDIR is per-user already).
func socketDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "lsp-hook")
	}
	return filepath.Join(os.TempDir(), "lsp-hook-"+strconv.Itoa(os.Getuid()))
}

// socketDirHint is what CheckSocketPath suggests setting besides
// $LSP_HOOK_SOCKET.
const socketDirHint = "XDG_RUNTIME_DIR"

// openAppend opens the log at path for appending, creating it 0600,
// refusing a symlink (O_NOFOLLOW: open(2) fails with ELOOP).
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
}
