package main_test

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
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
// caller; the callers are now checked too, and their importers, however
// far (a caller through re-exports: a barrel index.ts, a package
// variable, a header including the changed one; here through two of them,
// three imports away: relayChains). Every error the compiler reports in
// the workspace (go build, the pyright CLI, tsc, clang on each .c file
// with compile_flags.txt; past a clang fatal error, not judged) must be
// listed at its file and line, nothing else, and the exit code says so.
func TestDiagnoseChangedImporters(t *testing.T) {
	e2e(t)
	testdir.GitEnv(t)
	for _, tt := range relayChains() {
		t.Run(tt.lang, func(t *testing.T) {
			w := tt.workspace(t)
			base, git := featureBranch(t, w)
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
					if n, past := fatal[f.file]; f.severity != "error" || past && f.line > n {
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

// TestDiagnoseChangedBeyondImports: `lsp-hook diagnose --changed --base
// REV` on branches whose change breaks files no import links to it: a
// deleted file a //go:embed pattern matches (go build: "pattern
// banner.txt: no matching files found" in the embedding file), and a
// project's configuration alone — Go's go.mod lowered to go 1.20 under a
// file using min (1.21), a tsconfig.json whose lib leaves out the DOM's
// console, a compile_flags.txt that defines greet.h's guard and makes an
// undeclared call an error. A check of the changed files alone exited 0
// with "0 errors" (nothing checks a compile_flags.txt or a .txt, so not
// even the changed file was) while the compiler rejected the others; they
// are now checked too, every error the compiler reports listed at its
// line, exit 1.
func TestDiagnoseChangedBeyondImports(t *testing.T) {
	e2e(t)
	testdir.GitEnv(t)
	edit := func(file, from, to string) func(t *testing.T, w *workspace) {
		return func(t *testing.T, w *workspace) {
			text := w.readFile(file)
			if !strings.Contains(text, from) {
				t.Fatalf("%s has no %q", file, from)
			}
			w.writeFile(file, strings.Replace(text, from, to, 1))
		}
	}
	tests := []struct {
		name, lang, exe string
		add             map[string]string // files committed with the project
		change          func(t *testing.T, w *workspace)
		truth           func(t *testing.T, dir string) []compilerErr
		wantIn          string // the file whose error the change makes
	}{
		{name: "embedded file deleted", lang: "go", exe: "gopls",
			add: map[string]string{
				"greet/embed.go":   "package greet\n\nimport _ \"embed\"\n\n// Banner is the greeting's banner.\n//\n//go:embed banner.txt\nvar Banner string\n",
				"greet/banner.txt": "hello\n",
			},
			change: func(t *testing.T, w *workspace) {
				if err := os.Remove(w.path("greet/banner.txt")); err != nil {
					t.Fatal(err)
				}
			},
			truth: goErrors, wantIn: "greet/embed.go"},
		{name: "go.mod's go line lowered", lang: "go", exe: "gopls",
			add:    map[string]string{"greet/least.go": "package greet\n\n// Least returns the smaller of a and b.\nfunc Least(a, b int) int { return min(a, b) }\n"},
			change: edit("go.mod", "\ngo 1.22\n", "\ngo 1.20\n"), truth: goErrors, wantIn: "greet/least.go"},
		{name: "tsconfig.json's lib", lang: "ts", exe: "typescript-language-server",
			change: edit("tsconfig.json", `"strict": true,`, `"strict": true, "lib": ["es2022"],`), truth: tsErrors, wantIn: "src/main.ts"},
		{name: "compile_flags.txt", lang: "c", exe: "clangd",
			change: edit("compile_flags.txt", "-Wall\n", "-Wall\n-DGREET_H\n-Werror=implicit-function-declaration\n"),
			truth:  func(t *testing.T, dir string) []compilerErr { return cErrors(t, dir, "greet.c", "loud.c", "main.c") }, wantIn: "main.c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireExe(t, tt.exe)
			w := newWorkspaceOf(t, "langs/"+tt.lang, "", []string{"PATH=" + langPath()})
			for rel, text := range tt.add {
				w.writeFile(rel, text)
			}
			base, git := featureBranch(t, w)
			if errs := tt.truth(t, w.root); len(errs) != 0 {
				t.Fatalf("the compiler reports %v before the change; the test wants none", errs)
			}
			tt.change(t, w)
			git("add", "-A")
			git("commit", "-qm", "changed")
			truth := tt.truth(t, w.root)
			if !slices.ContainsFunc(truth, func(e compilerErr) bool { return e.file == tt.wantIn }) {
				t.Fatalf("the compiler reports %v; the test wants an error in %s", truth, tt.wantIn)
			}
			r := w.run("", nil, "diagnose", "--no-daemon", "--changed", "--base", base)
			var shown []compilerErr
			for _, f := range findings(t, "text", r.stdout) {
				if f.severity == "error" {
					shown = append(shown, compilerErr{f.file, f.line})
				}
			}
			slices.SortFunc(shown, compareErr)
			slices.SortFunc(truth, compareErr)
			if r.exit != 1 || !slices.Equal(shown, truth) {
				t.Errorf("diagnose --changed: exit %d, errors %v; want 1 and the compiler's %v\nstdout:\n%s\nstderr:\n%s", r.exit, shown, truth, r.stdout, r.stderr)
			}
		})
	}
}

// featureBranch commits every file of w's git work tree as the base of a
// branch and checks out a new branch, feature, from it. It returns the
// base's commit (for --base) and a git runner in w.
func featureBranch(t *testing.T, w *workspace) (base string, git func(args ...string)) {
	t.Helper()
	git = func(args ...string) { t.Helper(); testdir.Git(t, w.root, args...) }
	git("add", "-A")
	git("commit", "-qm", "clean")
	out, err := exec.Command("git", "-C", w.root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	git("checkout", "-qb", "feature")
	return strings.TrimSpace(string(out)), git
}

// compareErr orders compiler errors by file, then line.
func compareErr(a, b compilerErr) int {
	return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
}

// includedFromRE matches each step of clang's include chain of an error:
// "In file included from use.c:1:", then "In file included from
// ./relay2.h:4:" (the file as clang names it, its 1-based line).
var includedFromRE = regexp.MustCompile(`(?m)^In file included from ([^\s:]+\.[ch]):(\d+):`)

// goErrorsEach is goErrors for each package directory under dir on its
// own: go build stops at the first import of a missing package, so an
// import of it in another package is reported only by that package's
// build. The files of a package whose build failed in another package
// are not judged (unjudged, each at line 0: every line): the compiler
// never type-checked them, where gopls reports what it can ("cannot
// call relay.Greet (variable with invalid type)").
func goErrorsEach(t *testing.T, dir string) (errs []compilerErr, unjudged map[string]int) {
	t.Helper()
	pkgs := make(map[string]bool)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			pkgs[filepath.Dir(p)] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	unjudged = make(map[string]int)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off")
	for _, pkg := range slices.Sorted(maps.Keys(pkgs)) {
		rel, _ := filepath.Rel(dir, pkg)
		rel = filepath.ToSlash(rel)
		e, _, failed := compile(t, dir, env, goErrRE, "go", "build", "-gcflags=-e", "./"+rel)
		own := false
		for _, x := range e {
			own = own || path.Dir(x.file) == rel
			if !slices.Contains(errs, x) {
				errs = append(errs, x)
			}
		}
		if failed && !own {
			files, _ := filepath.Glob(filepath.Join(pkg, "*.go"))
			for _, f := range files {
				r, _ := filepath.Rel(dir, f)
				unjudged[filepath.ToSlash(r)] = 0
			}
		}
	}
	return errs, unjudged
}

// relayChain is a change of a callee in a workspace of testdata/langs
// that breaks a caller three imports away: relay re-exports the callee
// (a barrel file, a package variable, a header including its header),
// relay2 re-exports relay, and use calls it through relay2, with no error
// in either relay. truth is the compiler's judgement of the workspace:
// its errors (file and 1-based line), and the lines past which a file is
// not judged (line 0: the whole file).
type relayChain struct {
	lang, server, callee, from, to string
	relay                          map[string]string
	truth                          func(t *testing.T, dir string) ([]compilerErr, map[string]int)
}

// workspace returns a workspace of rc's language with its relays written,
// skipping the test when rc's server is not installed.
func (rc relayChain) workspace(t *testing.T) *workspace {
	t.Helper()
	requireExe(t, rc.server)
	w := newWorkspaceOf(t, "langs/"+rc.lang, "", []string{"PATH=" + langPath()})
	for rel, text := range rc.relay {
		w.writeFile(rel, text)
	}
	return w
}

// relayChains returns the relayChain of each live language.
func relayChains() []relayChain {
	return []relayChain{
		{"go", "gopls", "greet/greet.go", "func Greet(name string) string", "func Greet(name string, times int) string",
			map[string]string{
				"relay/relay.go":   "package relay\n\nimport \"example.com/langs/greet\"\n\n// Greet is greet.Greet.\nvar Greet = greet.Greet\n",
				"relay2/relay2.go": "package relay2\n\nimport \"example.com/langs/relay\"\n\n// Greet is relay.Greet.\nvar Greet = relay.Greet\n",
				"use/use.go":       "package use\n\nimport \"example.com/langs/relay2\"\n\n// Hi greets the world.\nfunc Hi() string { return relay2.Greet(\"world\") }\n",
			},
			goErrorsEach},
		{"py", "pyright-langserver", "greet.py", "def greet(name: str) -> str:", "def greet(name: str, times: int) -> str:",
			map[string]string{
				"relay.py":  "from greet import greet\n\n__all__ = [\"greet\"]\n",
				"relay2.py": "from relay import greet\n\n__all__ = [\"greet\"]\n",
				"use.py":    "from relay2 import greet\n\nhi: str = greet(\"world\")\n",
			},
			func(t *testing.T, dir string) ([]compilerErr, map[string]int) { return pyErrors(t, dir), nil }},
		{"ts", "typescript-language-server", "src/greet.ts", "export function greet(name: string): string", "export function greet(name: string, times: number): string",
			map[string]string{
				"src/index.ts":  "export { greet } from \"./greet\";\n",
				"src/index2.ts": "export { greet } from \"./index\";\n",
				"src/use.ts":    "import { greet } from \"./index2\";\n\nexport const hi: string = greet(\"world\");\n",
			},
			func(t *testing.T, dir string) ([]compilerErr, map[string]int) { return tsErrors(t, dir), nil }},
		{"c", "clangd", "greet.h", "void greet(const char *name);", "void greet(const char *name, int times);",
			map[string]string{
				"relay.h":  "#ifndef RELAY_H\n#define RELAY_H\n\n#include \"greet.h\"\n\n#endif\n",
				"relay2.h": "#ifndef RELAY2_H\n#define RELAY2_H\n\n#include \"relay.h\"\n\n#endif\n",
				"use.c":    "#include \"relay2.h\"\n\nvoid use(void) { greet(\"world\"); }\n",
			},
			clangChainErrors},
	}
}

// clangChainErrors is the C compiler's judgement of every .c file in dir
// (clang -fsyntax-only with compile_flags.txt): its errors, each step of
// an error's include chain taken as the error's too, and each file's
// fatal error (file → line: clang says nothing of the file past it,
// where clangd goes on).
func clangChainErrors(t *testing.T, dir string) ([]compilerErr, map[string]int) {
	t.Helper()
	flags, _ := os.ReadFile(filepath.Join(dir, "compile_flags.txt"))
	cs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	var errs []compilerErr
	fatal := make(map[string]int)
	for _, c := range cs {
		e, out, _ := compile(t, dir, nil, cErrRE, "clang", append(strings.Fields(string(flags)), "-fsyntax-only", filepath.Base(c))...)
		errs = append(errs, e...)
		// An error in an included header is this file's too, at
		// the #include that brings it in, and so is each header's
		// on the way (clangd's "In included file", of a .c file or
		// of a header it checks; clang's "In file included from
		// use.c:1:" and "In file included from ./relay2.h:4:").
		for _, m := range includedFromRE.FindAllSubmatch(out, -1) {
			n, _ := strconv.Atoi(string(m[2]))
			if e := (compilerErr{filepath.ToSlash(filepath.Clean(string(m[1]))), n}); !slices.Contains(errs, e) {
				errs = append(errs, e)
			}
		}
		if m := clangFatalRE.FindSubmatch(out); m != nil {
			n, _ := strconv.Atoi(string(m[2]))
			fatal[filepath.ToSlash(filepath.Clean(string(m[1])))] = n
		}
	}
	return errs, fatal
}
