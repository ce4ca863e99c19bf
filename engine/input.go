package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Errors an input can be refused with; each reaches the caller as a note
// naming the file. A path outside the workspace is refused before, by
// workspace.Resolve (workspace.ErrOutside).
var (
	ErrNotRegular = safefile.ErrNotRegular
	ErrTooLarge   = wire.ErrTooLarge
	ErrBinary     = errors.New("binary content")
)

// readContent returns the text to check for path: the event's content when it
// has some, else the file on disk. It refuses, without reading a byte:
// anything but a regular file (ErrNotRegular: FIFOs, whose open would wait
// for a writer, devices, sockets, directories), kernel pseudo-files
// (ErrPseudoFile: /proc, /sys, which stat as regular but empty), and files
// over MaxFileSize (ErrTooLarge); and after reading, binary content
// (ErrBinary). path must come from workspace.Resolve: symlinks already
// followed.
func readContent(path string, content *string) ([]byte, error) {
	var data []byte
	if content != nil {
		if len(*content) > wire.MaxFileSize {
			return nil, tooLarge(int64(len(*content)))
		}
		data = []byte(*content)
	} else {
		var err error
		if data, err = readRegular(path); err != nil {
			return nil, err
		}
	}
	if isBinary(data) {
		return nil, ErrBinary
	}
	return data, nil
}

// ErrPseudoFile is returned for a file on a kernel pseudo-filesystem
// (procfs, sysfs and the like): such files read process environments and
// kernel state, not source.
var ErrPseudoFile = safefile.ErrPseudoFile

// openRegular opens the regular file at path for reading, and refuses, with
// nothing read, what readContent refuses before reading: anything but a
// regular file (ErrNotRegular, a symlink included: path must come from
// workspace.Resolve), a kernel pseudo-file (ErrPseudoFile), a file over
// MaxFileSize (ErrTooLarge). It looks before it opens (lstat: a FIFO or a device is
// never opened), opens with O_NONBLOCK and O_NOFOLLOW so a file swapped
// for a FIFO or a symlink in between cannot block or redirect it, then
// checks the open file again (safefile.Open). The caller closes the file.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, fi, err := safefile.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() > wire.MaxFileSize {
		f.Close()
		return nil, nil, tooLarge(fi.Size())
	}
	return f, fi, nil
}

// readRegular reads the regular file at path (openRegular's checks), at
// most MaxFileSize bytes, allocating its size once.
func readRegular(path string) ([]byte, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := safefile.ReadAll(f, fi, wire.MaxFileSize)
	if big := (*safefile.TooLargeError)(nil); errors.As(err, &big) { // it grew since the stat
		return nil, tooLarge(big.Size)
	}
	return data, err
}

// tooLarge is ErrTooLarge for n bytes: "17.0 MiB is larger than 16 MiB".
func tooLarge(n int64) error {
	return fmt.Errorf("%.1f MiB is %w", float64(n)/(1<<20), ErrTooLarge)
}

// isBinary reports whether data looks like a binary file: a NUL byte in the
// first 8 KiB, git's heuristic. Text in a legacy encoding (Latin-1) is not
// binary: checkers report what they make of it.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0
}

// CheckRegular refuses, without reading a byte, what readContent refuses
// before reading (openRegular): a path that does not exist, anything but a
// regular file (ErrNotRegular), a kernel pseudo-file (ErrPseudoFile), a
// file over MaxFileSize (ErrTooLarge). path must come from
// workspace.Resolve.
func CheckRegular(path string) error {
	f, _, err := openRegular(path)
	if err != nil {
		return err
	}
	f.Close() // opened read-only, nothing read: nothing to lose
	return nil
}
