package sidecar

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// SocketEnv overrides the socket path (DESIGN.md "Socket and wire protocol").
const SocketEnv = "LSP_HOOK_SOCKET"

// SocketPath returns the daemon socket for the workspace root (absolute):
// $LSP_HOOK_SOCKET when set; else $XDG_RUNTIME_DIR/lsp-hook/<hash>.sock; else
// $TMPDIR/lsp-hook-<uid>/<hash>.sock, where <hash> is the first 16 hex digits
// of sha256(root).
func SocketPath(root string) string {
	if p := os.Getenv(SocketEnv); p != "" {
		return p
	}
	sum := sha256.Sum256([]byte(root))
	name := hex.EncodeToString(sum[:])[:16] + ".sock"
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "lsp-hook", name)
	}
	return filepath.Join(os.TempDir(), "lsp-hook-"+strconv.Itoa(os.Getuid()), name)
}

// LogPath returns the daemon's default log file, beside its socket:
// <socket without .sock>.log.
func LogPath(socket string) string {
	return trimExt(socket) + ".log"
}

func lockPath(socket string) string { return trimExt(socket) + ".lock" }

func trimExt(p string) string { return p[:len(p)-len(filepath.Ext(p))] }

// ErrUnsafeDir is returned for a socket directory another user could tamper
// with.
var ErrUnsafeDir = errors.New("unsafe socket directory")

// ensureDir creates the socket directory 0700 if needed and checks it is
// safe: a real directory (not a symlink), owned by us, with no group or
// world permissions.
func ensureDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(dir), err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("creating socket directory %s: %w", dir, err)
	}
	return checkDir(dir)
}

func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("checking socket directory: %w", err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%w %s: is a symlink", ErrUnsafeDir, dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w %s: not a directory", ErrUnsafeDir, dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%w %s: owned by uid %d, not %d", ErrUnsafeDir, dir, st.Uid, os.Getuid())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%w %s: mode %v lets other users in (want 0700)", ErrUnsafeDir, dir, fi.Mode().Perm())
	}
	return nil
}

// maxSocketPath is the longest socket path Linux accepts: sun_path holds
// 108 bytes including the terminating NUL (unix(7)).
const maxSocketPath = 107

// checkSocketPath refuses a socket path the kernel would refuse, with an
// error that says so (bind's own is "invalid argument").
func checkSocketPath(p string) error {
	if len(p) > maxSocketPath {
		return fmt.Errorf("socket path %s is %d bytes; Unix sockets allow %d (set %s or XDG_RUNTIME_DIR to a shorter directory)", p, len(p), maxSocketPath, SocketEnv)
	}
	return nil
}
