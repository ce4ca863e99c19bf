package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
)

// This file selects the files `lsp-hook diagnose` checks. It works in three
// steps, each on root-relative slash paths ("src/a.go"):
//
//  1. The listing: every file of the workspace that is not ignored
//     (Files: git ls-files in a git work tree, a walk honouring
//     .gitignore files outside one; regular files only).
//  2. The arguments select from the listing (a directory, a glob) or name a
//     file directly, which is then taken even when ignored. With
//     FileQuery.SkipFixtures, a directory or glob passes over fixtures
//     (see Fixture) below what it names.
//  3. --changed intersects with the files git reports as changed, and
//     --shard keeps this shard's part.

// FileQuery says which files CollectFiles selects.
type FileQuery struct {
	// Root is the workspace root: absolute, as Find returns it.
	Root string
	// Args are what the user named: files, directories and doublestar
	// globs ("src/**/*.ts"), relative to Dir or absolute. None means the
	// whole root. See CollectFiles for how each is taken.
	Args []string
	// Dir is the directory relative Args are resolved against (the
	// process's working directory), made absolute if it is not; empty
	// means Root.
	Dir string
	// Changed keeps only files git reports as changed against Base.
	Changed bool
	// Base is the git revision Changed compares with. Empty: HEAD, so the
	// changes are the uncommitted ones, staged or not, plus untracked
	// files. A revision ("origin/main"): everything that changed since the
	// merge-base of Base and HEAD, committed on this branch or not yet
	// committed, plus untracked files — what a pull request changes. It
	// must be one revision (not "A...B") and not start with '-'.
	Base string
	// Importers, with Changed, adds to the changed files the files it
	// returns for them: it is given the changed files selected, the
	// changed files Want refuses (a compile_flags.txt can break what is
	// checked), and the tracked files the change deleted (Deleted),
	// absolute, and returns
	// absolute paths (lsp.Importers: the files the change can break,
	// which a check of the changed files alone would pass over). Those
	// the arguments select (as Want and SkipFixtures leave them) are kept;
	// nil adds none.
	Importers func(ctx context.Context, changed []string) ([]string, error)
	// Shard and Shards select shard Shard (1-based) of Shards; 0 and 0
	// mean no sharding. See ParseShard.
	Shard, Shards int
	// Want, when set, keeps the files found through a directory, a glob or
	// the whole root for which it returns true (checkable files, say by
	// extension). It gets absolute paths. Files named explicitly are
	// always kept.
	Want func(path string) bool
	// SkipFixtures leaves out, of what a directory, a glob or the whole
	// root selects, the files no build or vet would look at: those inside a
	// directory named testdata, and Go files the go command ignores (see
	// fixture). Test fixtures are broken on purpose; diagnose would fail
	// every Go repository that keeps analyzer or parser fixtures. A
	// fixture directory that an argument names, or lies inside, is taken
	// ("diagnose testdata/", "diagnose 'testdata/**/*.json'"), and so is
	// a file named explicitly.
	SkipFixtures bool
}

// Errors CollectFiles returns, wrapped with the argument or root concerned.
var (
	// ErrNoFiles: a directory or glob argument selects no file that is not
	// ignored; almost always a typo, so it is not silently a clean run.
	ErrNoFiles = errors.New("no files that are not ignored")
	// ErrNotGit: --changed was asked for outside a git work tree.
	ErrNotGit = errors.New("not inside a git work tree")
)

// CollectFiles returns the files q selects: absolute, cleaned, sorted and
// without duplicates.
//
// Each argument is resolved against q.Dir and must lie inside the root
// (ErrOutside otherwise; a symlink is followed only to decide
// that). An existing file is taken even when .gitignore ignores it, like
// ripgrep does; an existing directory contributes the files of the listing
// below it, so ignore rules do apply inside a named directory. An argument
// that does not exist is a doublestar glob when it holds one of *?[{,
// matched against the listing's root-relative slash paths, and an error
// wrapping fs.ErrNotExist otherwise. A directory or glob that selects
// nothing is ErrNoFiles. q.Want filters what directories, globs and the
// whole root contribute.
//
// Then q.Changed keeps the files git reports as added, copied, modified or
// type-changed against q.Base (a rename counts as an added file; deleted
// files never appear), plus untracked files that are not ignored; outside a
// git work tree it is ErrNotGit. Last, sharding keeps the files whose
// shardOf is q.Shard. Files named explicitly go through both filters too.
func CollectFiles(ctx context.Context, q FileQuery) ([]string, error) {
	if q.Shard != 0 || q.Shards != 0 {
		if err := checkShard(q.Shard, q.Shards); err != nil {
			return nil, fmt.Errorf("selecting shard %d/%d: %w", q.Shard, q.Shards, err)
		}
	}
	root, err := cleanRoot(q.Root)
	if err != nil {
		return nil, err
	}
	c := &collector{ctx: ctx, root: root, dir: q.Dir, want: q.Want, skipFixtures: q.SkipFixtures, picked: make(map[string]bool)}
	if c.dir == "" {
		c.dir = root
	} else if c.dir, err = filepath.Abs(c.dir); err != nil {
		return nil, fmt.Errorf("resolving %s: %w", q.Dir, err)
	}
	c.alias = Alias(root, c.dir) // arguments come spelled as the working directory spells the root
	if real, err := filepath.EvalSymlinks(c.dir); err == nil {
		c.dir = real // Resolve compares with the symlink-free root
	}
	if q.Changed && !InGit(root) {
		return nil, fmt.Errorf("selecting changed files in %s: %w", root, ErrNotGit)
	}
	if len(q.Args) == 0 {
		if err := c.under("."); err != nil {
			return nil, err
		}
	}
	for _, a := range q.Args {
		if err := c.arg(a); err != nil {
			return nil, fmt.Errorf("selecting %s: %w", a, err)
		}
	}
	var changed map[string]bool
	if q.Changed {
		if changed, err = Changed(ctx, root, q.Base); err != nil {
			return nil, err
		}
		if q.Importers != nil {
			if err := c.addImporters(changed, q); err != nil {
				return nil, err
			}
		}
	}
	var out []string
	for rel := range c.picked {
		if changed != nil && !changed[rel] {
			continue
		}
		if q.Shards > 0 && shardOf(rel, q.Shards) != q.Shard {
			continue
		}
		out = append(out, filepath.Join(root, filepath.FromSlash(rel)))
	}
	slices.Sort(out)
	return out, nil
}

// addImporters adds to changed (root-relative) the files q.Importers
// returns for the changed files picked, those the change deleted and the
// changed files Want refuses, when the arguments picked them. A changed
// file nothing checks can still break files that are checked — a
// compile_flags.txt, a go.sum, a file a //go:embed pattern matches — so it
// is given to Importers whatever the arguments select; what it breaks is
// kept only where they select it.
func (c *collector) addImporters(changed map[string]bool, q FileQuery) error {
	var abs []string
	for rel := range changed {
		p := filepath.Join(c.root, filepath.FromSlash(rel))
		if c.picked[rel] || c.want != nil && !c.want(p) {
			abs = append(abs, p)
		}
	}
	gone, err := Deleted(c.ctx, c.root, q.Base)
	if err != nil {
		return err
	}
	for _, rel := range gone {
		abs = append(abs, filepath.Join(c.root, filepath.FromSlash(rel)))
	}
	if len(abs) == 0 {
		return nil
	}
	slices.Sort(abs)
	more, err := q.Importers(c.ctx, abs)
	if err != nil {
		return fmt.Errorf("finding the importers of the changed files: %w", err)
	}
	for _, p := range more {
		if rel, ok := Rel(c.root, p); ok && c.picked[rel] {
			changed[rel] = true
		}
	}
	return nil
}

// collector gathers the files the arguments select. It is used by one
// goroutine.
type collector struct {
	ctx          context.Context
	root, dir    string
	alias        string // root as dir spells it, through a symlink (Alias); "" when the same
	want         func(string) bool
	skipFixtures bool
	listing      []string // root-relative slash paths, sorted; nil until listed
	picked       map[string]bool
}

// arg adds what one argument selects.
func (c *collector) arg(a string) error {
	p := a
	if !filepath.IsAbs(p) {
		p = filepath.Join(c.dir, p)
	}
	real, err := Resolve(c.root, Respell(c.root, c.alias, p))
	if err != nil {
		return err
	}
	rel, _ := Rel(c.root, real) // inside: Resolve says so
	fi, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist) && strings.ContainsAny(a, "*?[{"):
		return c.glob(rel) // real is p cleaned: Resolve resolves no path that does not exist
	case errors.Is(err, fs.ErrNotExist):
		return fs.ErrNotExist
	case err != nil:
		return err
	case fi.IsDir():
		return c.under(rel)
	case fi.Mode().IsRegular():
		c.picked[rel] = true
		return nil
	}
	return safefile.ErrNotRegular
}

// under adds the listed files below the root-relative directory dir ("."
// for the root).
func (c *collector) under(dir string) error {
	files, err := c.list()
	if err != nil {
		return err
	}
	var n, fixtures int
	for _, rel := range files {
		if dir == "." || strings.HasPrefix(rel, dir+"/") {
			if c.add(rel, dir) {
				n++
			} else {
				fixtures++
			}
		}
	}
	if n == 0 && dir != "." {
		return noFiles(fixtures)
	}
	return nil
}

// noFiles is ErrNoFiles, saying so when test fixtures were all there was.
func noFiles(fixtures int) error {
	if fixtures > 0 {
		return fmt.Errorf("%w: %d test fixtures skipped (--fixtures checks them)", ErrNoFiles, fixtures)
	}
	return ErrNoFiles
}

// glob adds the listed files that pattern, a root-relative doublestar
// pattern, matches.
func (c *collector) glob(pattern string) error {
	if !doublestar.ValidatePattern(pattern) {
		return fmt.Errorf("bad glob %q", pattern)
	}
	files, err := c.list()
	if err != nil {
		return err
	}
	base, _ := doublestar.SplitPattern(pattern) // the fixed leading directories
	var n, fixtures int
	for _, rel := range files {
		if doublestar.MatchUnvalidated(pattern, rel) {
			if c.add(rel, base) {
				n++
			} else {
				fixtures++
			}
		}
	}
	if n == 0 {
		return noFiles(fixtures)
	}
	return nil
}

// add picks a file found through a directory or glob, below the
// root-relative directory named ("." for the root), if want takes it. When
// fixtures are skipped and rel is one below named, it is not picked and add
// returns false.
func (c *collector) add(rel, named string) bool {
	if c.skipFixtures {
		below := rel
		if named != "." && named != "" {
			below = strings.TrimPrefix(rel, named+"/")
		}
		if Fixture(below) {
			return false
		}
	}
	if c.want == nil || c.want(filepath.Join(c.root, filepath.FromSlash(rel))) {
		c.picked[rel] = true
	}
	return true
}

// list returns the listing (see the top of this file), computing it once.
func (c *collector) list() ([]string, error) {
	if c.listing != nil {
		return c.listing, nil
	}
	files, _, err := Files(c.ctx, c.root, 0)
	if err != nil {
		return nil, fmt.Errorf("listing files in %s: %w", c.root, err)
	}
	c.listing = files
	return c.listing, nil
}

// cleanRoot checks that root is absolute and resolves its symlinks, as
// Resolve needs.
func cleanRoot(root string) (string, error) {
	if !filepath.IsAbs(root) {
		return "", fmt.Errorf("workspace root %q is not absolute", root)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("resolving workspace root: %w", err)
	}
	return real, nil
}
