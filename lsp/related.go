package lsp

import (
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"strconv"

	"golang.org/x/mod/modfile"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file tells whether a change can have broken another file, for the
// baseline of a check that cannot tell what was wrong before it
// (before.go: a server with no whole answer yet): such a file's errors are shown, a file the
// change cannot reach keeps its errors as old.
//
//   - Go: a file of a changed file's package (its directory: the package's
//     files, and its tests, see each other's declarations), or one that
//     imports that package (The Go Programming Language Specification,
//     "Import declarations"), its import path being the path of the nearest
//     go.mod's module (Go Modules Reference, "go.mod files", module
//     directive) joined with the directory's path below it.
//   - The languages of dependents.go: an import that names a changed file,
//     by the rules there.
//   - Any other file, or one that cannot be read: it may have been broken.

// brokenBy reports whether the file at p (absolute) can have been broken by
// a change of the files changed (absolute), as this file's comment says.
func (c *Client) brokenBy(p string, changed []string) bool {
	text, err := readBounded(p, maxDependentFileSize)
	if err != nil {
		return true
	}
	if filepath.Ext(p) == ".go" {
		return goBrokenBy(c.root, p, text, changed)
	}
	rules := rulesFor(filepath.Ext(p))
	if rules == nil {
		return true
	}
	importer, inside := ws.Rel(c.root, p)
	if !inside {
		return true
	}
	q := &depQuery{root: c.root}
	refs := rules.parse(text)
	for _, ch := range changed {
		if target, ok := ws.Rel(c.root, ch); ok && rulesFor(filepath.Ext(ch)) == rules && importsAny(q, rules, importer, refs, target) {
			return true
		}
	}
	return false
}

// goBrokenBy is brokenBy for the Go file p, of text text, under root.
func goBrokenBy(root, p string, text []byte, changed []string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), p, text, parser.ImportsOnly)
	if err != nil {
		return true
	}
	imports := make(map[string]bool, len(f.Imports))
	for _, spec := range f.Imports {
		if ip, err := strconv.Unquote(spec.Path.Value); err == nil {
			imports[ip] = true
		}
	}
	for _, ch := range changed {
		if filepath.Ext(ch) != ".go" {
			if filepath.Base(ch) == "go.mod" || filepath.Base(ch) == "go.work" {
				return true // the module's requirements: anything may break
			}
			continue
		}
		dir := filepath.Dir(ch)
		if dir == filepath.Dir(p) {
			return true
		}
		if ip, ok := goImportPath(root, dir); !ok || imports[ip] {
			return true
		}
	}
	return false
}

// goImportPath returns the import path of the package in dir: the module
// path of the nearest go.mod from dir up to root, joined with dir's path
// below that go.mod's directory. ok is false when no go.mod is found or
// read.
func goImportPath(root, dir string) (string, bool) {
	_, ip, ok := goPackage(root, dir)
	return ip, ok
}

// goPackage is goImportPath, also returning the directory of the go.mod
// (the module's root).
func goPackage(root, dir string) (modDir, importPath string, ok bool) {
	d, ok := goModDir(root, dir)
	if !ok {
		return "", "", false
	}
	data, err := readBounded(filepath.Join(d, "go.mod"), maxDependentFileSize)
	mod := modfile.ModulePath(data)
	rel, relErr := filepath.Rel(d, dir)
	if err != nil || mod == "" || relErr != nil {
		return "", "", false
	}
	if rel == "." {
		return d, mod, true
	}
	return d, path.Join(mod, filepath.ToSlash(rel)), true
}
