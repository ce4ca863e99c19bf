package sidecar

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// socketDir is the default socket directory: %LOCALAPPDATA%\lsp-hook (the
// user's own local application data, FOLDERID_LocalAppData), else
// %TEMP%\lsp-hook (per-user too). ensureDir gives it an ACL admitting only
// the user.
func socketDir() string {
	if d := os.Getenv("LOCALAPPDATA"); d != "" {
		return filepath.Join(d, "lsp-hook")
	}
	return filepath.Join(os.TempDir(), "lsp-hook")
}

// socketDirHint is what checkSocketPath suggests setting besides
// $LSP_HOOK_SOCKET.
const socketDirHint = "LOCALAPPDATA"

// maxSocketPath is the longest AF_UNIX socket path Windows accepts:
// sun_path holds UNIX_PATH_MAX, 108, bytes including the terminating NUL
// (afunix.h).
const maxSocketPath = 107

// listenUnix listens on the AF_UNIX socket path (Windows 10 1803 and
// later), which must not exist. Windows has no umask and no socket mode:
// the socket file inherits the ACL of the directory ensureDir made, which
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
// directory's ACL admits no one else (ensureDir, internal/privdir): that
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

// errLogLink is openAppend's refusal of a log path that is a link.
var errLogLink = errors.New("is a symlink or other reparse point")

// openAppend opens the log at path for appending, creating it, refusing a
// link: it opens the path itself (FILE_FLAG_OPEN_REPARSE_POINT, Windows'
// O_NOFOLLOW) and refuses a handle with FILE_ATTRIBUTE_REPARSE_POINT
// (GetFileInformationByHandle). Its ACL is inherited from the socket
// directory's.
func openAppend(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|windows.O_FILE_FLAG_OPEN_REPARSE_POINT, 0o600)
	if err != nil {
		return nil, err
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "GetFileInformationByHandle", Path: path, Err: err}
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: errLogLink}
	}
	return f, nil
}
