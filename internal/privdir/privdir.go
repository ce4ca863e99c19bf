// Package privdir makes and checks private directories: directories only
// their user can enter, for the daemon's socket, lock and log (sidecar)
// and the hook spool beside them (hooks). Whoever can enter such a
// directory can reach the daemon, replace its socket or plant a file the
// hooks read, so a directory that is a link, is another user's, or lets
// another user in is refused, never used. It imports nothing of
// lsp-hook's: any package may use it.
//
// The platform's part is one pair of functions per platform file:
//
//	mkdir(dir string) error // create dir private; fs.ErrExist when it exists
//	check(dir string, fi os.FileInfo) (reason string, err error)
//
// On unix (privdir_unix.go) private is owned by our uid with mode 0700
// (mkdir(2), stat(2)). On Windows (privdir_windows.go) it is owned by our
// user's SID with a protected DACL whose entries admit that SID (and no
// one else but LocalSystem and Administrators, who can take any file)
// ("O:<SID>D:P(A;OICI;GA;;;<SID>)" in SDDL, inherited by what is created
// inside; CreateDirectoryW with those SECURITY_ATTRIBUTES,
// GetNamedSecurityInfoW to check) — the Windows form of 0700, and the
// only guard of an AF_UNIX socket there, which has no peer credentials.
// check is called on a real directory (not a link) and returns a non-empty
// reason when it is not private.
package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// UnsafeError is Check's error for a directory that is not private:
// Reason says why ("is a symlink", "owned by uid 65534, not 0",
// "mode -rwxr-x--- lets other users in (want 0700)").
type UnsafeError struct {
	Dir, Reason string
}

// Error says "unsafe directory DIR: REASON".
func (e *UnsafeError) Error() string { return fmt.Sprintf("unsafe directory %s: %s", e.Dir, e.Reason) }

// Make creates dir private (its parent must exist) unless something is
// already at dir, then checks what is there with Check.
func Make(dir string) error {
	if err := mkdir(dir); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return Check(dir)
}

// Check returns nil when dir is a private directory of ours, an
// *UnsafeError when it is something else (a symlink or other link, not a
// directory, another user's, open to others), or the error of looking at
// it (os.Lstat's: fs.ErrNotExist when missing).
func Check(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	reason := ""
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		reason = "is a symlink"
	case fi.Mode()&os.ModeIrregular != 0:
		reason = "is a link (a reparse point)" // Windows: a junction or mount point
	case !fi.IsDir():
		reason = "not a directory"
	default:
		if reason, err = check(dir, fi); err != nil {
			return fmt.Errorf("checking %s: %w", dir, err)
		}
	}
	if reason != "" {
		return &UnsafeError{Dir: dir, Reason: reason}
	}
	return nil
}
