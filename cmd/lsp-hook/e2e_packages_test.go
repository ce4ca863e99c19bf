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
