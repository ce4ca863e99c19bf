package lsp

import (
	"context"
	"path/filepath"
	"slices"

	"github.com/lsp-hook/lsp-hook/config"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// Importers returns the files under root that a change of the files of
// changed (absolute paths; deleted ones too) can break, for a batch check
// of the changed files only (`lsp-hook diagnose --changed`), whose answer
// would otherwise be clean over a caller the change broke — a pull request
// changing a function's parameters passed CI while tsc reported its
// callers. They are, as absolute paths, sorted, without changed:
//
//   - for each enabled server with import rules (config.Server
//     OpenDependents: pyright, typescript-language-server, clangd), the
//     files that import a changed file directly (ImportIndex over root, the
//     rules of dependents.go, at most MaxDependents a server: capped
//     reports that some were left out);
//   - for Go, the other files of a changed file's package and the files
//     that import its package (by import path, go.mod's module path and
//     the directory), outside vendor and testdata.
//
// err is a listing failure or ctx ending.
func Importers(ctx context.Context, cfg *config.Config, root string, changed []string) (importers []string, capped bool, err error) {
	seen := make(map[string]bool)
	for _, p := range changed {
		seen[p] = true
	}
	add := func(ps ...string) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				importers = append(importers, p)
			}
		}
	}
	for _, name := range sortedNames(cfg.LSP.Servers) {
		s := cfg.LSP.Servers[name]
		if !s.Enabled || !s.OpenDependents {
			continue
		}
		deps, more, err := NewImportIndex(s, root).Dependents(ctx, changed)
		if err != nil {
			return nil, false, err
		}
		add(deps...)
		capped = capped || more
	}
	if slices.ContainsFunc(changed, isGoFile) {
		deps, err := goImporters(ctx, root, changed)
		if err != nil {
			return nil, false, err
		}
		add(deps...)
	}
	slices.Sort(importers)
	return importers, capped, nil
}

// goImporters returns the Go files under root (absolute) in the packages
// of the changed Go files, and those importing one of those packages.
func goImporters(ctx context.Context, root string, changed []string) ([]string, error) {
	dirs := make(map[string]bool)  // the changed packages' directories
	paths := make(map[string]bool) // and their import paths
	for _, p := range changed {
		if !isGoFile(p) {
			continue
		}
		dirs[filepath.Dir(p)] = true
		if _, ip, ok := goPackage(root, filepath.Dir(p)); ok {
			paths[ip] = true
		}
	}
	files, _, err := ws.Files(ctx, root, MaxScannedFiles)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, rel := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if !isGoFile(p) || inSkippedDir(rel) || slices.Contains(splitDir(rel), "testdata") {
			continue
		}
		if dirs[filepath.Dir(p)] {
			out = append(out, p)
			continue
		}
		if goImportsAny(p, func(ip string) bool { return paths[ip] }) {
			out = append(out, p)
		}
	}
	return out, nil
}
