package lsp

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzImportParsers feeds any text to the Python, JavaScript and C import
// parsers: none may panic, each must give the same answer twice, and what
// each returns must be what its rules can match: Python module names (with
// relative dots) and identifiers, relative JavaScript specifiers and
// package names, and C include names found in the text, none spanning
// lines.
func FuzzImportParsers(f *testing.F) {
	for _, set := range [][]depCase{pyCases, tsCases, cCases} {
		for _, c := range set {
			for _, text := range c.files {
				f.Add([]byte(text))
			}
		}
	}
	f.Add([]byte("from . import (a,\n b as c, *)\\\nimport x.y;import z"))
	f.Add([]byte("from\t..a.b\timport\t(\n"))
	f.Add([]byte("import('./a')require(\"../b\")from`./c`#include <d.h>\n#import \"e\"\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		for _, rules := range []importRules{pyRules{}, jsRules{}, cRules{}} {
			refs := rules.parse(text)
			if again := rules.parse(text); !slices.EqualFunc(refs, again, refEqual) {
				t.Fatalf("%T: two parses differ: %v, %v", rules, refs, again)
			}
			for _, r := range refs {
				checkRef(t, rules, text, r)
				for _, target := range []string{"a.py", "a/b.ts", "a/index.js", "x/a.h", "a/__init__.py", "__init__.py"} {
					rules.names(&depQuery{root: "/nonexistent", jsPackages: map[string]string{"e": "e", "@a/b": "a"}}, "a/b/c.x", r, target)
				}
			}
		}
	})
}

func refEqual(a, b importRef) bool {
	return a.path == b.path && a.angle == b.angle && a.pkg == b.pkg && slices.Equal(a.names, b.names)
}

// checkRef fails the test when r is not something rules can have found in
// text.
func checkRef(t *testing.T, rules importRules, text []byte, r importRef) {
	t.Helper()
	if r.path == "" || strings.ContainsAny(r.path, "\r\n") {
		t.Fatalf("%T: empty or multi-line path %q", rules, r.path)
	}
	switch rules.(type) {
	case pyRules:
		if !pyDotted(r.path, true) {
			t.Fatalf("python: %q is not a module name", r.path)
		}
		for _, n := range r.names {
			if !pyIdentifier(n) {
				t.Fatalf("python: name %q is not an identifier", n)
			}
		}
	case jsRules:
		if !jsRelative(r.path) && jsPackageName(r.path) == "" || !bytes.Contains(text, []byte(r.path)) {
			t.Fatalf("js: %q is not a relative or package specifier of the text", r.path)
		}
	case cRules:
		if !bytes.Contains(text, []byte(r.path)) || len(r.names) != 0 {
			t.Fatalf("c: %q is not an include name of the text", r.path)
		}
	}
}

// FuzzCompileDB feeds any bytes to the compilation database reader as a
// compile_commands.json: it must not panic, and every include directory
// it returns must lie under the root, relative to it, each once.
func FuzzCompileDB(f *testing.F) {
	f.Add([]byte(`[{"directory": ".", "file": "a.c", "command": "cc -I'inc dir' -iquote q -isystem /abs -c a.c"}]`))
	f.Add([]byte(`[{"directory": "/", "arguments": ["cc", "-I", "..", "--include-directory=x", "-idirafter"]}]`))
	f.Add([]byte(`[{"command": "cc -I\"unterminated"}, {}, null, 3]`))
	f.Fuzz(func(t *testing.T, text []byte) {
		root := t.TempDir()
		file := filepath.Join(root, "build", "compile_commands.json")
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, text, 0o644); err != nil {
			t.Fatal(err)
		}
		dirs := compileDBIncludeDirs(root, file)
		seen := make(map[string]bool)
		for _, d := range dirs {
			if seen[d] || filepath.IsAbs(d) || d == ".." || strings.HasPrefix(d, "../") {
				t.Fatalf("include directory %q: repeated, absolute or outside the root (all: %q)", d, dirs)
			}
			seen[d] = true
		}
	})
}

// FuzzJSPackages feeds any bytes to the workspace package reader as a
// package.json and as a tsconfig.json: it must not panic, and every
// package it returns must be named as jsPackageName takes names and map
// to a directory under the root, relative to it.
func FuzzJSPackages(f *testing.F) {
	f.Add([]byte(`{"name": "@acme/core", "workspaces": ["packages/*"]}`))
	f.Add([]byte("{\n  // comment\n  \"compilerOptions\": {\"baseUrl\": \"..\", \"paths\": {\"@a/b\": [\"x/y.ts\"], \"c\": [\"../../z\"], \"*\": [\"*\"]},},\n}"))
	f.Add([]byte(`{"compilerOptions": {"paths": {"@a/b": []}}, "name": 3}`))
	f.Fuzz(func(t *testing.T, text []byte) {
		root := t.TempDir()
		for _, rel := range []string{"pkg/package.json", "pkg/tsconfig.json"} {
			writeFile(t, root, rel, string(text))
		}
		for name, dir := range jsPackages(root, []string{"pkg/package.json"}, []string{"pkg/tsconfig.json"}) {
			if jsPackageName(name) != name || filepath.IsAbs(dir) || dir == ".." || strings.HasPrefix(dir, "../") {
				t.Fatalf("package %q → %q: not a package name, or not under the root", name, dir)
			}
		}
	})
}

// FuzzPyrightRoots feeds any bytes to the reader of pyright's import
// paths as a pyrightconfig.json and as a pyproject.toml: it must not
// panic, and every directory it adds must lie under the root, relative.
func FuzzPyrightRoots(f *testing.F) {
	f.Add([]byte("{\"extraPaths\": [\"a\", \"../../x\", \"/abs\"], \"executionEnvironments\": [{\"root\": \"src\", \"extraPaths\": [\"b\"]}],}"))
	f.Add([]byte("[tool.pyright]\nextraPaths = [\"vendored\"]\n[[tool.pyright.executionEnvironments]]\nroot = \"..\"\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		root := t.TempDir()
		for _, rel := range []string{"pkg/pyrightconfig.json", "pkg/pyproject.toml"} {
			writeFile(t, root, rel, string(text))
			roots := make(map[string]bool)
			pyrightRoots(root, rel, roots)
			for d := range roots {
				if filepath.IsAbs(d) || d == "." || d == ".." || strings.HasPrefix(d, "../") {
					t.Fatalf("%s: root %q is not a root-relative directory under the root", rel, d)
				}
			}
		}
	})
}
