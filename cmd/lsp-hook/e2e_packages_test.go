package main_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestTypeScriptPackageInstalled: the agent imports a package, sees
// "Cannot find module", installs it (npm install writes node_modules,
// which the watcher never descends into), and edits again; then removes
// it. Each answer is what tsc reports on the same files: after the
// install the error the package's types give, not the module error kept
// from before it; after the removal the module error again.
func TestTypeScriptPackageInstalled(t *testing.T) {
	e2e(t)
	requireExe(t, "typescript-language-server")
	w := newWorkspaceOf(t, "langs/ts", "", []string{"PATH=" + langPath()})
	const text = "import { count } from \"fakepkg\";\n\nexport const n: number = count();\n"
	steps := []struct {
		name   string
		change func()
		want   string // a substring of tsc's one error
	}{
		{"before the install", func() {}, "TS2307"},
		{"installed", func() {
			testdir.WriteTree(t, w.root, map[string]string{
				"node_modules/fakepkg/package.json": `{"name": "fakepkg", "version": "1.0.0", "types": "index.d.ts"}`,
				"node_modules/fakepkg/index.d.ts":   "export declare function count(): string;\n",
				"node_modules/.package-lock.json":   "{}",
			})
		}, "TS2322"},
		{"removed", func() {
			if err := os.RemoveAll(filepath.Join(w.root, "node_modules")); err != nil {
				t.Fatal(err)
			}
		}, "TS2307"},
	}
	for i, st := range steps {
		st.change()
		content := text + strings.Repeat("//\n", i) // each edit another text
		block := w.hook(w.edit("s", "src/x.ts", content))
		truth, out, _ := compile(t, w.root, nil, tsErrRE, filepath.Join(npmBin(), "tsc"), "--noEmit", "--pretty", "false", "-p", ".")
		if len(truth) != 1 || !strings.Contains(string(out), st.want) {
			t.Fatalf("%s: tsc reports %v, want one %s\n%s", st.name, truth, st.want, out)
		}
		if p := judge(t, w.root, block, truth); p != "" || strings.Contains(block, "lsp-hook:") ||
			st.want == "TS2322" && strings.Contains(block, "Cannot find module") {
			t.Errorf("%s: %s\nhook:\n%s", st.name, p, indent(block))
		}
	}
}

// TestTypeScriptMonorepo: monorepos whose projects each have a
// tsconfig.json — an npm-workspaces one (testdata/ts-monorepo: @acme/app
// imports @acme/core by its package name, linked into node_modules, and
// @acme/web by a relative path) and an Nx-style one (testdata/ts-nx:
// apps/web imports libs/core by the name tsconfig.base.json's paths map).
// An edit of core that breaks its callers in the other projects lists
// them, as `tsc -p` of each project reports them; the fix lists nothing.
// With a server per project, and bare specifiers not followed, the edit
// was answered clean.
func TestTypeScriptMonorepo(t *testing.T) {
	e2e(t)
	requireExe(t, "typescript-language-server")
	for _, tc := range []struct {
		project  string
		link     bool     // link node_modules/@acme/core to packages/core, as npm install does
		edited   string   // the file of core the edits go to
		projects []string // tsc -p each
		broken   int      // tsc's errors once greet takes a number
	}{
		{"ts-monorepo", true, "packages/core/src/index.ts", []string{"packages/core", "packages/app", "packages/web"}, 2},
		{"ts-nx", false, "libs/core/src/lib/greet.ts", []string{"libs/core", "apps/web"}, 1},
	} {
		t.Run(tc.project, func(t *testing.T) {
			w := newWorkspaceOf(t, tc.project, "", []string{"PATH=" + langPath()})
			if tc.link {
				if err := os.MkdirAll(filepath.Join(w.root, "node_modules", "@acme"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join("..", "..", "packages", "core"), filepath.Join(w.root, "node_modules", "@acme", "core")); err != nil {
					t.Fatal(err)
				}
			}
			truth := func() []compilerErr { // tsc -p each project, side by side (5 s a run here)
				each := make([][]compilerErr, len(tc.projects))
				var wg sync.WaitGroup
				for i, p := range tc.projects {
					wg.Go(func() {
						each[i], _, _ = compile(t, w.root, nil, tsErrRE, filepath.Join(npmBin(), "tsc"), "--noEmit", "--pretty", "false", "-p", p)
					})
				}
				wg.Wait()
				return slices.Concat(each...)
			}
			original := mustRead(t, filepath.Join(w.root, filepath.FromSlash(tc.edited)))
			w.judgeEdits(t, tc.edited, []judgedStep{ // tsc's errors over the projects
				{"a comment", original + "// unchanged API\n", 0},
				{"greet takes a number", strings.Replace(original, "greet(name: string)", "greet(name: number)", 1), tc.broken},
				{"fixed", original, 0},
			}, truth)
			st, ok := w.status()
			if !ok {
				t.Fatal("no daemon answers status after the edits")
			}
			w.oneServer(st, "typescript-language-server")
		})
	}
}
