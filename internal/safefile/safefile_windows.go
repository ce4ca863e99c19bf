package safefile

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// openFile opens path read-only. Unless follow, it opens with
// FILE_FLAG_OPEN_REPARSE_POINT (CreateFileW; os.OpenFile passes the flag
// through), so a symlink, junction or other reparse point in the last
// element is opened itself rather than followed, and then refused by its
// handle's FILE_ATTRIBUTE_REPARSE_POINT (GetFileInformationByHandle): the
// Windows form of O_NOFOLLOW, for a file swapped for a link after the
// look. Either way a handle that is not a disk file (GetFileType: a pipe,
// a console, a character device such as NUL or COM1) is refused:
// Windows' equivalent of O_NONBLOCK's guard, since its named pipes and
// devices are opened through the same call. Windows has no O_NOCTTY.
func openFile(path string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY
	if !follow {
		flags |= windows.O_FILE_FLAG_OPEN_REPARSE_POINT
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, err
	}
	if err := checkHandle(windows.Handle(f.Fd())); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkHandle refuses a handle that is not a disk file, or that is a
// reparse point, with ErrNotRegular naming which.
func checkHandle(h windows.Handle) error {
	t, err := windows.GetFileType(h)
	if err != nil {
		return fmt.Errorf("reading the file type: %w", err)
	}
	switch t {
	case windows.FILE_TYPE_DISK:
	case windows.FILE_TYPE_PIPE:
		return fmt.Errorf("%w: %s", ErrNotRegular, "a named pipe (FIFO)")
	case windows.FILE_TYPE_CHAR:
		return fmt.Errorf("%w: %s", ErrNotRegular, "a character device")
	default:
		return fmt.Errorf("%w: file type %d", ErrNotRegular, t)
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return fmt.Errorf("reading the file's attributes: %w", err)
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		return fmt.Errorf("%w: %s", ErrNotRegular, kindReparse)
	}
	return nil
}

// kindReparse names a reparse point that is no symlink Go recognises
// (a junction, a mount point, an app execution alias).
const kindReparse = "a reparse point (symlink or junction)"

// onPseudoFS reports false: Windows has no kernel pseudo-filesystem
// reached through a drive path (its devices are refused by checkHandle).
func onPseudoFS(*os.File) (bool, error) { return false, nil }
