package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestDiagnoseChangedImporters: `lsp-hook diagnose --changed --base REV`
// on a branch that changes a function's parameters, then deletes its
// file, in each live language (testdata/langs). A check of the changed
// files alone exited 0 with "0 errors" while the compiler rejected every
// caller; the callers are now checked too. Every error the compiler
// reports in the workspace (go build, the pyright CLI, tsc, clang on each
// .c file with compile_flags.txt; past a clang fatal error, not judged) must
// be listed at its file and line, nothing else, and the exit code says so.
func TestDiagnoseChangedImporters(t *testing.T) {
	e2e(t)
	testdir.GitEnv(t)
	cTruth := func(t *testing.T, dir string) ([]compilerErr, map[string]int) {
		flags, _ := os.ReadFile(filepath.Join(dir, "compile_flags.txt"))
		cs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		var errs []compilerErr
		fatal := make(map[string]int)
		for _, c := range cs {
			e, out, _ := compile(t, dir, nil, cErrRE, "clang", append(strings.Fields(string(flags)), "-fsyntax-only", filepath.Base(c))...)
			errs = append(errs, e...)
			if m := clangFatalRE.FindSubmatch(out); m != nil {
				n, _ := strconv.Atoi(string(m[2]))
				fatal[string(m[1])] = n
			}
		}
		return errs, fatal
	}
	tests := []struct {
		lang, server, callee, from, to string
		truth                          func(t *testing.T, dir string) ([]compilerErr, map[string]int)
	}{
		{"go", "gopls", "greet/greet.go", "func Greet(name string) string", "func Greet(name string, times int) string",
			func(t *testing.T, dir string) ([]compilerErr, map[string]int) { return goErrors(t, dir), nil }},
		{"py", "pyright-langserver", "greet.py", "def greet(name: str) -> str:", "def greet(name: str, times: int) -> str:",
			func(t *testing.T, dir string) ([]compilerErr, map[string]int) { return pyErrors(t, dir), nil }},
		{"ts", "typescript-language-server", "src/greet.ts", "export function greet(name: string): string", "export function greet(name: string, times: number): string",
			func(t *testing.T, dir string) ([]compilerErr, map[string]int) { return tsErrors(t, dir), nil }},
		{"c", "clangd", "greet.h", "void greet(const char *name);", "void greet(const char *name, int times);", cTruth},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			requireExe(t, tt.server)
			w := newWorkspaceOf(t, "langs/"+tt.lang, "", []string{"PATH=" + langPath()})
			git := func(args ...string) { t.Helper(); testdir.Git(t, w.root, args...) }
			git("add", "-A")
			git("commit", "-qm", "clean")
			out, err := exec.Command("git", "-C", w.root, "rev-parse", "HEAD").Output()
			if err != nil {
				t.Fatal(err)
			}
			base := strings.TrimSpace(string(out))
			git("checkout", "-qb", "feature")
			step := func(name string) {
				t.Helper()
				truth, fatal := tt.truth(t, w.root)
				if len(truth) == 0 {
					t.Fatalf("%s: the compiler reports no error; the test wants some", name)
				}
				r := w.run("", nil, "diagnose", "--no-daemon", "--changed", "--base", base)
				if r.exit != 1 {
					t.Errorf("%s: diagnose --changed exited %d, want 1 (the compiler reports %v); stderr:\n%s", name, r.exit, truth, r.stderr)
				}
				shown := make(map[compilerErr]bool)
				for _, f := range findings(t, "text", r.stdout) {
					if f.severity != "error" || fatal[f.file] > 0 && f.line > fatal[f.file] {
						continue
					}
					e := compilerErr{f.file, f.line}
					shown[e] = true
					if !slices.Contains(truth, e) {
						t.Errorf("%s: %s listed, the compiler reports no error there", name, e.file+":"+strconv.Itoa(e.line))
					}
				}
				for _, e := range truth {
					if !shown[e] {
						t.Errorf("%s: false clean: the compiler reports %s:%d, diagnose --changed does not\nstdout:\n%s\nstderr:\n%s", name, e.file, e.line, r.stdout, r.stderr)
					}
				}
			}
			text := w.readFile(tt.callee)
			if !strings.Contains(text, tt.from) {
				t.Fatalf("%s has no %q", tt.callee, tt.from)
			}
			w.writeFile(tt.callee, strings.Replace(text, tt.from, tt.to, 1))
			git("commit", "-qam", "a parameter more")
			step(fmt.Sprintf("%s: its parameters changed", tt.callee))
			git("rm", "-q", tt.callee)
			git("commit", "-qm", "gone")
			step(fmt.Sprintf("%s: deleted", tt.callee))
		})
	}
}
