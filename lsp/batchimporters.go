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
// callers. They are, as absolute paths, sorted, without changed, any
// number of imports away (importLevels): a caller through re-exports — a
// barrel index.ts, a package variable, a header including the changed
// one — is two away, through a barrel of barrels three, and CI is where a
// caller missed passes a broken pull request. A hook's check re-checks
// the nearest maxRecheckDependents within recheckLevels, and names those
// past them it finds while the server checks (importers.go).
//
//   - for each enabled server with import rules (config.Server
//     OpenDependents: pyright, typescript-language-server, clangd), the
//     files that import a changed file, those importing them, and so on
//     (an ImportIndex over root, the rules of dependents.go), at most
//     MaxDependents a server: capped reports that some were left out;
//   - for Go, the other files of a changed file's package, the files that
//     import its package (by import path, go.mod's module path and the
//     directory), those importing their packages, and so on, outside
//     vendor and testdata.
//
// A changed TypeScript file's dependents also include the files using
// what it declares in the global scope (dependents_globals.go), by its
// text now and by its text before the change, which before gives (nil:
// unknown; false for a file that did not exist); a changed file that is
// no Go file, the Go files whose //go:embed patterns may match it
// (embeddersOf); a changed project file, the files of its project
// (projectsOf), which capped also covers.
//
// err is a listing failure or ctx ending.
func Importers(ctx context.Context, cfg *config.Config, root string, changed []string, before func(path string) ([]byte, bool)) (importers []string, capped bool, err error) {
	seen := make(map[string]bool)
	for _, p := range changed {
		seen[p] = true
	}
	add := func(ps ...string) (added []string) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				added = append(added, p)
			}
		}
		importers = append(importers, added...)
		return added
	}
	for _, name := range sortedNames(cfg.LSP.Servers) {
		s := cfg.LSP.Servers[name]
		if !s.Enabled || !s.OpenDependents {
			continue
		}
		deps, beyond, more, err := NewImportIndex(s, root).transitive(ctx, changed, nil, globalsOfTexts(changed, before), nil, MaxDependents, importLevels, importLevels)
		if err != nil {
			return nil, false, err
		}
		add(deps...)
		capped = capped || more || len(beyond) > 0
	}
	if slices.ContainsFunc(changed, isGoFile) {
		deps, err := goImporters(ctx, root, changed)
		if err != nil {
			return nil, false, err
		}
		add(deps...)
	}
	// A file a //go:embed pattern matches, deleted (or renamed), leaves
	// its embedding file with "pattern …: no matching files found", which
	// go build reports there; no import names it (lsp/embed.go).
	add(embeddersOf(root, changed)...)
	projects, more := projectsOf(cfg, changed)
	add(projects...)
	capped = capped || more
	slices.Sort(importers)
	return importers, capped, nil
}

// projectsOf returns, for each of changed that configures a server's
// project — one of its ProjectFiles (a tsconfig.json, a
// pyrightconfig.json, a compile_flags.txt) or of the files it takes only
// as saved (SavedOnlyFiles: gopls's go.mod, go.work) — the files that
// server serves in the file's directory and below (projectPaths: no
// headers, nothing in hidden or dependency directories), at most
// MaxProjectDocs each; capped reports that a walk stopped there. A
// configuration change breaks files it does not touch: go.mod's go line
// lowered to 1.20 makes every min and max of the module an error, which
// go build reports and a check of go.mod alone does not.
func projectsOf(cfg *config.Config, changed []string) (paths []string, capped bool) {
	names := sortedNames(cfg.LSP.Servers)
	for _, p := range changed {
		for _, name := range names {
			s := cfg.LSP.Servers[name]
			if !s.Enabled || !s.IsProjectFile(p) && !s.IsSavedOnly(p) {
				continue
			}
			ps, more := projectPaths(filepath.Dir(p), s, nil)
			paths = append(paths, ps...)
			capped = capped || more
		}
	}
	return paths, capped
}

// goImporters returns the Go files under root (absolute) in the packages
// of the changed Go files, those importing one of those packages, and so
// on up to importLevels imports away.
func goImporters(ctx context.Context, root string, changed []string) ([]string, error) {
	files, _, err := ws.Files(ctx, root, MaxScannedFiles)
	if err != nil {
		return nil, err
	}
	var goFiles []string
	for _, rel := range files {
		if p := filepath.Join(root, filepath.FromSlash(rel)); isGoFile(p) && !inSkippedDir(rel) && !slices.Contains(splitDir(rel), "testdata") {
			goFiles = append(goFiles, p)
		}
	}
	dirs := make(map[string]bool) // the packages' directories found so far
	var level []string            // and the directories of the last level
	for _, p := range changed {
		if d := filepath.Dir(p); isGoFile(p) && !dirs[d] {
			dirs[d] = true
			level = append(level, d)
		}
	}
	var out []string
	for _, p := range goFiles { // the changed packages' other files
		if dirs[filepath.Dir(p)] {
			out = append(out, p)
		}
	}
	for range importLevels {
		paths := make(map[string]bool) // the last level's import paths
		for _, d := range level {
			if _, ip, ok := goPackage(root, d); ok {
				paths[ip] = true
			}
		}
		level = nil
		for _, p := range goFiles {
			if d := filepath.Dir(p); !dirs[d] && goImportsAny(p, func(ip string) bool { return paths[ip] }) {
				dirs[d] = true
				level = append(level, d)
			}
		}
		for _, p := range goFiles { // every file of a package found, importing or not: they share its scope
			if slices.Contains(level, filepath.Dir(p)) {
				out = append(out, p)
			}
		}
		if len(level) == 0 {
			break
		}
	}
	return out, nil
}

// globalsOfTexts returns, for the files of changed that can declare
// TypeScript globals (absolute path → names), the names their texts
// before declared, as before gives them; nil when before is.
func globalsOfTexts(changed []string, before func(path string) ([]byte, bool)) map[string][]string {
	if before == nil {
		return nil
	}
	out := make(map[string][]string)
	for _, p := range changed {
		if !declaresGlobals(p) {
			continue
		}
		if text, ok := before(p); ok {
			out[p] = tsGlobals(text)
		}
	}
	return out
}
