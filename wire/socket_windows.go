package wire

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// socketDirs returns the socket directories, the default first:
// %LOCALAPPDATA%\lsp-hook (the user's own local application data,
// FOLDERID_LocalAppData; the MCP SDKs pass LOCALAPPDATA on Windows) when
// set, then %TEMP%\lsp-hook (per-user too). EnsureDir gives the one used an
// ACL admitting only the user.
func socketDirs() []string {
	var local string
	if d := os.Getenv("LOCALAPPDATA"); d != "" {
		local = filepath.Join(d, "lsp-hook")
	}
	return uniqueDirs(local, filepath.Join(os.TempDir(), "lsp-hook"))
}

// socketDirHint is what CheckSocketPath suggests setting besides
// $LSP_HOOK_SOCKET.
const socketDirHint = "LOCALAPPDATA"

// maxSocketPath is the longest AF_UNIX socket path Windows accepts:
// sun_path holds UNIX_PATH_MAX, 108, bytes including the terminating NUL
// (afunix.h).
const maxSocketPath = 107

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
