package soak

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// goEnv is the compiler's environment for the Go project: nothing is
// downloaded, no go.work or GOFLAGS from elsewhere applies.
func goEnv(env []string) []string {
	return append(env, "GOTOOLCHAIN=local", "GOWORK=off", "GOPROXY=off", "GOFLAGS=")
}

// compileGo asks the go command for the truth of the module in dir:
// `go list -e -export -test -gcflags=-e -json ./...` compiles every
// package and every package's tests, without linking (go build leaves
// test files out, go vet stops at the first error), and reports all
// errors of each (-e). The go command does not type-check what depends on
// a package that failed to build: those files are marked unknown. A
// program the build leaves out with `//go:build ignore` (a generator run
// by `go run gen.go`, which gopls checks as a package of its own: its
// standaloneTags) is compiled alone the same way, `go list … FILE`.
func compileGo(ctx context.Context, dir string, env []string, _ snapshot) (*truth, error) {
	out, code, err := runTool(ctx, dir, goEnv(env), "go", "list", "-e", "-export", "-test", "-gcflags=-e", "-json", "./...")
	if err != nil || code != 0 {
		return nil, fmt.Errorf("go list -e -export -test ./... exited %d: %v\n%s", code, err, out)
	}
	all, err := decodeGoList(out)
	if err != nil {
		return nil, err
	}
	t := goTruth(dir, all)
	for _, f := range goStandalone(dir, all) {
		out, code, err := runTool(ctx, dir, goEnv(env), "go", "list", "-e", "-export", "-gcflags=-e", "-json", f)
		if err != nil || code != 0 {
			return nil, fmt.Errorf("go list -e -export %s exited %d: %v\n%s", f, code, err, out)
		}
		pkgs, err := decodeGoList(out)
		if err != nil {
			return nil, err
		}
		alone := goTruth(dir, pkgs)
		t.merge(alone)
		t.output += alone.output
		maps.Copy(t.unknown, alone.unknown)
	}
	return t, nil
}

// goStandalone returns the programs of the packages that their build
// constraint leaves out as gopls's standalone files: package main, with a
// //go:build line naming the tag ignore (the default of gopls's
// standaloneTags). Paths are relative to dir with "./" before them, as
// the go command takes a file.
func goStandalone(dir string, pkgs []*goPackage) []string {
	var out []string
	for _, p := range pkgs {
		if p.ForTest != "" {
			continue
		}
		for _, name := range p.IgnoredGoFiles {
			path := filepath.Join(p.Dir, name)
			b, err := os.ReadFile(path)
			if err != nil || !goStandaloneRE.Match(b) || !goPackageMainRE.Match(b) {
				continue
			}
			if f := "./" + relTo(dir, path); !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// goStandaloneRE matches a //go:build line naming the tag ignore, and
// goPackageMainRE a package main clause.
var (
	goStandaloneRE  = regexp.MustCompile(`(?m)^//go:build\b.*\bignore\b`)
	goPackageMainRE = regexp.MustCompile(`(?m)^package main\b`)
)

// goTruth is the truth `go list -e -export -test` found for the module in
// dir: each package's (and test variant's) Error placed on its files and
// lines, and the files it could not check marked unknown.
func goTruth(dir string, all []*goPackage) *truth {
	t := newTruth("")
	pkgs := make(map[string]*goPackage) // the packages themselves, test variants left out
	for _, p := range all {
		if p.Error != nil {
			t.output += p.Error.Err + "\n"
			lines := strings.Split(p.Error.Err, "\n")
			if p.Error.Pos != "" {
				// An error go list places itself, as a //go:embed
				// pattern matching no file: "jobs/assets.go:7:12".
				lines = append(lines, p.Error.Pos+": "+p.Error.Err)
			}
			for _, l := range lines {
				if m := goErrorRE.FindStringSubmatch(l); m != nil {
					n, _ := strconv.Atoi(m[2])
					t.add(relTo(dir, m[1]), n)
				}
			}
		}
		// An import that resolves to no package (a package directory
		// renamed away) is an error at its import, go build's "no
		// required module provides package" there; the importing file's
		// package is not type-checked past it, so its file is partial.
		for _, e := range p.DepsErrors {
			if m := goErrorRE.FindStringSubmatch(e.Pos + ": "); m != nil {
				n, _ := strconv.Atoi(m[2])
				f := relTo(dir, m[1])
				t.add(f, n)
				t.partial[f] = true
				t.output += e.Pos + ": " + e.Err + "\n"
			}
		}
		if p.ForTest == "" && !strings.HasSuffix(p.ImportPath, ".test") {
			pkgs[p.ImportPath] = p
		}
	}
	markGoUnknown(t, dir, pkgs)
	return t
}

// goPackage is the part of `go list -json` the soak reads.
type goPackage struct {
	ImportPath                         string
	ForTest                            string // set on a package's test variants
	Dir                                string // absolute
	GoFiles, CgoFiles, InvalidGoFiles  []string
	IgnoredGoFiles                     []string // left out by build constraints
	TestGoFiles, XTestGoFiles          []string
	Imports, TestImports, XTestImports []string
	Error                              *struct{ Pos, Err string }
	// DepsErrors are the errors of loading the package's imports,
	// direct or not: Pos (file:line:col, relative to the go command's
	// directory) is the import that failed.
	DepsErrors []struct{ Pos, Err string }
}

// decodeGoList reads the stream of objects `go list -json` prints.
func decodeGoList(out string) ([]*goPackage, error) {
	var pkgs []*goPackage
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("decoding go list -json: %w", err)
		}
		pkgs = append(pkgs, &p)
	}
}

// goErrorRE matches a compiler error: "dir/file.go:12:5: message" (the
// column is left out for some errors), its path relative to the module
// (with or without "./") or absolute.
var goErrorRE = regexp.MustCompile(`^(\S+\.go):(\d+)(?::\d+)?: `)

// relTo makes path, absolute or relative to dir, relative to dir and
// slash-separated.
func relTo(dir, path string) string {
	if filepath.IsAbs(path) {
		if r, err := filepath.Rel(dir, path); err == nil {
			path = r
		}
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// markGoUnknown marks the files of the module in dir that the go command
// could not have checked: a package's files when a module package it
// imports (directly or not) failed to build; its test files also when it
// failed itself; its external test files also when its internal test
// files failed.
func markGoUnknown(t *truth, dir string, pkgs map[string]*goPackage) {
	failed := make(map[string]bool)
	files := func(p *goPackage, lists ...[]string) []string {
		var out []string
		for _, l := range lists {
			for _, name := range l {
				out = append(out, relTo(dir, filepath.Join(p.Dir, name)))
			}
		}
		return out
	}
	for path, p := range pkgs {
		failed[path] = p.Error != nil || anyError(t, files(p, p.GoFiles, p.CgoFiles, p.InvalidGoFiles))
	}
	mark := func(list []string, unknown bool) {
		for _, f := range list {
			if unknown {
				t.unknown[f] = true
			}
		}
	}
	for path, p := range pkgs {
		depsFailed := anyIn(failed, closure(pkgs, p.Imports, path))
		testFailed := failed[path] || depsFailed || anyIn(failed, closure(pkgs, p.TestImports, path))
		internal := files(p, p.TestGoFiles)
		mark(files(p, p.GoFiles, p.CgoFiles, p.InvalidGoFiles), depsFailed)
		mark(internal, testFailed)
		mark(files(p, p.XTestGoFiles), testFailed || anyError(t, internal) || anyIn(failed, closure(pkgs, p.XTestImports, path)))
	}
}

// closure returns the module packages reachable from imports through
// their non-test imports, self left out.
func closure(pkgs map[string]*goPackage, imports []string, self string) []string {
	seen := map[string]bool{self: true}
	var out []string
	var walk func([]string)
	walk = func(list []string) {
		for _, imp := range list {
			p, ok := pkgs[imp]
			if !ok || seen[imp] {
				continue
			}
			seen[imp] = true
			out = append(out, imp)
			walk(p.Imports)
		}
	}
	walk(imports)
	return out
}

func anyIn(set map[string]bool, list []string) bool {
	for _, s := range list {
		if set[s] {
			return true
		}
	}
	return false
}

func anyError(t *truth, files []string) bool {
	for _, f := range files {
		if len(t.errs[f]) > 0 {
			return true
		}
	}
	return false
}
