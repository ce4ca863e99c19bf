//go:build unix

package sidecar

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

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

// socketDirHint is what checkSocketPath suggests setting besides
// $LSP_HOOK_SOCKET.
const socketDirHint = "XDG_RUNTIME_DIR"

// listenUnix listens on the Unix socket path, which must not exist,
// creating it 0600 (no moment with a wider mode: the umask covers the
// bind; umask(2)).
func listenUnix(socket string) (*net.UnixListener, error) {
	oldMask := unix.Umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	unix.Umask(oldMask)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", socket, err)
	}
	if err := os.Chmod(socket, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("setting socket mode: %w", err)
	}
	return ln, nil
}

// fileID returns the identity of the file at p, not following a symlink:
// stat(2)'s st_dev and st_ino.
func fileID(p string) (fileKey, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return fileKey{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, fmt.Errorf("%s: no inode", p)
	}
	return fileKey{dev: uint64(st.Dev), ino: st.Ino}, nil
}

// openFileID returns the identity of the open file f: fstat(2)'s st_dev
// and st_ino.
func openFileID(f *os.File) (fileKey, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileKey{}, err
	}
	return fileKey{dev: uint64(st.Dev), ino: st.Ino}, nil
}

// openAppend opens the log at path for appending, creating it 0600,
// refusing a symlink (O_NOFOLLOW: open(2) fails with ELOOP).
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
}
