package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The large workspaces of part 2: real modules from the module cache,
// copied without their tests, each with the package its edits go to.
//
//   - -module (gopkg.in/yaml.v3): one package of ~11k lines. gopls
//     re-checks the whole package on each edit, and go build stops at its
//     first type error, so this is the hook's hardest case.
//   - -multi (golang.org/x/tools/gopls, at the version of the gopls on
//     PATH) with -multi-pkg (internal/settings): ~116k lines in ~100
//     packages, the shape a typical agent works in. internal/settings holds
//     gopls's options; the cache, golang, server and cmd packages import it
//     and it imports the module's analyzers, so it sits in the middle of
//     the import graph: an edit there is seen by about a fifth of the
//     module (a leaf's edit by nothing else; protocol or util/bug, imported
//     by a third, would be the root of everything), and after a fix go
//     build ./... recompiles what imports it while gopls re-checks it.

// Sizes the -multi module must have, so that it is a real multi-package
// module and not a large single package.
const (
	minMultiLines    = 50_000
	minMultiPackages = 30
)

// largeModule is a module part 2 copies as a large workspace.
type largeModule struct {
	path  string // module path (-module, -multi)
	pkg   string // the edited package's directory, slash-separated, relative to the module root; "" for the root
	dir   string // the copy's directory name under the temporary tree
	multi bool   // it must have minMultiLines and minMultiPackages, and pkg an importer
}

// largeModules are the large workspaces -module and -multi select, in
// report order.
func (o options) largeModules() []largeModule {
	mods := []largeModule{{path: o.module, dir: "large"}}
	if o.multi != "" {
		mods = append(mods, largeModule{path: o.multi, pkg: strings.Trim(o.multiPkg, "/"), dir: "multi", multi: true})
	}
	return mods
}

// moduleSource finds mod in the module cache: the version this module
// requires, else, for diagGoModule (gopls is not a requirement), the
// version of the gopls on PATH, which make tools installs with go install,
// leaving its source and its requirements' in the cache. It returns the
// source's directory and the version.
func (b *bench) moduleSource(ctx context.Context, mod string) (dir, version string, err error) {
	if mod == diagGoModule {
		at, err := goplsModule(ctx, b.env)
		if err != nil {
			return "", "", err
		}
		_, version, _ = strings.Cut(at, "@")
		dir, err = downloadModule(ctx, b.onlineEnv(), at)
		return dir, version, err
	}
	info, err := output(ctx, "", os.Environ(), "go", "list", "-m", "-f", "{{.Dir}}\t{{.Version}}", mod)
	if err != nil {
		return "", "", fmt.Errorf("finding %s in the module cache: %w", mod, err)
	}
	dir, version, _ = strings.Cut(info, "\t")
	if dir == "" {
		return "", "", fmt.Errorf("%s is not in the module cache (go mod download %s)", mod, mod)
	}
	return dir, version, nil
}

// largeWorkspace copies m from the module cache without its tests, and
// tidies its go.mod with the user's GOPROXY: tidy reads the go.mod of the
// test-only requirements too, which a fresh module cache does not have.
// Everything after runs with GOPROXY=off.
func (b *bench) largeWorkspace(ctx context.Context, m largeModule) (*workspace, error) {
	src, version, err := b.moduleSource(ctx, m.path)
	if err != nil {
		return nil, err
	}
	ws := &workspace{name: m.path + "@" + version, dir: filepath.Join(b.tmp, m.dir), pkg: m.pkg}
	b.workspaces = append(b.workspaces, ws)
	if err := copyTree(src, ws.dir, true); err != nil {
		return nil, err
	}
	if _, err := output(ctx, ws.dir, b.onlineEnv(), "go", "mod", "tidy"); err != nil {
		return nil, fmt.Errorf("tidying the copy of %s: %w", ws.name, err)
	}
	if err := b.finishWorkspace(ctx, ws); err != nil {
		return nil, err
	}
	switch g := ws.graph; {
	case ws.lines < minLargeLines:
		return nil, fmt.Errorf("%s has %d lines of non-test Go, want ≥ %d: pick another -module", ws.name, ws.lines, minLargeLines)
	case m.multi && (ws.lines < minMultiLines || g.packages < minMultiPackages):
		return nil, fmt.Errorf("%s has %d lines in %d packages, want ≥ %d in ≥ %d: pick another -multi",
			ws.name, ws.lines, g.packages, minMultiLines, minMultiPackages)
	case m.multi && g.importers == 0:
		return nil, fmt.Errorf("no package of %s imports %s: pick a -multi-pkg others import", ws.name, ws.pkgArg())
	}
	return ws, nil
}

// importGraph is where the edited package sits in its module's import
// graph, from go list: how many packages the module has, how many of them
// import the edited one (directly or not), and how many it imports.
type importGraph struct {
	packages  int
	importers int
	imports   int
}

// readImportGraph fills ws.graph.
func (b *bench) readImportGraph(ctx context.Context, ws *workspace) error {
	out, err := output(ctx, ws.dir, b.env, "go", "list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .Deps \" \"}}", "./...")
	if err != nil {
		return fmt.Errorf("listing the packages of %s: %w", ws.name, err)
	}
	type pkg struct {
		path string
		deps []string
	}
	var pkgs []pkg
	inModule := make(map[string]bool)
	edited, editDir := "", filepath.Dir(ws.target)
	for line := range strings.Lines(out) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 3 {
			return fmt.Errorf("listing the packages of %s: unexpected line %q", ws.name, line)
		}
		pkgs = append(pkgs, pkg{f[0], strings.Fields(f[2])})
		inModule[f[0]] = true
		if f[1] == editDir {
			edited = f[0]
		}
	}
	if edited == "" {
		return fmt.Errorf("go list ./... in %s does not list the package of %s", ws.name, ws.target)
	}
	g := importGraph{packages: len(pkgs)}
	for _, p := range pkgs {
		if slices.Contains(p.deps, edited) {
			g.importers++
		}
		if p.path == edited {
			for _, d := range p.deps {
				if inModule[d] {
					g.imports++
				}
			}
		}
	}
	ws.graph = g
	return nil
}

// pkgArg is the edited package as go vet takes it: "./internal/settings",
// or "." for the root.
func (ws *workspace) pkgArg() string {
	if ws.pkg == "" || ws.pkg == "." {
		return "."
	}
	return "./" + ws.pkg
}

// graphSentence says where the edited package sits in the import graph:
// "The edits go to ./internal/settings, which 19 of the module's 100
// packages import (directly or not) and which imports 33 of them".
func (ws *workspace) graphSentence() string {
	g := ws.graph
	return fmt.Sprintf("The edits go to %s, which %d of the module's %d packages import (directly or not) and which imports %d of them",
		ws.pkgArg(), g.importers, g.packages, g.imports)
}
