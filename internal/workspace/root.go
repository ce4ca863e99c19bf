package workspace

import (
	"fmt"
	"os"
	"path/filepath"
)

// Find returns the workspace root for dir: the nearest ancestor of dir (or
// dir itself) holding .git — a directory, or a file as in worktrees and
// submodules — else dir itself; made absolute, cleaned and, where it can
// be, symlink-resolved (a dir that does not resolve is used as it is).
// Hooks and commands run without --root find their root this way.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding workspace for %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if top, ok := gitTop(abs); ok {
		return top, nil
	}
	return abs, nil
}

// Root returns the root a command or the daemon was given: dir made
// absolute and symlink-free, which must exist and be a directory. Unlike
// Find it does not climb to a git top level. Without dir (""), it is Find
// of the working directory.
func Root(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return Find(wd)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("workspace root %s: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("workspace root %s: not a directory", dir)
	}
	return real, nil
}

// InGit reports whether root (absolute) is in a git work tree, by Find's
// rule: root or an ancestor holds .git.
func InGit(root string) bool {
	_, ok := gitTop(root)
	return ok
}

// gitTop returns the nearest of dir (absolute) and its ancestors that
// holds .git, and false when none does.
func gitTop(dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		if d == filepath.Dir(d) {
			return "", false
		}
	}
}
