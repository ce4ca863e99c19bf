package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestReplacingImporters: a change of a Go module opens one importer of
// the changed package in each module of the root that replaces it by its
// directory and has no document open — not a module replacing it by a
// module path or naming another directory, not a nested module's file,
// not a file that does not import the changed package.
func TestReplacingImporters(t *testing.T) {
	root := tempDir(t)
	testdir.WriteTree(t, root, map[string]string{
		"lib/go.mod":        "module example.com/lib\n\ngo 1.22\n",
		"lib/lib.go":        "package lib\n",
		"lib/sub/sub.go":    "package sub\n",
		"app/go.mod":        "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
		"app/a.go":          "package main\n\nimport \"fmt\"\n",
		"app/b.go":          "package main\n\nimport _ \"example.com/lib/sub\"\n",
		"app/c.go":          "package main\n\nimport \"example.com/lib\"\n",
		"app/nested/go.mod": "module example.com/nested\n",
		"app/nested/n.go":   "package n\n\nimport \"example.com/lib\"\n",
		"tool/go.mod":       "module example.com/tool\n\ngo 1.22\n\nreplace example.com/lib v1.0.0 => example.com/fork v1.0.0\n",
		"tool/t.go":         "package main\n\nimport \"example.com/lib\"\n",
		"other/go.mod":      "module example.com/other\n\nreplace (\n\texample.com/lib => ../lib/\n\texample.com/x => ./x\n)\n",
		"other/o.go":        "package o\n\nimport \"example.com/lib\"\n",
		"broken/go.mod":     "module example.com/broken\n\nreplace example.com/lib => ../lib junk\n",
		"broken/k.go":       "package k\n\nimport \"example.com/lib\"\n",
	})
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	c := &Client{root: root, log: testLogger(t), docs: map[string]*document{}}
	c.server.OpenReplacingModules = true
	for _, tc := range []struct {
		name    string
		changed []string
		open    []string
		want    []string
	}{
		{"the module's root package", []string{p("lib/lib.go")}, nil, []string{p("app/c.go"), p("other/o.go")}},
		{"a package below it", []string{p("lib/sub/sub.go")}, nil, []string{p("app/b.go")}},
		{"a module with a document open has its view", []string{p("lib/lib.go")}, []string{p("app/a.go")}, []string{p("other/o.go")}},
		{"not a Go file", []string{p("lib/README.md")}, nil, nil},
		{"a module nothing replaces", []string{p("app/c.go")}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.docs = map[string]*document{}
			for _, o := range tc.open {
				c.docs[pathToURI(o)] = &document{}
			}
			got := c.replacingImporters(context.Background(), tc.changed)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("replacingImporters(%v) = %v, want %v", tc.changed, got, tc.want)
			}
		})
	}
	// A module that comes later is found once its go.mod is a change,
	// within the listing's time to live.
	c.docs = map[string]*document{}
	testdir.WriteTree(t, root, map[string]string{
		"late/go.mod": "module example.com/late\n\nreplace example.com/lib => ../lib\n",
		"late/l.go":   "package l\n\nimport \"example.com/lib\"\n",
	})
	c.replacingImporters(context.Background(), []string{p("late/go.mod")})
	if got := c.replacingImporters(context.Background(), []string{p("lib/lib.go")}); !slices.Contains(got, p("late/l.go")) {
		t.Errorf("after late/go.mod changed: %v, want late/l.go among them", got)
	}
	c.server.OpenReplacingModules = false
	if got := c.replacingImporters(context.Background(), []string{p("lib/lib.go")}); got != nil {
		t.Errorf("a server without OpenReplacingModules got %v", got)
	}
}
