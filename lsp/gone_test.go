package lsp

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// TestDeletedAndRestored: a module deleted (closed, then open) breaks its
// importer, and restored (`git checkout`) it must stop breaking it — the
// server must not keep the deleted file's absence. The hooks come late
// (150 ms, 300 ms), as agents' do. Real servers of three languages;
// typescript-language-server kept "Cannot find module" for good until it
// was told to take file events from the client (useClientFileWatcher).
func TestDeletedAndRestored(t *testing.T) {
	cases := []struct {
		server, exe  string
		files        map[string]string
		module, user string
		wantWhenGone string
	}{
		{"typescript-language-server", "typescript-language-server", map[string]string{
			"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}`,
			"src/util.ts":   "export function slug(s: string): string { return s; }\n",
			"src/a.ts":      "import { slug } from \"./util\";\n\nexport const x: string = slug(\"a\");\n",
		}, "src/util.ts", "src/a.ts", "Cannot find module"},
		{"pyright", "pyright-langserver", map[string]string{
			"pyrightconfig.json": "{}",
			"util.py":            "def slug(s: str) -> str:\n    return s\n",
			"a.py":               "from util import slug\n\nx: str = slug(\"a\")\n",
		}, "util.py", "a.py", "could not be resolved"},
		{"gopls", "gopls", map[string]string{
			"go.mod":  "module example.com/m\n\ngo 1.22\n",
			"util.go": "package main\n\nfunc slug(s string) string { return s }\n",
			"a.go":    "package main\n\nvar x = slug(\"a\")\n\nfunc main() {}\n",
		}, "util.go", "a.go", "undefined: slug"},
		{"clangd", "clangd", map[string]string{ // restoring re-checks a.c (forced): its deletion must re-check it again
			"compile_flags.txt": "-std=c11\n",
			"util.h":            "int slug(int s);\n",
			"a.c":               "#include \"util.h\"\n\nint x(void) { return slug(1); }\n",
		}, "util.h", "a.c", "'util.h' file not found"},
	}
	for _, tc := range cases {
		t.Run(tc.server, func(t *testing.T) {
			requireServer(t, tc.exe)
			dir := workspace(t, tc.files)
			cfg := config.Default()
			m := NewManager(cfg, dir, testLogger(t))
			t.Cleanup(m.Shutdown)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			module, user := filepath.Join(dir, tc.module), filepath.Join(dir, tc.user)
			text, _ := os.ReadFile(module)
			errorsIn := func(o []Outcome, path string, files bool) string {
				var msgs []string
				for _, out := range o {
					src := out.Others
					if files {
						src = out.Files
					}
					for _, d := range src[path] {
						if d.Severity == diag.SeverityError {
							msgs = append(msgs, d.Message)
						}
					}
				}
				return strings.Join(msgs, "; ")
			}
			// The module is not open the first time it goes (only its
			// importer was checked), and open the second time (its
			// restoring was checked).
			if o := m.Check(ctx, []Doc{{Path: user}}, 0); errorsIn(o, user, true) != "" {
				t.Fatalf("as written: %s has errors %q", tc.user, errorsIn(o, user, true))
			}
			for i := range 4 {
				if err := os.Remove(module); err != nil {
					t.Fatal(err)
				}
				// The hook comes at once, or late: the server's own watcher
				// may see it first.
				time.Sleep(time.Duration(i%2) * 150 * time.Millisecond)
				if got := errorsIn(m.Gone(ctx, []string{module}, 0), user, false); !strings.Contains(got, tc.wantWhenGone) {
					t.Fatalf("round %d, %s deleted: %s's errors %q, want %q", i, tc.module, tc.user, got, tc.wantWhenGone)
				}
				if err := os.WriteFile(module, text, 0o644); err != nil {
					t.Fatal(err)
				}
				time.Sleep(300 * time.Millisecond)
				o := m.Check(ctx, []Doc{{Path: module}}, 0)
				if got := errorsIn(o, user, false); got != "" {
					t.Errorf("round %d, %s restored: %s still has errors %q", i, tc.module, tc.user, got)
				}
				if got := errorsIn(m.Check(ctx, []Doc{{Path: user}}, 0), user, true); got != "" {
					t.Errorf("round %d, %s restored, %s checked: errors %q", i, tc.module, tc.user, got)
				}
			}
		})
	}
}

// TestGoneRechecksImporters: after a module is deleted, the importers a
// server that checks only open files (pyright) must re-check are found
// through the import index, ahead of the open documents near the module:
// zz.py, never opened, imports util.py; three unrelated files beside it
// are open. pyright's CLI reports zz.py broken; so must the deletion's
// answer.
func TestGoneRechecksImporters(t *testing.T) {
	requireServer(t, "pyright-langserver")
	dir := workspace(t, map[string]string{
		"pyrightconfig.json": "{}",
		"util.py":            "def slug(s: str) -> str:\n    return s\n",
		"aa.py":              "x = 1\n",
		"ab.py":              "y = 2\n",
		"ac.py":              "z = 3\n",
		"zz.py":              "from util import slug\n\nx: str = slug(\"a\")\n",
	})
	m, ctx := realManager(t, dir)
	for _, f := range []string{"aa.py", "ab.py", "ac.py"} {
		m.Check(ctx, []Doc{{Path: filepath.Join(dir, f)}}, 0)
	}
	util := filepath.Join(dir, "util.py")
	if err := os.Remove(util); err != nil {
		t.Fatal(err)
	}
	truth := pyrightCLI(t, dir)
	if len(truth["zz.py"]) == 0 {
		t.Fatalf("pyright's CLI finds zz.py clean after util.py's deletion: %v", truth)
	}
	var got []string
	for _, o := range m.Gone(ctx, []string{util}, 0) {
		got = append(got, positions(o.Others[filepath.Join(dir, "zz.py")])...)
	}
	if !slices.Equal(got, truth["zz.py"]) {
		t.Errorf("after util.py's deletion, zz.py errors at %v; pyright's CLI at %v", got, truth["zz.py"])
	}
}

// TestClangdWatcherDeletionThenForcedRecheck: a header deleted where only
// the watcher saw it (clangd 14 watches no files, so it is told nothing;
// the watcher's record is noteDeleted), then a forced re-check of an
// importer whose text is unchanged — it must go out again and answer
// what clang says, not reuse the forced re-check sent before the header
// went. Judged by clang -fsyntax-only.
func TestClangdWatcherDeletionThenForcedRecheck(t *testing.T) {
	requireServer(t, "clangd")
	dir := shapesProject(t, nil)
	m, ctx := realManager(t, dir)
	main, shapes := filepath.Join(dir, "src", "main.c"), filepath.Join(dir, "include", "shapes.h")
	for _, o := range m.Check(ctx, []Doc{{Path: main, Recheck: true}}, 0) {
		if got := positions(o.Files[main]); len(got) != 0 || o.Freshness != Fresh {
			t.Fatalf("before the deletion: %s, main.c errors at %v; want fresh and none", o.Freshness, got)
		}
	}
	if err := os.Remove(shapes); err != nil {
		t.Fatal(err)
	}
	for _, e := range m.readyEntries() {
		e.client.noteDeleted([]string{shapes}) // what the watcher does on the deletion
	}
	truth := clangErrors(t, dir, "src/main.c")["src/main.c"]
	if len(truth) == 0 {
		t.Fatal("clang reports no error in src/main.c without include/shapes.h")
	}
	var got []string
	for _, o := range m.Check(ctx, []Doc{{Path: main, Recheck: true}}, 0) {
		got = append(got, positions(o.Files[main])...)
	}
	if !slices.Equal(got, truth) {
		t.Errorf("forced re-check after include/shapes.h's deletion: src/main.c errors at %v; clang's at %v", got, truth)
	}
}

// TestClangdGoneAfterForcedRecheck: a header clangd never had open is
// deleted after a deletion's re-check forced its importer's unchanged
// text out again. The importer's next forced re-check must go out again:
// the header on disk changed under clangd though nothing was sent, and
// the re-check's answer must show the errors clang -fsyntax-only reports
// (the soak caught a Bash `rm include/shapes.h` answered clean, the
// earlier forced answer about the same text reused; seed 555, C #146).
func TestClangdGoneAfterForcedRecheck(t *testing.T) {
	requireServer(t, "clangd")
	dir := shapesProject(t, map[string]string{"src/extra.c": "int extra(void) { return 1; }\n"})
	m, ctx := realManager(t, dir)
	main, extra, shapes := filepath.Join(dir, "src", "main.c"), filepath.Join(dir, "src", "extra.c"), filepath.Join(dir, "include", "shapes.h")
	m.Check(ctx, []Doc{{Path: main}, {Path: extra}}, 0)
	if err := os.Remove(extra); err != nil {
		t.Fatal(err)
	}
	for _, o := range m.Gone(ctx, []string{extra}, 0) { // main.c's unchanged text goes out forced
		if got := positions(o.Others[main]); len(got) != 0 || o.Freshness != Fresh {
			t.Fatalf("after src/extra.c's deletion: %s, main.c errors at %v; want fresh and none", o.Freshness, got)
		}
	}
	if err := os.Remove(shapes); err != nil {
		t.Fatal(err)
	}
	truth := clangErrors(t, dir, "src/main.c")["src/main.c"]
	if len(truth) == 0 {
		t.Fatal("clang reports no error in src/main.c without include/shapes.h")
	}
	var got []string
	for _, o := range m.Gone(ctx, []string{shapes}, 0) {
		got = append(got, positions(o.Others[main])...)
	}
	if !slices.Equal(got, truth) {
		t.Errorf("after include/shapes.h's deletion, src/main.c errors at %v; clang's at %v", got, truth)
	}
}

// shapesProject writes the C project of the clangd deletion tests —
// src/main.c calling area() of include/shapes.h, which clangd 14 reads
// from disk and never has open — with the files of extra, and returns its
// directory.
func shapesProject(t *testing.T, extra map[string]string) string {
	t.Helper()
	files := map[string]string{
		"compile_flags.txt": "-std=c11\n-Iinclude\n",
		"include/shapes.h":  "#ifndef SHAPES_H\n#define SHAPES_H\nint area(int w, int h);\n#endif\n",
		"src/main.c":        "#include \"shapes.h\"\n\nint main(void) { return area(2, 3); }\n",
	}
	maps.Copy(files, extra)
	return workspace(t, files)
}
