package sidecar

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxFileSize is the largest file checked (16 MiB). Larger files are skipped
// with a note rather than read into memory.
const MaxFileSize = 16 << 20

// Errors an input can be refused with; each reaches the caller as a note
// naming the file.
var (
	ErrOutsideWorkspace = errors.New("outside the workspace")
	ErrNotRegular       = errors.New("not a regular file")
	ErrTooLarge         = fmt.Errorf("larger than %d MiB", MaxFileSize>>20)
	ErrBinary           = errors.New("binary content")
)

// resolve turns a change's path into a clean absolute path inside root,
// following symlinks so a link that points outside the workspace is refused
// too. root must be clean, absolute and symlink-free. The file need not exist
// when it carries content; nothing is opened here.
func resolve(root, path string) (string, error) {
	if path == "" {
		return "", errors.New("empty path")
	}
	if strings.ContainsRune(path, 0) {
		return "", errors.New("path contains a NUL byte")
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	path = filepath.Clean(path)
	if !inside(path, root) {
		return "", ErrOutsideWorkspace
	}
	real, err := filepath.EvalSymlinks(path)
	switch {
	case err == nil:
		if !inside(real, root) {
			return "", fmt.Errorf("%w (symlink to %s)", ErrOutsideWorkspace, real)
		}
		return real, nil
	case errors.Is(err, os.ErrNotExist):
		// A new file: its directory must still resolve inside the root.
		dir, derr := filepath.EvalSymlinks(filepath.Dir(path))
		if derr == nil && !inside(dir, root) {
			return "", fmt.Errorf("%w (directory links to %s)", ErrOutsideWorkspace, dir)
		}
		return path, nil
	default:
		return "", err
	}
}

// inside reports whether path is root or below it.
func inside(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+string(filepath.Separator)) || root == "/"
}

// readContent returns the text to check for path: the event's content when it
// has some, else the file on disk. It refuses, without reading a byte:
// anything but a regular file (ErrNotRegular: FIFOs, whose open would wait
// for a writer, devices, sockets, directories), kernel pseudo-files
// (ErrPseudoFile: /proc, /sys, which stat as regular but empty), and files
// over MaxFileSize (ErrTooLarge); and after reading, binary content
// (ErrBinary). path must come from resolve: symlinks already followed.
func readContent(path string, content *string) ([]byte, error) {
	var data []byte
	if content != nil {
		if len(*content) > MaxFileSize {
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
var ErrPseudoFile = errors.New("a kernel pseudo-file (/proc, /sys)")

// readRegular reads the regular file at path, at most MaxFileSize bytes. It
// looks before it opens (lstat: a FIFO or a device is never opened), opens
// with O_NONBLOCK and O_NOFOLLOW so a file swapped for a FIFO or a symlink
// in between cannot block or redirect it, then checks the open file again.
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(fi); err != nil {
		return nil, err
	}
	var fs syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &fs); err != nil {
		return nil, fmt.Errorf("checking the file system of %s: %w", path, err)
	}
	if pseudoFS[uint32(fs.Type)] {
		return nil, ErrPseudoFile
	}
	if fi.Size() > MaxFileSize {
		return nil, tooLarge(fi.Size())
	}
	// Sized from the stat, so reading allocates the file's size once (room
	// for bytes.MinRead more lets ReadFrom see the end without growing).
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if buf.Len() > MaxFileSize { // it grew since the stat
		return nil, tooLarge(int64(buf.Len()))
	}
	return buf.Bytes(), nil
}

// regular returns nil for a regular file, else ErrNotRegular naming what
// fi is.
func regular(fi os.FileInfo) error {
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
		kind = "a symlink"
	case m.IsDir():
		kind = "a directory"
	default:
		kind = "mode " + m.String()
	}
	return fmt.Errorf("%w: %s", ErrNotRegular, kind)
}

// pseudoFS holds the statfs(2) magic numbers (linux/magic.h) of the kernel
// pseudo-filesystems readRegular refuses: proc, sysfs, debugfs, tracefs,
// securityfs, configfs, efivarfs, cgroup and cgroup2, bpf.
var pseudoFS = map[uint32]bool{
	0x9fa0: true, 0x62656572: true, 0x64626720: true, 0x74726163: true, 0x73636673: true,
	0x62656570: true, 0xde5e81e4: true, 0x27e0eb: true, 0x63677270: true, 0xcafe4a11: true,
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

// FindWorkspace returns the workspace root for dir: the nearest ancestor
// holding .git (a directory, or a file as in worktrees and submodules), else
// dir itself; made absolute, cleaned and symlink-resolved.
func FindWorkspace(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding workspace for %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		if d == filepath.Dir(d) {
			return abs, nil
		}
	}
}
