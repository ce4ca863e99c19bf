//go:build unix

package sidecar

import (
	"fmt"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// The daemon's platform part of the socket on unix; the client's (the
// socket directory, its path limit, the log) is wire's.

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
