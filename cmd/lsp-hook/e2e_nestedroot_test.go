package main_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNestedRootImporters: a package whose root marker is at the
// workspace's root (pyproject.toml, tsconfig.json, compile_flags.txt
// there) and another nested under it (app/, its own marker: its own
// server) that imports the first. A change of the outer package that
// breaks app's file, its revert, and both again are answered as the
// compiler run on each package reports them — the pyright CLI, tsc -p,
// clang with each directory's compile_flags.txt. The outer server had
// app's file open as a document of another root once app's own server
// checked it, so it dropped its answer for it, and app's server was never
// told of the change: every change after the first was answered clean.
func TestNestedRootImporters(t *testing.T) {
	e2e(t)
	tests := []struct {
		lang, server, rel, from, to string
		truth                       func(t *testing.T, dir string) []compilerErr
	}{
		{"py", "pyright-langserver", "greeting/core.py", "def greet(name: str)", "def greet(name: str, times: int)", nestedTruth("py")},
		{"ts", "typescript-language-server", "lib/greet.ts", "greet(name: string)", "greet(name: string, times: number)", nestedTruth("ts")},
		{"c", "clangd", "greet.h", "void greet(const char *name);", "void greet(const char *name, int times);", nestedTruth("c")},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			requireExe(t, tt.server)
			w := newWorkspaceOf(t, "nestedroot/"+tt.lang, "", []string{"PATH=" + langPath()})
			app := "app/main." + tt.lang
			text := w.readFile(tt.rel)
			broken := strings.Replace(text, tt.from, tt.to, 1)
			if broken == text {
				t.Fatalf("%s has no %q", tt.rel, tt.from)
			}
			for round := range 2 {
				for i, st := range []struct{ name, rel, text string }{
					{"app written as it is", app, w.readFile(app)},
					{"the outer package's API changed", tt.rel, broken},
					{"back", tt.rel, text},
					{"changed again", tt.rel, broken},
					{"back again", tt.rel, text},
				} {
					block := w.hook(w.edit("s", st.rel, st.text))
					truth := tt.truth(t, w.root)
					if (i%2 == 1) != slices.ContainsFunc(truth, func(e compilerErr) bool { return e.file == app }) {
						t.Fatalf("round %d step %d (%s): the compiler's errors %v; the test wants %s broken at odd steps only", round, i, st.name, truth, app)
					}
					if p := judge(t, w.root, block, truth); p != "" {
						t.Errorf("round %d step %d (%s): %s\n%s", round, i, st.name, p, indent(block))
					}
				}
				// The outer file renamed by Codex's apply_patch (a move:
				// its importers in app/ break), then moved back.
				moved := strings.Replace(tt.rel, ".", "2.", 1)
				for i, mv := range [][2]string{{tt.rel, moved}, {moved, tt.rel}} {
					if err := os.Rename(w.path(mv[0]), w.path(mv[1])); err != nil {
						t.Fatal(err)
					}
					r := w.run(w.codexPatch("s", "*** Begin Patch\n*** Update File: "+mv[0]+"\n*** Move to: "+mv[1]+"\n@@\n*** End Patch\n"), nil, "hook", "codex")
					block := w.checkHook(r)
					truth := tt.truth(t, w.root)
					if (i == 0) != slices.ContainsFunc(truth, func(e compilerErr) bool { return e.file == app }) {
						t.Fatalf("round %d, %s moved to %s: the compiler's errors %v; the test wants %s broken after the first move only", round, mv[0], mv[1], truth, app)
					}
					if p := judge(t, w.root, block, truth); p != "" {
						log, _ := w.logSince(0)
						t.Errorf("round %d, %s moved to %s by apply_patch: %s\n%s\n%s", round, mv[0], mv[1], p, indent(block), indent(log))
					}
				}
			}
		})
	}
}

// TestPrewarmRacesCrossRoot: TestPrewarmRacesFirstEdit across roots. A
// session starts (the daemon prewarms each root's server: app's opens
// app's file, the one the user modified last) and the agent's first edit
// follows at once, to the outer package, breaking app's file — so app's
// server may read the edited text from disk while it prewarms. The hook,
// at once or once a document is open, must answer as the compiler reports
// (a note that a server gave no fresh answer is honest; silence over
// app's error is a false clean). Each language and timing, three fresh
// workspaces.
func TestPrewarmRacesCrossRoot(t *testing.T) {
	e2e(t)
	cases := []struct {
		lang, exe, server, callee, from, to string
	}{
		{"py", "pyright-langserver", "pyright", "greeting/core.py", "def greet(name: str)", "def greet(name: str, times: int)"},
		{"ts", "typescript-language-server", "typescript-language-server", "lib/greet.ts", "greet(name: string)", "greet(name: string, times: number)"},
		{"c", "clangd", "clangd", "greet.h", "void greet(const char *name);", "void greet(const char *name, int times);"},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			requireExe(t, tc.exe)
			app := "app/main." + tc.lang
			for _, late := range []bool{false, true} {
				for round := range 3 {
					w, block := firstEditRacingPrewarm(t, "nestedroot/"+tc.lang, app, tc.callee, tc.from, tc.to, tc.server, late)
					truth := nestedTruth(tc.lang)(t, w.root)
					if !slices.ContainsFunc(truth, func(e compilerErr) bool { return e.file == app }) {
						t.Fatalf("the compiler reports %v; the test wants %s broken", truth, app)
					}
					if p := judge(t, w.root, block, truth); p != "" {
						log, _ := w.logSince(0)
						t.Errorf("round %d (hook late %v), first Edit racing the prewarm: %s\n%s\ndaemon log:\n%s", round, late, p, indent(block), indent(log))
					}
					w.stopAll()
				}
			}
		})
	}
}

// nestedTruth returns the compiler's errors in a copy of
// testdata/nestedroot/<lang>, each package by its own configuration: the
// pyright CLI and tsc -p in the outer directory (app/ left to its own
// run) and in app/; clang on each .c file with its directory's
// compile_flags.txt. Files it has judged before are answered from
// memoTruth.
func nestedTruth(lang string) func(t *testing.T, dir string) []compilerErr {
	check := map[string]func(t *testing.T, dir string) []compilerErr{"py": pyErrors, "ts": tsErrors, "c": clangEach}[lang]
	return memoTruth("nestedroot/"+lang, func(t *testing.T, dir string) []compilerErr {
		var errs []compilerErr
		for _, d := range []string{".", "app"} {
			for _, x := range check(t, filepath.Join(dir, d)) {
				x.file = filepath.ToSlash(filepath.Join(d, x.file))
				if (d == "." && strings.HasPrefix(x.file, "app/")) || slices.Contains(errs, x) {
					continue // the outer package's run reads app/ with the outer configuration
				}
				errs = append(errs, x)
			}
		}
		return errs
	})
}

// clangEach runs clang -fsyntax-only on each .c file of dir with dir's
// compile_flags.txt and returns the errors it reports.
func clangEach(t *testing.T, dir string) []compilerErr {
	flags, _ := os.ReadFile(filepath.Join(dir, "compile_flags.txt"))
	cs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	var errs []compilerErr
	for _, c := range cs {
		e, _, _ := compile(t, dir, nil, cErrRE, "clang", append(strings.Fields(string(flags)), "-fsyntax-only", filepath.Base(c))...)
		errs = append(errs, e...)
	}
	return errs
}

// TestNestedRootGoneUnopened: the outer package's file that app's file
// imports goes — moved by Codex's apply_patch, or deleted by a Bash `rm`
// — while app's server never had it open (its only document is app's
// file: the outer file was never edited); then it comes back. Once each
// way, in one workspace. Both faults below are races: each showed once in
// two fresh workspaces per language and way (py by rm, c by apply_patch,
// as the workspace's first deletion), and not on every run. app's server knew the file
// only through its import, from the outer directory (pyright's
// extraPaths, tsconfig's paths, an include directory); the answer must
// name app's broken import as the compiler on each package does, and
// nothing once the file is back. pyright took the deletion event of such
// a file only 5 s later (its library watcher): app's file was answered
// clean (config.Server.ClosesGoneAcross).
func TestNestedRootGoneUnopened(t *testing.T) {
	e2e(t)
	tests := []struct {
		lang, server, rel string
		hows              []string // the first, with no server of the outer package running, is where each fault showed
	}{
		{"py", "pyright-langserver", "greeting/core.py", []string{"rm", "apply_patch"}},
		{"ts", "typescript-language-server", "lib/greet.ts", []string{"apply_patch", "rm"}},
		{"c", "clangd", "greet.h", []string{"apply_patch", "rm"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			requireExe(t, tt.server)
			truth := nestedTruth(tt.lang)
			w := newWorkspaceOf(t, "nestedroot/"+tt.lang, "", []string{"PATH=" + langPath()})
			app := "app/main." + tt.lang
			text := w.readFile(tt.rel)
			moved := strings.Replace(tt.rel, ".", "2.", 1)
			for _, how := range tt.hows {
				w.hook(w.edit("s", app, w.readFile(app)))
				var block string
				switch how {
				case "apply_patch":
					if err := os.Rename(w.path(tt.rel), w.path(moved)); err != nil {
						t.Fatal(err)
					}
					block = w.checkHook(w.run(w.codexPatch("s", "*** Begin Patch\n*** Update File: "+tt.rel+"\n*** Move to: "+moved+"\n@@\n*** End Patch\n"), nil, "hook", "codex"))
				case "rm":
					if err := os.Remove(w.path(tt.rel)); err != nil {
						t.Fatal(err)
					}
					block = w.hook(w.bash("s", "rm "+tt.rel))
				}
				errs := truth(t, w.root)
				if !slices.ContainsFunc(errs, func(e compilerErr) bool { return e.file == app }) {
					t.Fatalf("%s gone by %s: the compiler's errors %v; the test wants %s broken", tt.rel, how, errs, app)
				}
				if p := judge(t, w.root, block, errs); p != "" {
					log, _ := w.logSince(0)
					t.Errorf("%s gone by %s: %s\n%s\n%s", tt.rel, how, p, indent(block), indent(log))
				}
				// Back as it was, written by the agent's Write.
				os.Remove(w.path(moved))
				block = w.hook(w.write("s", tt.rel, text))
				if p := judge(t, w.root, block, truth(t, w.root)); p != "" {
					t.Errorf("%s back after %s: %s\n%s", tt.rel, how, p, indent(block))
				}
			}
		})
	}
}
