// Package safefile opens and reads files that must be regular files, for
// every package that reads a path it was handed: a changed file (sidecar),
// a navigation request's file (sidecar, mcp), a location a language server
// named (lsp, mcp). It never opens for reading anything but a regular file
// — a FIFO's open waits for a writer forever, a device can be endless —
// nor a file on a kernel pseudo-filesystem (/proc, /sys: process
// environments and kernel state, which stat as regular and empty), and it
// never reads more than the caller's bound. It imports nothing of
// lsp-hook's: any package may use it.
//
// The platform's part is two functions, one pair per platform file:
//
//	openFile(path string, follow bool) (*os.File, error)
//	onPseudoFS(f *os.File) (bool, error)
//
// openFile opens path for reading without ever blocking and, when follow
// is false, refuses a link in the last element at the open itself, so a
// file swapped for a link after the look is not followed: O_NOFOLLOW and
// O_NONBLOCK on unix (safefile_unix.go, open(2)); on Windows
// FILE_FLAG_OPEN_REPARSE_POINT, then the handle's attributes
// (safefile_windows.go, CreateFileW, GetFileInformationByHandle), refusing
// any reparse point (symlink, junction, mount point) the way unix refuses
// a symlink, and any handle that is not a disk file (GetFileType). Its
// errors for a link are ErrNotRegular wrapped as Regular wraps it.
// onPseudoFS says whether the open file lives on a kernel
// pseudo-filesystem: statfs(2) magic numbers on Linux
// (pseudofs_linux.go), f_fstypename on macOS (pseudofs_darwin.go), never
// on Windows, which has none.
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Errors a file is refused with.
var (
	// ErrNotRegular: the path is a FIFO, device, socket, directory or (for
	// Open) a symlink; the error wrapping it names which.
	ErrNotRegular = errors.New("not a regular file")
	// ErrPseudoFile: the file is on a kernel pseudo-filesystem.
	ErrPseudoFile = errors.New("a kernel pseudo-file (/proc, /sys)")
)

// TooLargeError is ReadAll's error for a file of Size bytes, over the
// caller's limit of Max bytes.
type TooLargeError struct {
	Size, Max int64 // bytes
}

// Error says "SIZE bytes, over the limit of MAX bytes".
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, over the limit of %d bytes", e.Size, e.Max)
}

// Open opens the regular file at path for reading, refusing a symlink in
// its last element (use it on paths whose symlinks the caller already
// followed, so that a file swapped for a link after that check is not
// followed). See OpenFollow for the checks.
func Open(path string) (*os.File, os.FileInfo, error) {
	return open(path, os.Lstat, false)
}

// OpenFollow opens the regular file at path, or that a symlink at path
// leads to, for reading. It looks before it opens (a FIFO or a device is
// never opened), opens without blocking (O_NONBLOCK) so a file swapped for
// a FIFO in between cannot block it, then checks the open file again: a regular file
// (else ErrNotRegular, wrapped with the kind), not on a pseudo-filesystem
// (else ErrPseudoFile). The file's FileInfo comes back with it; the
// caller closes the file.
func OpenFollow(path string) (*os.File, os.FileInfo, error) {
	return open(path, os.Stat, true)
}

func open(path string, stat func(string) (os.FileInfo, error), follow bool) (*os.File, os.FileInfo, error) {
	fi, err := stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := Regular(fi); err != nil {
		return nil, nil, err
	}
	f, err := openFile(path, follow)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = Regular(fi)
	}
	if err == nil {
		var pseudo bool
		if pseudo, err = onPseudoFS(f); err != nil {
			err = fmt.Errorf("checking the file system of %s: %w", path, err)
		} else if pseudo {
			err = ErrPseudoFile
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadAll reads the whole of f, whose FileInfo Open or OpenFollow gave as
// fi, when it holds at most max bytes, allocating its size once; a larger
// file (at the stat, or grown since) is a *TooLargeError, read no further
// than max+1 bytes.
func ReadAll(f *os.File, fi os.FileInfo, max int64) ([]byte, error) {
	if fi.Size() > max {
		return nil, &TooLargeError{Size: fi.Size(), Max: max}
	}
	// Room for bytes.MinRead more lets ReadFrom see the end without growing.
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	if int64(buf.Len()) > max {
		return nil, &TooLargeError{Size: int64(buf.Len()), Max: max}
	}
	return buf.Bytes(), nil
}

// ReadFollow reads the regular file at path, following symlinks, when it
// holds at most max bytes: OpenFollow, then ReadAll.
func ReadFollow(path string, max int64) ([]byte, error) {
	f, fi, err := OpenFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, fi, max)
}

// kindSymlink is how a refusal names a symlink.
const kindSymlink = "a symlink"

// Regular returns nil for a regular file, else ErrNotRegular wrapped with
// what fi is ("not a regular file: a named pipe (FIFO)").
func Regular(fi os.FileInfo) error {
	m := fi.Mode()
	var kind string
	switch {
	case m.IsRegular():
		return nil
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0:
		kind = "a character device"
	case m&os.ModeDevice != 0:
		kind = "a block device"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	case m&os.ModeSymlink != 0:
		kind = kindSymlink
	case m.IsDir():
		kind = "a directory"
	default:
		kind = "mode " + m.String()
	}
	return fmt.Errorf("%w: %s", ErrNotRegular, kind)
}
