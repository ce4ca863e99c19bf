package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestImporters: the files a batch check of changed files adds (lsp-hook
// diagnose --changed) reach every level of importers (importLevels) — a
// Go package's other files, its importers' packages, theirs and so on (d imports c imports b imports a); a TypeScript file's
// importers through a barrel, and far.ts a level past them; a C header's
// includers through another header — at most MaxDependents a server.
func TestImporters(t *testing.T) {
	root := tempDir(t)
	tree := map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"a/a.go":            "package a\n\nfunc F() int { return 1 }\n",
		"a/a2.go":           "package a\n",
		"a/testdata/x.go":   "package x\n\nimport \"example.com/m/a\"\n",
		"b/b.go":            "package b\n\nimport \"example.com/m/a\"\n\nvar F = a.F\n",
		"b/b2.go":           "package b\n\nvar G = F\n",
		"c/c.go":            "package c\n\nimport \"example.com/m/b\"\n\nvar X = b.F()\n",
		"d/d.go":            "package d\n\nimport \"example.com/m/c\"\n\nvar Y = c.X\n",
		"e/e.go":            "package e\n\nimport \"fmt\"\n",
		"f/embed.go":        "package f\n\nimport _ \"embed\"\n\n//go:embed assets/*.txt\nvar banner string\n",
		"f/assets/b.txt":    "hi\n",
		"tsconfig.json":     "{}",
		"src/greet.ts":      "export const greet = () => 1;\n",
		"src/index.ts":      "export { greet } from \"./greet\";\n",
		"src/use.ts":        "import { greet } from \"./index\";\n",
		"src/far.ts":        "import \"./use\";\n",
		"src/alone.ts":      "export {};\n",
		"compile_flags.txt": "-I.\n",
		"greet.h":           "void greet(void);\n",
		"relay.h":           "#include \"greet.h\"\n",
		"use.c":             "#include \"relay.h\"\n",
		"far.c":             "void far(void);\n",
	}
	for i := range MaxDependents + 5 {
		tree[fmt.Sprintf("wide/w%02d.ts", i)] = "import \"../src/wide\";\n"
	}
	tree["src/wide.ts"] = "export {};\n"
	testdir.WriteTree(t, root, tree)
	var tsFiles []string
	for name := range tree {
		if strings.HasSuffix(name, ".ts") {
			tsFiles = append(tsFiles, name)
		}
	}
	slices.Sort(tsFiles)
	rel := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			r, _ := filepath.Rel(root, p)
			out[i] = filepath.ToSlash(r)
		}
		return out
	}
	for _, tc := range []struct {
		name, changed string
		want          []string // nil: check capped only
		capped        bool
	}{
		{"a Go package: its files, its importers' packages, theirs, and so on", "a/a.go", []string{"a/a2.go", "b/b.go", "b/b2.go", "c/c.go", "d/d.go"}, false},
		{"a deleted Go package: the same", "a/gone.go", []string{"a/a.go", "a/a2.go", "b/b.go", "b/b2.go", "c/c.go", "d/d.go"}, false},
		{"a Go leaf: nothing imports it", "e/e.go", []string{}, false},
		{"a TypeScript file: through the barrel, and every level past it", "src/greet.ts", []string{"src/far.ts", "src/index.ts", "src/use.ts"}, false},
		{"a C header: its includers and theirs", "greet.h", []string{"relay.h", "use.c"}, false},
		// go build: "f/embed.go:5:12: pattern assets/*.txt: no matching files found".
		{"a file a //go:embed pattern matches, deleted: the embedding file", "f/assets/gone.txt", []string{"f/embed.go"}, false},
		{"a file no pattern matches", "f/assets/gone.md", []string{}, false},
		// A project's configuration: every file its server serves there
		// (go.mod's: every Go file of the module, testdata's too, which
		// diagnose's walk rules then leave out as fixtures).
		{"a C project's compile_flags.txt: its sources, no headers", "compile_flags.txt", []string{"far.c", "use.c"}, false},
		{"a TypeScript project's tsconfig.json: its files", "tsconfig.json", tsFiles, false},
		{"a Go module's go.mod: its files", "go.mod", []string{"a/a.go", "a/a2.go", "a/testdata/x.go", "b/b.go", "b/b2.go", "c/c.go", "d/d.go", "e/e.go", "f/embed.go"}, false},
		{"more importers than a server's cap", "src/wide.ts", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, capped, err := Importers(context.Background(), config.Default(), root, []string{filepath.Join(root, filepath.FromSlash(tc.changed))}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if capped != tc.capped {
				t.Errorf("capped %v, want %v", capped, tc.capped)
			}
			if tc.want == nil {
				if n := len(got); n != MaxDependents && n != MaxProjectDocs {
					t.Errorf("%d importers, want a cap, %d or %d", n, MaxDependents, MaxProjectDocs)
				}
				return
			}
			if g := rel(got); !slices.Equal(g, tc.want) {
				t.Errorf("importers\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestProjectsOfCapped: a changed project file whose project has more
// files than MaxProjectDocs adds that many and says it left some out.
func TestProjectsOfCapped(t *testing.T) {
	root := tempDir(t)
	tree := map[string]string{"pyrightconfig.json": "{}", "sub/pyrightconfig.json": "{}"}
	for i := range MaxProjectDocs + 5 {
		tree[fmt.Sprintf("m%03d.py", i)] = "x = 1\n"
	}
	tree["sub/only.py"] = "y = 1\n"
	testdir.WriteTree(t, root, tree)
	for _, tc := range []struct {
		changed string
		n       int
		capped  bool
	}{
		{"pyrightconfig.json", MaxProjectDocs, true},
		{"sub/pyrightconfig.json", 1, false},
		{"m000.py", 0, false},
	} {
		got, capped := projectsOf(config.Default(), []string{filepath.Join(root, tc.changed)})
		if len(got) != tc.n || capped != tc.capped {
			t.Errorf("%s changed: %d files, capped %v; want %d, %v", tc.changed, len(got), capped, tc.n, tc.capped)
		}
	}
}
