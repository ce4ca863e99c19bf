//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// openFile opens path read-only with O_NONBLOCK (a FIFO swapped in after
// the look cannot block the open) and O_NOCTTY, adding O_NOFOLLOW unless
// follow: a symlink in the last element then fails the open with ELOOP,
// reported as ErrNotRegular ("a symlink"), as Regular reports one (open(2)).
func openFile(path string, follow bool) (*os.File, error) {
	flags := os.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil && !follow && errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("%w: %s", ErrNotRegular, kindSymlink)
	}
	return f, err
}
