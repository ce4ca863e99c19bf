package workspace

import (
	"path/filepath"
	"strings"
)

// Alias returns root as dir spells it, when dir reaches root through a
// symlink above root: dir is a directory at or below the workspace root
// as a process or an agent names it (an event's cwd, the working
// directory from os.Getwd, which keeps $PWD's spelling, a --root given),
// absolute; root is clean, absolute and symlink-free (Find, Root). On
// macOS, where /tmp links to /private/tmp, dir "/tmp/w/sub" with root
// "/private/tmp/w" gives "/tmp/w"; a project under a linked directory
// (~/code → /Volumes/work/code) is the same case. An agent spells the
// files it edits as its working directory does, so without the alias
// every one of them would be lexically outside the root (Resolve).
//
// It is "" when there is no other spelling: dir spells root as root does,
// dir does not resolve or resolves outside root, or the symlink lies at or
// below root (dir is then inside root lexically, and Resolve follows the
// link). Only dir itself is resolved, as Find resolves it: nothing an
// event names is looked at.
func Alias(root, dir string) string {
	if root == "" || !filepath.IsAbs(dir) {
		return ""
	}
	dir = filepath.Clean(dir)
	if Inside(root, dir) {
		return ""
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	rel, ok := Rel(root, real)
	if !ok {
		return ""
	}
	alias := dir
	if rel != "." {
		// dir's last components must be rel's: the symlink is above root.
		suffix := string(filepath.Separator) + filepath.FromSlash(rel)
		if !strings.HasSuffix(dir, suffix) {
			return ""
		}
		alias = strings.TrimSuffix(dir, suffix)
	}
	if r, err := filepath.EvalSymlinks(alias); err != nil || r != root {
		return ""
	}
	return alias
}

// Respell returns path in root's spelling when it is spelled through alias
// (Alias): an absolute path lexically inside alias, and not inside root,
// has the alias replaced by root, cleaned ("/tmp/w/a.go" becomes
// "/private/tmp/w/a.go"). Any other path, and any path when alias is "",
// is returned as it is. It is lexical: the path respelled still goes
// through Resolve, which follows its symlinks below root.
func Respell(root, alias, path string) string {
	if alias == "" || !filepath.IsAbs(path) || Inside(root, path) {
		return path
	}
	rel, ok := Rel(alias, path)
	if !ok {
		return path
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}
