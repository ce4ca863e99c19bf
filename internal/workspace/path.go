package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is the error for a path outside the workspace root: lexically
// ("../x", "/etc/passwd"), or through a symlink that leads out. Callers
// branch on it with errors.Is.
var ErrOutside = errors.New("outside the workspace")

// Resolve turns path — absolute, or relative to root — into a clean
// absolute path inside root, following symlinks so that a link leading
// out of the workspace is refused too. root must be clean, absolute and
// symlink-free (Find and Root return such roots).
//
// The checks, in order: an empty path or one holding a NUL byte is an
// error; the cleaned path must lie inside root lexically (ErrOutside: no
// "..", no other tree, nothing outside is even looked at, /proc/self/root/…
// included); then its symlinks are resolved and the real path must lie
// inside root too (ErrOutside "(symlink to X)"). A path that does not
// exist is returned cleaned but unresolved, as a new file's path is,
// provided its directory, if it resolves, resolves inside root
// (ErrOutside "(directory links to X)"). Any other failure to resolve (a
// symlink loop, a file used as a directory, a permission) is returned as
// it is. Nothing is opened: reading safely is the caller's business
// (internal/safefile).
func Resolve(root, path string) (string, error) {
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
	if !Inside(root, path) {
		return "", ErrOutside
	}
	real, err := filepath.EvalSymlinks(path)
	switch {
	case err == nil:
		if !Inside(root, real) {
			return "", fmt.Errorf("%w (symlink to %s)", ErrOutside, real)
		}
		return real, nil
	case errors.Is(err, os.ErrNotExist):
		// A new file: its directory must still resolve inside the root.
		dir, derr := filepath.EvalSymlinks(filepath.Dir(path))
		if derr == nil && !Inside(root, dir) {
			return "", fmt.Errorf("%w (directory links to %s)", ErrOutside, dir)
		}
		return path, nil
	default:
		return "", err
	}
}

// Inside reports whether path is root or lies below it, lexically: no file
// is looked at and symlinks are not followed. Both must be absolute; they
// are compared cleaned, and on Windows without regard to letter case
// (filepath.Rel's rules).
func Inside(root, path string) bool {
	_, ok := Rel(root, path)
	return ok
}

// Rel returns path relative to root, slash-separated ("src/a.go"; "."
// for root itself), and false when path is not root or below it (then
// ""). It is lexical, as Inside is, whose rules it shares.
func Rel(root, path string) (string, bool) {
	if !filepath.IsAbs(root) || !filepath.IsAbs(path) {
		return "", false
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Display returns path as reports and messages show it: relative to root
// and slash-separated when it is root or below it (Rel); else path itself,
// when it is absolute, and slash-separated when it is relative already,
// empty, or there is no root ("").
func Display(root, path string) string {
	if path == "" || !filepath.IsAbs(path) || root == "" {
		return filepath.ToSlash(path)
	}
	if rel, ok := Rel(root, path); ok {
		return rel
	}
	return path
}

// Contains reports whether the workspace at root holds p in any of its
// spellings: p (made absolute), or the file its symlinks lead to, lies
// inside root or inside the directory root's own symlinks lead to. It is
// the wide question "could the repository have put this here?" (a program
// such as node_modules/.bin/eslint, or a symlink of its own to anything),
// asked before running a program of an untrusted workspace; Resolve is
// the narrow one asked before reading a file.
func Contains(root, p string) bool {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	roots := []string{root}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
		roots = append(roots, real)
	}
	paths := []string{p}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
		paths = append(paths, real)
	}
	for _, r := range roots {
		for _, q := range paths {
			if Inside(r, q) {
				return true
			}
		}
	}
	return false
}
