package sidecar

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/windows"
)

// The daemon's platform part of the socket on Windows; the client's
// (the socket directory, its path limit, the log) is wire's.

// listenUnix listens on the AF_UNIX socket path (Windows 10 1803 and
// later), which must not exist. Windows has no umask and no socket mode:
// the socket file inherits the ACL of the directory EnsureDir made, which
// admits only our user.
func listenUnix(socket string) (*net.UnixListener, error) {
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", socket, err)
	}
	return ln, nil
}

// checkPeer admits every peer: an AF_UNIX socket on Windows has no peer
// credentials (no SO_PEERCRED; SIO_AF_UNIX_GETPEERPID gives a pid, not a
// user). Only a process of our user can reach the socket, since its
// directory's ACL admits no one else (EnsureDir, internal/privdir): that
// ACL is the Windows peer check.
func checkPeer(*net.UnixConn) error { return nil }

// fileID returns the identity of the file at p, not following a link: the
// volume serial number and 64-bit file index of a handle opened on the
// path itself (CreateFileW with FILE_FLAG_OPEN_REPARSE_POINT, asking only
// to read attributes, so no open of the file stands in the way;
// GetFileInformationByHandle).
func fileID(p string) (fileKey, error) {
	name, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return fileKey{}, err
	}
	h, err := windows.CreateFile(name, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return fileKey{}, &os.PathError{Op: "CreateFile", Path: p, Err: err}
	}
	defer windows.CloseHandle(h)
	return handleID(h)
}

// openFileID returns the identity of the open file f, as fileID does.
func openFileID(f *os.File) (fileKey, error) { return handleID(windows.Handle(f.Fd())) }

func handleID(h windows.Handle) (fileKey, error) {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return fileKey{}, fmt.Errorf("reading the file's identity: %w", err)
	}
	return fileKey{dev: uint64(info.VolumeSerialNumber), ino: uint64(info.FileIndexHigh)<<32 | uint64(info.FileIndexLow)}, nil
}
