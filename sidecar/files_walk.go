package sidecar

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

// walkFiles lists the files below root for a root outside any git work
// tree: regular files only (symlinks are not followed), skipping .git and
// node_modules directories and what .gitignore files ignore. As in git, a
// directory's .gitignore applies below it, a deeper file's lines and later
// lines take precedence, "!" re-includes, and nothing below an ignored
// directory can be re-included. Patterns are matched by go-git's gitignore
// package.
func walkFiles(ctx context.Context, root string) ([]string, error) {
	inForce := make(map[string][]gitignore.Pattern) // directory (root-relative slash path) → patterns applying below it
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return err
		}
		rel := relSlash(root, p)
		if rel == "." {
			inForce[rel], err = readGitignore(p, nil)
			return err
		}
		parts := strings.Split(rel, "/")
		parent := inForce[path.Dir(rel)]
		if !d.IsDir() {
			if d.Type().IsRegular() && !gitignore.NewMatcher(parent).Match(parts, false) {
				files = append(files, rel)
			}
			return nil
		}
		if name := d.Name(); name == ".git" || name == "node_modules" || gitignore.NewMatcher(parent).Match(parts, true) {
			return filepath.SkipDir
		}
		own, err := readGitignore(p, parts)
		inForce[rel] = append(slices.Clip(parent), own...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("walking %s: %w", root, err)
	}
	return files, nil
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
