package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchProject writes a Python project of 40 packages × 50 modules (2,000
// files of ~3 KB, each importing a module of the next package and a
// sibling) to a temp dir, made a git work tree with every file added when
// git is installed, and returns its root.
func benchProject(b *testing.B) string {
	b.Helper()
	files := make(map[string]string)
	body := strings.Repeat("def helper_{{i}}(x: int) -> int:\n    \"\"\"Return x doubled.\"\"\"\n    return x * 2 + len(str(x))\n\n\n", 30)
	for p := range 40 {
		files[fmt.Sprintf("pkg%d/__init__.py", p)] = ""
		for m := range 50 {
			files[fmt.Sprintf("pkg%d/mod%d.py", p, m)] = fmt.Sprintf("import os\nimport sys\nfrom pkg%d import mod%d\nfrom .mod%d import helper_1\n\n\n",
				(p+1)%40, m, (m+1)%50) + strings.ReplaceAll(body, "{{i}}", fmt.Sprint(m))
		}
	}
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
			if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
				b.Fatalf("git %v: %v: %s", args, err, out)
			}
		}
	}
	return root
}

// BenchmarkDependents measures one Write's search on the 2,000-file
// project. Unwatched: warm (the listing younger than listTTL: a stat per
// file), relist (the listing older: git ls-files, then a stat per file;
// the usual case, hooks being seconds apart). watched (the index watching
// the workspace's Watcher, nothing changed: a Sync with the watcher, no
// stat). cold (a new index: every file read and parsed, once per index).
func BenchmarkDependents(b *testing.B) {
	root := benchProject(b)
	server := catalogueServer(b, "pyright")
	changed := []string{filepath.Join(root, "pkg7", "mod3.py")}
	run := func(b *testing.B, ix *ImportIndex) {
		b.Helper()
		deps, _, err := ix.Dependents(context.Background(), changed)
		if err != nil || len(deps) != 2 { // pkg6/mod3.py (from pkg7 import mod3), pkg7/mod2.py (from .mod3)
			b.Fatalf("Dependents = %q, %v; want 2", deps, err)
		}
	}
	b.Run("warm", func(b *testing.B) {
		ix := NewImportIndex(server, root)
		run(b, ix)
		defer reportCPU(b)()
		for b.Loop() {
			ix.listed = time.Now()
			run(b, ix)
		}
	})
	b.Run("relist", func(b *testing.B) {
		ix := NewImportIndex(server, root)
		run(b, ix)
		defer reportCPU(b)()
		for b.Loop() {
			ix.listed = time.Time{}
			run(b, ix)
		}
	})
	b.Run("watched", func(b *testing.B) {
		w, err := NewWatcher(root, slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close()
		ix := NewImportIndex(server, root)
		ix.Watch(w)
		run(b, ix)
		defer reportCPU(b)()
		for b.Loop() {
			run(b, ix)
		}
	})
	b.Run("cold", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			run(b, NewImportIndex(server, root))
		}
	})
}

// reportCPU starts counting the CPU time the process and its children
// (git) use, and returns the function that reports it per iteration as
// cpu-ms/op: on a shared machine, wall time per op says more about the
// neighbours than about the code.
func reportCPU(b *testing.B) func() {
	before := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-before).Microseconds())/1000/float64(b.N), "cpu-ms/op") }
}

// BenchmarkCheckImporters measures a hook's importer walk on the
// 2,000-file project, the index watching the workspace (a warm daemon):
// "re-checked" is the part a check waits for (recheckLevels: the nearest
// importers and theirs), "the level past" the whole walk dependentsOf
// makes, the level past them looked for while the server checks, and
// "however far" a walk of every level (importLevels; a batch's). Each
// module has two direct importers: the walk finds 5 to re-check, 4 a
// level past them, and 20 however far.
func BenchmarkCheckImporters(b *testing.B) {
	root := benchProject(b)
	w, err := NewWatcher(root, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	ix := NewImportIndex(catalogueServer(b, "pyright"), root)
	ix.Watch(w)
	changed := []string{filepath.Join(root, "pkg7", "mod3.py")}
	for _, bc := range []struct {
		name   string
		levels int
		beyond int
	}{{"re-checked", 2, 0}, {"the level past", 3, 4}, {"however far", importLevels, MaxDependents}} {
		b.Run(bc.name, func(b *testing.B) {
			walk := func() {
				w := ix.walk(changed, nil, nil, maxRecheckDependents, 2)
				if err := w.to(context.Background(), bc.levels); err != nil || len(w.deps) != 5 || len(w.beyond) != bc.beyond {
					b.Fatalf("walk of %d levels: %d to re-check, %d past them, %v; want 5, %d", bc.levels, len(w.deps), len(w.beyond), err, bc.beyond)
				}
			}
			walk()
			defer reportCPU(b)()
			for b.Loop() {
				walk()
			}
		})
	}
}
