package lsp

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"golang.org/x/mod/modfile"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file opens, for a change of a Go module, one importer in each
// module of the workspace that uses it through a replace directive
// naming its directory (Go Modules Reference, "replace directive": a
// module path replaced by a file path) and that the server has no
// document of (config.Server.OpenReplacingModules: gopls). gopls makes a
// module's view only for a file it is given (gopls/doc/workspace.md,
// "zero-config gopls"), and diagnoses the packages of the views it has:
// a caller in such a module, never opened, was broken by the change and
// nothing said so (measured with v0.23.0, cmd/lsp-hook
// TestGoReplaceModules). Opened after the change, the importer makes
// gopls load its module, with the changed text, and publish every error
// of its packages. A go.work makes one view of its modules: this is for
// modules linked without one.

// maxGoModFiles bounds the go.mod files read for replace directives, and
// maxImporterScan the Go files of a module read for an import of the
// changed package.
const (
	maxGoModFiles   = 64
	maxImporterScan = 400
)

// goModLinks are the modules of a root that replace another module of it
// by its directory, from a listing at most goModListTTL old (goModLinks).
type goModLinks struct {
	at    time.Time
	files []string            // the listing, root-relative slash paths
	users map[string][]string // module directory → directories of the modules replacing it (absolute)
}

// replacingImporters returns, for the changed Go files, one importer of
// a changed file's package in each module that replaces that file's
// module by its directory and has no document open in the client (at
// most maxRecheckDependents in all), or nil when the server needs none.
func (c *Client) replacingImporters(ctx context.Context, changed []string) []string {
	if !c.server.OpenReplacingModules {
		return nil
	}
	modChanged := slices.ContainsFunc(changed, func(p string) bool { return filepath.Base(p) == "go.mod" })
	if !slices.ContainsFunc(changed, isGoFile) {
		if modChanged { // a replace directive may have come or gone
			c.goModLinks(ctx, true)
		}
		return nil
	}
	links := c.goModLinks(ctx, modChanged)
	var out []string
	for _, ch := range changed {
		if !isGoFile(ch) {
			continue
		}
		modDir, pkg, ok := goPackage(c.root, filepath.Dir(ch))
		if !ok {
			continue
		}
		for _, user := range links.users[modDir] {
			if len(out) >= maxRecheckDependents || c.openIn(user) {
				continue
			}
			for _, p := range goImportersIn(ctx, c.root, user, links.files, pkg, "", 1) {
				if !slices.Contains(out, p) {
					out = append(out, p)
					c.log.Debug("opening an importer in a module that replaces the changed one", "module", modDir, "user", user, "importer", p)
				}
			}
		}
	}
	return out
}

// goneGoImporters returns up to n Go files of the root (absolute), in the
// module of a gone Go file of gone, outside its directory and nested
// modules, that import its package: the callers its deletion may have
// broken, for the re-check after it (neighbours) to wait for. The server
// (gopls) diagnoses them unasked, but a check needs a document whose
// answer it waits for: with a package's only file deleted and no document
// open, the re-check had none, and what the deletion broke was silence
// (cmd/lsp-hook TestHookImportersThroughRelays/go: go build rejected two
// callers). The listing is goModLinks'; at most maxImporterScan Go files
// of the module are looked at for each package.
func (c *Client) goneGoImporters(ctx context.Context, gone []string, n int) []string {
	var out []string
	var files []string
	seen := make(map[string]bool) // packages looked for
	for _, g := range gone {
		if !isGoFile(g) || len(out) >= n {
			continue
		}
		dir := filepath.Dir(g)
		modDir, pkg, ok := goPackage(c.root, dir)
		if !ok || seen[pkg] {
			continue
		}
		seen[pkg] = true
		if files == nil {
			files = c.goModLinks(ctx, false).files
		}
		for _, p := range goImportersIn(ctx, c.root, modDir, files, pkg, dir, n) {
			if len(out) < n && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// isGoFile reports whether p is a .go file.
func isGoFile(p string) bool { return filepath.Ext(p) == ".go" }

// goModLinks returns the root's replace links. The root is listed (a git
// ls-files or a walk: milliseconds, on the path of the check) the first
// time, and again at once when fresh says a go.mod changed; a listing
// older than goModListTTL is refreshed in the background, the check
// using the one it has.
func (c *Client) goModLinks(ctx context.Context, fresh bool) goModLinks {
	c.modMu.Lock()
	links, have, busy := c.modLinks, !c.modLinks.at.IsZero(), c.modListing
	stale := have && time.Since(links.at) >= goModListTTL
	if stale && !fresh && !busy {
		c.modListing = true
	}
	c.modMu.Unlock()
	switch {
	case have && !fresh && stale && !busy:
		go func() {
			l, ok := c.listGoModLinks(c.life)
			c.modMu.Lock()
			if ok {
				c.modLinks = l
			}
			c.modListing = false
			c.modMu.Unlock()
		}()
		return links
	case have && !fresh:
		return links
	}
	l, ok := c.listGoModLinks(ctx)
	if !ok {
		return links
	}
	c.modMu.Lock()
	c.modLinks = l
	c.modMu.Unlock()
	return l
}

// goModListTTL is how long a listing of go.mod replace links serves.
const goModListTTL = 30 * time.Second

// listGoModLinks lists the root and reads the replace directives of its
// go.mod files (at most maxGoModFiles). ok is false when the listing
// failed (logged).
func (c *Client) listGoModLinks(ctx context.Context) (links goModLinks, ok bool) {
	files, _, err := ws.Files(ctx, c.root, MaxScannedFiles)
	if err != nil {
		c.log.Warn("listing the workspace for go.mod files", "err", err)
		return goModLinks{}, false
	}
	links = goModLinks{at: time.Now(), files: files, users: make(map[string][]string)}
	mods := 0
	for _, rel := range files {
		if path.Base(rel) != "go.mod" || inSkippedDir(rel) {
			continue
		}
		if mods++; mods > maxGoModFiles {
			break
		}
		dir := filepath.Join(c.root, filepath.FromSlash(path.Dir(rel)))
		data, err := readBounded(filepath.Join(dir, "go.mod"), maxDependentFileSize)
		if err != nil {
			continue
		}
		f, err := modfile.Parse("go.mod", data, nil) // not ParseLax: it drops replace directives
		if err != nil {
			continue
		}
		for _, r := range f.Replace {
			if !modfile.IsDirectoryPath(r.New.Path) {
				continue
			}
			target := filepath.Clean(r.New.Path)
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, target)
			}
			if target != dir && ws.Inside(c.root, target) && !slices.Contains(links.users[target], dir) {
				links.users[target] = append(links.users[target], dir)
			}
		}
	}
	return links, true
}

// openIn reports whether the client has a document open in dir or below.
func (c *Client) openIn(dir string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for uri := range c.docs {
		if p, err := uriToPath(uri); err == nil && ws.Inside(dir, p) {
			return true
		}
	}
	return false
}

// goModDir returns the directory of the nearest go.mod from dir up to
// root.
func goModDir(root, dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && fi.Mode().IsRegular() {
			return d, true
		}
		if rel, inside := ws.Rel(root, d); !inside || rel == "." {
			return "", false
		}
	}
}

// goImportersIn returns, in the listing's order, up to n Go files of
// the listing (root-relative slash paths) in the module at modDir,
// outside its nested modules and the directory skip ("" for none), that
// import the package pkg (absolute paths). Each file looked at counts,
// the stats for its go.mod up the tree included, and past
// maxImporterScan of them, or once ctx ends, it stops with what it has.
func goImportersIn(ctx context.Context, root, modDir string, files []string, pkg, skip string, n int) []string {
	var out []string
	scanned := 0
	for _, rel := range files {
		if len(out) >= n || ctx.Err() != nil {
			break
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if !isGoFile(p) || filepath.Dir(p) == skip || !ws.Inside(modDir, p) || inSkippedDir(rel) {
			continue
		}
		if scanned++; scanned > maxImporterScan {
			break
		}
		if d, ok := goModDir(root, filepath.Dir(p)); !ok || d != modDir {
			continue // a nested module's
		}
		if goImportsAny(p, func(ip string) bool { return ip == pkg }) {
			out = append(out, p)
		}
	}
	return out
}

// goImportsAny reports whether the Go file at path (read up to
// maxDependentFileSize, its imports parsed) imports a package whose
// import path want accepts; false when it cannot be read or parsed.
func goImportsAny(path string, want func(importPath string) bool) bool {
	text, err := readBounded(path, maxDependentFileSize)
	if err != nil {
		return false
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, text, parser.ImportsOnly)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool {
		ip, err := strconv.Unquote(s.Path.Value)
		return err == nil && want(ip)
	})
}
