package workspace

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The listing of a workspace: every file that is not ignored, as
// root-relative slash paths ("src/a.go"). Inside a git work tree (InGit)
// it is `git ls-files --cached --others --exclude-standard`, so nested
// .gitignore files, negations, .git/info/exclude and the global excludes
// file mean exactly what they mean to git; outside git, a walk honouring
// .gitignore files the same way (see walk). Either way nothing below a
// directory named .git or node_modules is listed, tracked or not, and
// only regular files that exist count: no symlinks (never followed, so
// nothing outside the root is reached through one), no submodules or
// their files, no files deleted from the working tree.
//
// `lsp-hook servers` counts this listing, lsp's import index searches it,
// and `lsp-hook diagnose` selects from it (less the fixtures it skips by
// default, see Fixture).

// Files returns the listing of the workspace at root (absolute), sorted
// and without duplicates: at most max files when max > 0, with capped
// reporting that there were more. A failure of git inside a work tree, or
// of the walk outside one (an unreadable directory), is an error, as is
// ctx ending.
func Files(ctx context.Context, root string, max int) (files []string, capped bool, err error) {
	if InGit(root) {
		files, capped, err = gitFiles(ctx, root, max)
	} else {
		files, capped, err = walk(ctx, root, max)
	}
	if err != nil {
		return nil, false, err
	}
	slices.Sort(files)
	files = slices.Compact(files)
	if files == nil {
		files = []string{}
	}
	return files, capped, nil
}

// regular reports whether the root-relative slash path rel is a regular
// file now (lstat: a symlink is not).
func regular(root, rel string) bool {
	fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil && fi.Mode().IsRegular()
}

// Fixture reports whether rel, a root-relative slash path, is a file
// builds and vets pass over: one with a directory named "testdata" in its
// path, or a Go file the go command ignores — in a directory named
// "vendor", or with a path element beginning with "." or "_" (`go help
// packages`: "Directory and file names that begin with "." or "_" are
// ignored by the go tool, as are directories named "testdata""). Test
// fixtures are broken on purpose: `lsp-hook diagnose` passes over them
// unless asked (--fixtures).
func Fixture(rel string) bool {
	elems := strings.Split(rel, "/")
	dirs := elems[:len(elems)-1]
	if slices.Contains(dirs, "testdata") {
		return true
	}
	if !strings.HasSuffix(rel, ".go") {
		return false
	}
	if slices.Contains(dirs, "vendor") {
		return true
	}
	return slices.ContainsFunc(elems, func(e string) bool {
		return strings.HasPrefix(e, ".") || strings.HasPrefix(e, "_")
	})
}
