package main_test

import (
	"os"
	"path/filepath"
	"strings"
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

// TestTypeScriptMonorepo: an npm-workspaces monorepo (testdata/ts-monorepo)
// whose packages each have a tsconfig.json. An edit of @acme/core that
// breaks its callers in @acme/app (which imports it by its package name,
// linked into node_modules) and in @acme/web (by a relative path) lists
// both, as `tsc -p` of each package reports them; the fix lists nothing.
// With a server per package, and bare specifiers not followed, the edit
// was answered clean.
func TestTypeScriptMonorepo(t *testing.T) {
	e2e(t)
	requireExe(t, "typescript-language-server")
	w := newWorkspaceOf(t, "ts-monorepo", "", []string{"PATH=" + langPath()})
	if err := os.MkdirAll(filepath.Join(w.root, "node_modules", "@acme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "..", "packages", "core"), filepath.Join(w.root, "node_modules", "@acme", "core")); err != nil {
		t.Fatal(err)
	}
	truth := func() []compilerErr {
		var all []compilerErr
		for _, p := range []string{"core", "app", "web"} {
			errs, _, _ := compile(t, w.root, nil, tsErrRE, filepath.Join(npmBin(), "tsc"), "--noEmit", "--pretty", "false", "-p", "packages/"+p)
			all = append(all, errs...)
		}
		return all
	}
	const core = "packages/core/src/index.ts"
	original := mustRead(t, filepath.Join(w.root, filepath.FromSlash(core)))
	steps := []struct {
		name   string
		text   string
		errors int // tsc's, over the three packages
	}{
		{"a comment", original + "// unchanged API\n", 0},
		{"greet takes a number", strings.Replace(original, "greet(name: string)", "greet(name: number)", 1), 2},
		{"fixed", original, 0},
	}
	for _, st := range steps {
		block := w.hook(w.edit("s", core, st.text))
		got := truth()
		if len(got) != st.errors {
			t.Fatalf("%s: tsc reports %v, want %d errors", st.name, got, st.errors)
		}
		if p := judge(t, w.root, block, got); p != "" || strings.Contains(block, "lsp-hook:") {
			t.Errorf("%s: %s\nhook:\n%s", st.name, p, indent(block))
		}
	}
	if st, ok := w.status(); ok {
		for _, s := range st.Servers {
			if s.Name == "typescript-language-server" && s.Root != w.root {
				t.Errorf("typescript-language-server rooted at %s, want one server at the monorepo's root %s", s.Root, w.root)
			}
		}
	}
}
