package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// skipDirs are the directories no listing enters, whatever .gitignore
// says or git tracks: git's own, and npm's dependencies.
var skipDirs = []string{".git", "node_modules"}

// inSkipDir reports whether the root-relative slash path rel lies in a
// skipped directory.
func inSkipDir(rel string) bool {
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if slices.Contains(skipDirs, path.Base(dir)) {
			return true
		}
	}
	return false
}

// walk lists, for a root outside any git work tree, at most max (> 0) or
// all (max <= 0) of the regular files below root that are not ignored,
// root-relative and slash-separated; capped reports that there were more.
// Symlinks are not followed; skipDirs are skipped, and so is what
// .gitignore files ignore: as in git, a directory's .gitignore applies
// below it, a deeper file's lines and later lines take precedence, "!"
// re-includes, and nothing below an ignored directory can be re-included.
// Patterns are matched by go-git's gitignore package.
func walk(ctx context.Context, root string, max int) (files []string, capped bool, err error) {
	inForce := make(map[string][]gitignore.Pattern) // directory (root-relative slash path) → patterns applying below it
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
		rel, _ := Rel(root, p)
		if rel == "." {
			inForce[rel], err = readGitignore(p, nil)
			return err
		}
		parts := strings.Split(rel, "/")
		parent := inForce[path.Dir(rel)]
		if !d.IsDir() {
			if !d.Type().IsRegular() || gitignore.NewMatcher(parent).Match(parts, false) {
				return nil
			}
			if max > 0 && len(files) == max {
				capped = true
				return filepath.SkipAll
			}
			files = append(files, rel)
			return nil
		}
		if slices.Contains(skipDirs, d.Name()) || gitignore.NewMatcher(parent).Match(parts, true) {
			return filepath.SkipDir
		}
		own, err := readGitignore(p, parts)
		inForce[rel] = append(slices.Clip(parent), own...)
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("walking %s: %w", root, err)
	}
	return files, capped, nil
}

// readGitignore parses dir's .gitignore, if any, into patterns for the
// directory whose root-relative path components are domain. Blank lines and
// lines starting with "#" are skipped; a CRLF line end is one line end.
func readGitignore(dir string, domain []string) ([]gitignore.Pattern, error) {
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ps []gitignore.Pattern
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps, nil
}
