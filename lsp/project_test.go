package lsp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// TestProjectFileChanged: a project file of the server (by base name), in
// its root or under it, counts as changed when modified after the slot
// was made or gone; any other file, or one outside the root, does not.
func TestProjectFileChanged(t *testing.T) {
	root := t.TempDir()
	write := func(rel string) string {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := write("tsconfig.json")
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	e := &entry{root: root, server: config.Server{ProjectFiles: []string{"tsconfig.json", "package.json"}}, created: time.Now().Add(-time.Minute)}
	tests := []struct {
		name string
		path string
		want bool
	}{
		{"unchanged since the slot was made", old, false},
		{"modified after", write("pkg/tsconfig.json"), true},
		{"gone", filepath.Join(root, "package.json"), true},
		{"not a project file", write("src/main.ts"), false},
		{"outside the root", filepath.Join(filepath.Dir(root), "tsconfig.json"), false},
		{"a sibling whose name begins like the root", root + "-other/tsconfig.json", false},
	}
	m := &Manager{}
	for _, tt := range tests {
		if got := m.projectFileChanged(e, tt.path); got != tt.want {
			t.Errorf("%s: projectFileChanged(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
	// The server started afresh for the gone package.json: named again,
	// it is no change to the new slot; back and gone again, it is.
	gone := filepath.Join(root, "package.json")
	again := &entry{root: root, server: e.server, created: time.Now().Add(time.Millisecond)}
	if m.projectFileChanged(again, gone) {
		t.Errorf("a project file gone before the slot was made counts as changed")
	}
	if !m.projectFileChanged(e, gone) {
		t.Errorf("a project file gone since an older slot was made no longer counts as changed")
	}
	write("package.json")
	if err := os.Chtimes(gone, past, past); err != nil {
		t.Fatal(err)
	}
	if m.projectFileChanged(again, gone) {
		t.Errorf("a project file back, unmodified since long before, counts as changed")
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if !m.projectFileChanged(again, gone) {
		t.Errorf("a project file back and gone again does not count as changed")
	}
	if got := e.rootProjectChanged(); got != "" {
		t.Errorf("rootProjectChanged = %q before the root's tsconfig.json changed", got)
	}
	write("tsconfig.json")
	if got := e.rootProjectChanged(); got != "tsconfig.json" {
		t.Errorf("rootProjectChanged = %q after the root's tsconfig.json changed, want tsconfig.json", got)
	}
}

// TestProjectPaths: the files a project file's change checks again are
// the open documents first, then the files the server serves under its
// root, no header and nothing in hidden or dependency directories, at
// most MaxProjectDocs, with a count of those left out.
func TestProjectPaths(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{"a.c", "b.c", "inc/a.h", "sub/c.c", ".hidden/d.c", "node_modules/e.c", "deps/f.c", "notes.txt"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	server := config.Server{Extensions: []string{".c", ".h"}, LanguageIDs: map[string]string{".c": "c", ".h": "c"}, DependencyDirs: []string{"deps"}}
	open := []string{filepath.Join(root, "b.c")}
	got, capped := projectPaths(root, server, open)
	want := []string{filepath.Join(root, "b.c"), filepath.Join(root, "a.c"), filepath.Join(root, "sub", "c.c")}
	if !slices.Equal(got, want) || capped {
		t.Errorf("projectPaths = %q, capped %v; want %q, not capped", got, capped, want)
	}
	for i := range MaxProjectDocs {
		if err := os.WriteFile(filepath.Join(root, "sub", fmt.Sprintf("gen%03d.c", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, capped = projectPaths(root, server, open)
	if len(got) != MaxProjectDocs || !capped || got[0] != open[0] {
		t.Errorf("projectPaths over the cap: %d paths (first %s), capped %v; want %d (first %s), capped", len(got), got[0], capped, MaxProjectDocs, open[0])
	}
}

// TestAsOthers: the files opened again for a project file's change move
// to the other files, with no state before; files left out past the cap
// make a fresh answer partial, saying so (ErrProjectCap).
func TestAsOthers(t *testing.T) {
	d := []diag.Diagnostic{{Line: 1, Column: 1, Severity: diag.SeverityError, Message: "m"}}
	o := Outcome{Root: "/r", Freshness: Fresh, ServerMS: 12,
		Files:        map[string][]diag.Diagnostic{"/r/tsconfig.json": nil, "/r/a.ts": d},
		OthersBefore: map[string][]diag.Diagnostic{"/r/a.ts": nil}}
	got := asOthers(o, []string{"/r/a.ts", "/r/gone.ts"}, false)
	if _, ok := got.Files["/r/a.ts"]; ok || len(got.Others["/r/a.ts"]) != 1 || got.Freshness != Fresh {
		t.Errorf("asOthers = %+v; want a.ts among the others, fresh", got)
	}
	if _, ok := got.OthersBefore["/r/a.ts"]; ok {
		t.Errorf("a.ts keeps a state before: %+v", got.OthersBefore)
	}
	over := asOthers(Outcome{Root: "/r", Freshness: Fresh, ServerMS: 12}, nil, true)
	if over.Freshness != Partial || !errors.Is(over.Err, ErrProjectCap) || over.ServerMS != 0 {
		t.Errorf("asOthers over the cap = %+v; want partial, ErrProjectCap", over)
	}
}
