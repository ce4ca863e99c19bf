package sidecar

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
// has some, else the file on disk, refusing non-regular files (devices,
// FIFOs, /proc), files over MaxFileSize, and binary content.
func readContent(path string, content *string) ([]byte, error) {
	var data []byte
	if content != nil {
		if len(*content) > MaxFileSize {
			return nil, ErrTooLarge
		}
		data = []byte(*content)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, ErrNotRegular
		}
		if fi.Size() > MaxFileSize {
			return nil, ErrTooLarge
		}
		data, err = io.ReadAll(io.LimitReader(f, MaxFileSize+1))
		if err != nil {
			return nil, err
		}
		if len(data) > MaxFileSize {
			return nil, ErrTooLarge
		}
	}
	if isBinary(data) {
		return nil, ErrBinary
	}
	return data, nil
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
