package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file keeps an ImportIndex up to date: the root's listing and each
// candidate file's imports, refreshed on each call from a stat of every
// file, or, while the index watches the workspace (dependents_watch.go),
// of the files the watcher saw change.

// updateLocked brings files and parsed up to date. With what a complete
// watcher saw (seen.complete), it lists the root again only when files
// appeared or went, and stats only the files that changed and those not
// parsed yet. Otherwise it lists again when the listing is older than
// listTTL or misses a target modified since it was made (a new file: the
// agent is creating files), and stats every file. ix.mu must be held.
func (ix *ImportIndex) updateLocked(ctx context.Context, targets map[string]importRules, seen watchSeen) error {
	relist := ix.listed.IsZero() || seen.relist
	if !seen.complete {
		relist = relist || time.Since(ix.listed) > listTTL
		for rel := range targets {
			if relist || slices.Contains(ix.files, rel) {
				continue
			}
			fi, err := os.Lstat(filepath.Join(ix.root, filepath.FromSlash(rel)))
			relist = err == nil && fi.ModTime().After(ix.listed.Add(-clockSlack))
		}
	}
	if relist {
		if err := ix.listLocked(ctx); err != nil {
			return err
		}
	}
	var check []int // indexes into ix.files of the files to stat
	for i, rel := range ix.files {
		if _, ok := ix.parsed[rel]; !ok || !seen.complete || seen.changed[rel] {
			check = append(check, i)
		}
	}
	ix.stats = len(check)
	return ix.refreshLocked(ctx, check)
}

// listLocked lists the root again (ws.Files, its first
// MaxScannedFiles files: in a bigger tree the rest are never searched) and
// forgets the parsed files no longer listed. ix.mu must be held.
func (ix *ImportIndex) listLocked(ctx context.Context) error {
	listed := time.Now()
	all, _, err := ws.Files(ctx, ix.root, MaxScannedFiles)
	if err != nil {
		return fmt.Errorf("listing the files of %s: %w", ix.root, err)
	}
	ix.files, ix.flagDirs, ix.pyRoots = ix.files[:0], make(map[string]bool), make(map[string]bool)
	var manifests, tsconfigs []string // package.json and tsconfig files, for jsPackages
	for _, rel := range all {
		switch base := path.Base(rel); {
		case base == compileFlags:
			ix.flagDirs[path.Dir(rel)] = true
		case base == packageJSON && !inSkippedDir(rel):
			manifests = append(manifests, rel)
		case isTSConfig(base) && !inSkippedDir(rel):
			tsconfigs = append(tsconfigs, rel)
		case slices.Contains(pyProjectFiles, base) && !inSkippedDir(rel):
			ix.pyRoots[rootKey(path.Dir(rel))] = true
			ix.pyRoots[rootKey(path.Join(path.Dir(rel), "src"))] = true
			if base == "pyproject.toml" {
				pyrightRoots(ix.root, rel, ix.pyRoots)
			}
		case base == "pyrightconfig.json" && !inSkippedDir(rel):
			pyrightRoots(ix.root, rel, ix.pyRoots)
		}
		if ix.candidate(rel) {
			ix.files = append(ix.files, rel)
		}
	}
	ix.jsPackages = nil
	if ix.server.Serves(".ts") || ix.server.Serves(".js") {
		ix.jsPackages = jsPackages(ix.root, manifests, tsconfigs)
	}
	ix.listed = listed
	listedSet := make(map[string]bool, len(ix.files))
	for _, rel := range ix.files {
		listedSet[rel] = true
	}
	for rel := range ix.parsed {
		if !listedSet[rel] {
			delete(ix.parsed, rel)
		}
	}
	return nil
}

// candidate reports whether a listed file can be a dependent: served by
// the server, in a language with import rules, outside skipped directories.
func (ix *ImportIndex) candidate(rel string) bool {
	ext := path.Ext(rel)
	return ix.server.Serves(ext) && rulesFor(ext) != nil && !inSkippedDir(rel)
}

// inSkippedDir reports whether a root-relative slash path lies in a
// directory the watcher skips (skipDirs: node_modules, .venv, …).
func inSkippedDir(rel string) bool {
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if slices.Contains(skipDirs, path.Base(dir)) {
			return true
		}
	}
	return false
}

// refreshLocked stats the files of check (indexes into ix.files) and
// (re)parses the new and changed ones, forgetting those gone from the
// disk. Both steps run on every CPU: stats are most of an unwatched warm
// call's time. ix.mu must be held.
func (ix *ImportIndex) refreshLocked(ctx context.Context, check []int) error {
	infos := make([]fs.FileInfo, len(check))
	inParallel(len(check), func(k int) {
		fi, err := os.Lstat(filepath.Join(ix.root, filepath.FromSlash(ix.files[check[k]])))
		if err == nil && fi.Mode().IsRegular() && fi.Size() <= maxDependentFileSize {
			infos[k] = fi
		}
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	var stale []int // indexes into check of the files to read
	for k, fi := range infos {
		rel := ix.files[check[k]]
		if fi == nil {
			delete(ix.parsed, rel)
		} else if pf, ok := ix.parsed[rel]; !ok || pf.size != fi.Size() || !pf.modTime.Equal(fi.ModTime()) {
			stale = append(stale, k)
		}
	}
	refs := make([][]importRef, len(stale))
	errs := make([]error, len(stale))
	inParallel(len(stale), func(j int) {
		rel := ix.files[check[stale[j]]]
		text, err := os.ReadFile(filepath.Join(ix.root, filepath.FromSlash(rel)))
		if err != nil {
			errs[j] = err
			return
		}
		refs[j] = rulesFor(path.Ext(rel)).parse(text)
	})
	for j, k := range stale {
		rel, fi := ix.files[check[k]], infos[k]
		switch {
		case errs[j] == nil:
			ix.parsed[rel] = parsedFile{size: fi.Size(), modTime: fi.ModTime(), refs: refs[j]}
		case unreadable(errs[j]):
			delete(ix.parsed, rel)
		default:
			return fmt.Errorf("reading %s for its imports: %w", rel, errs[j])
		}
	}
	return nil
}

// inParallel calls f(0) … f(n-1) on up to GOMAXPROCS goroutines and
// returns when all have returned.
func inParallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+63)/64)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				f(i)
			}
		})
	}
	wg.Wait()
}

// unreadable reports a file that went away between stat and read, became
// a directory, or cannot be read for its permissions: none of these fails
// the search, the file is just not a dependent.
func unreadable(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EISDIR)
}
