package main_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fanImporters is how many files TestImportersPastTheCapNoted adds that
// call greet: more than a check re-checks (10), and more than the other
// files tsserver's pull adds to them (20).
const fanImporters = 40

// TestImportersPastTheCapNoted: a change that breaks more callers than one
// check re-checks (a signature change of a function forty files call) is
// judged by the compiler (tsc, pyright's CLI, cc) on the daemon's whole answer,
// every file of it, not the lint block's first five: each error the
// compiler reports is in the answer at its file and line, or the answer
// says which importers it left unchecked; nothing it shows is stale.
// Then the callee is deleted, which breaks every importer: judged the
// same way. Before the importers past the cap were noted
// (ErrImportersCap), 12 of TypeScript's errors, 32 of Python's and 33 of
// C's were silence after the signature change.
func TestImportersPastTheCapNoted(t *testing.T) {
	e2e(t)
	cases := []struct {
		lang, exe, callee string
		from, to          string
		importer          func(i int) (rel, text string)
		truth             func(t *testing.T, dir string) []compilerErr
	}{
		{"ts", "typescript-language-server", "src/greet.ts",
			"export function greet(name: string): string {", "export function greet(name: string, suffix: string): string {",
			func(i int) (string, string) {
				return fmt.Sprintf("src/fan/use%02d.ts", i),
					fmt.Sprintf("import { greet } from \"../greet\";\n\nexport const v%02d: string = greet(\"x\");\n", i)
			}, tsErrors},
		{"py", "pyright-langserver", "greet.py",
			"def greet(name: str) -> str:", "def greet(name: str, suffix: str) -> str:",
			func(i int) (string, string) {
				return fmt.Sprintf("use%02d.py", i), fmt.Sprintf("from greet import greet\n\nv%02d: str = greet(\"x\")\n", i)
			}, pyErrors},
		{"c", "clangd", "greet.h",
			"void greet(const char *name);", "void greet(const char *name, int n);",
			func(i int) (string, string) {
				return fmt.Sprintf("fan%02d.c", i), fmt.Sprintf("#include \"greet.h\"\n\nvoid fan%02d(void) { greet(\"x\"); }\n", i)
			},
			func(t *testing.T, dir string) []compilerErr {
				files := []string{"main.c", "loud.c", "greet.c"}
				for i := range fanImporters {
					files = append(files, fmt.Sprintf("fan%02d.c", i))
				}
				return cErrors(t, dir, files...)
			}},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			requireExe(t, tc.exe)
			w := newWorkspaceOf(t, "langs/"+tc.lang, "", []string{"PATH=" + langPath()})
			for i := range fanImporters {
				w.writeFile(tc.importer(i))
			}
			orig := w.readFile(tc.callee)
			if b := w.hook(w.edit("s", tc.callee, orig)); strings.Contains(b, "ERROR") {
				t.Fatalf("%s as shipped: hook said\n%s", tc.callee, indent(b))
			}
			w.writeFile(tc.callee, strings.Replace(orig, tc.from, tc.to, 1))
			res := w.wholeAnswer(tc.callee)
			truth := tc.truth(t, w.root)
			if len(truth) < fanImporters {
				t.Fatalf("the compiler reports %d errors, want at least the %d broken importers: %v", len(truth), fanImporters, truth)
			}
			if p := judgeWhole(w.root, res, truth, nil); p != "" {
				t.Errorf("Edit breaking %d importers: %s\nlint block:\n%s", fanImporters, p, indent(res.Lint))
			}
			if !strings.Contains(res.Lint, capNote) {
				t.Errorf("a check re-checks at most ten importers, yet the answer has no note naming those it left\n%s", indent(res.Lint))
			}
			if err := os.Remove(w.path(tc.callee)); err != nil {
				t.Fatal(err)
			}
			res = w.wholeAnswer(tc.callee)
			if p := judgeWhole(w.root, res, tc.truth(t, w.root), nil); p != "" || !strings.Contains(res.Lint, capNote) {
				t.Errorf("%s deleted, %d importers broken: %s\nlint block:\n%s", tc.callee, fanImporters, cmp.Or(p, "no note naming the importers left"), indent(res.Lint))
			}
		})
	}
}

// capNote is what the answer says of the importers it left unchecked
// (lsp.ErrImportersCap).
const capNote = "files importing a changed one were not checked again"

// wholeResult is the daemon's whole answer (wire.Result) as the generic
// hook prints it: every file, and the lint block with its notes.
type wholeResult struct {
	Files []struct {
		Rel         string `json:"rel"`
		Diagnostics []struct {
			Line     int    `json:"line"`
			Severity string `json:"severity"`
		} `json:"diagnostics"`
	} `json:"files"`
	Lint string `json:"lint"`
}

// wholeAnswer runs the generic hook for rel, changed on disk, and returns
// the daemon's whole answer.
func (w *workspace) wholeAnswer(rel string) wholeResult {
	w.t.Helper()
	ev, err := json.Marshal(map[string]string{"file": w.path(rel), "cwd": w.root})
	if err != nil {
		w.t.Fatal(err)
	}
	r := w.run(string(ev), nil, "hook", "generic", "--path-field", "file", "--cold-budget", "40s")
	if r.exit != 0 {
		w.t.Fatalf("generic hook exited %d: %s", r.exit, r.stderr)
	}
	var res wholeResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		w.t.Fatalf("generic hook answer %q: %v", r.stdout, err)
	}
	return res
}

// judgeWhole is judge over the daemon's whole answer: every compiler error
// is in it at its file and line unless it carries an `lsp-hook:` note, and
// every error it has is one the compiler reports, but past the line
// unjudged gives a file (the compiler stopped there; line 0: the whole
// file; nil for none).
func judgeWhole(root string, res wholeResult, truth []compilerErr, unjudged map[string]int) string {
	var problems []string
	shown := make(map[compilerErr]bool)
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			if d.Severity != "error" {
				continue
			}
			e := compilerErr{filepath.ToSlash(f.Rel), d.Line}
			if n, past := unjudged[e.file]; past && e.line > n {
				continue
			}
			shown[e] = true
			if !slices.Contains(truth, e) {
				problems = append(problems, fmt.Sprintf("stale: %s:%d shown, the compiler reports no error there", e.file, e.line))
			}
		}
	}
	noted := strings.Contains(res.Lint, "\nlsp-hook: ") || strings.HasPrefix(res.Lint, "lsp-hook: ")
	var missed []string
	for _, e := range truth {
		if !shown[e] {
			missed = append(missed, fmt.Sprintf("%s:%d", e.file, e.line))
		}
	}
	if len(missed) > 0 && !noted {
		problems = append(problems, fmt.Sprintf("false clean: the compiler reports %d errors the answer leaves out with no note (%s)",
			len(missed), strings.Join(missed[:min(len(missed), 5)], ", ")))
	}
	slices.Sort(problems)
	return strings.Join(problems, "; ")
}

// TestHookImportersThroughRelays: a hook's check of a change that breaks a
// caller three imports away (relayChains: through two re-exports, a
// barrel of barrels, two package variables, two headers, two Python
// relays), then of the callee's deletion, judged by the compiler on the
// daemon's whole answer (judgeWhole): each error the compiler reports is
// in it, or a note says what was not checked. Before, the caller was
// silence for pyright and clangd (a check looked two imports away and
// no further; now clangd re-checks a header's includers however far, and
// pyright's caller past its two levels is named), and so was every caller
// of a Go package whose only file was deleted (the re-check after a
// deletion had no document to wait for: now the package's importers).
func TestHookImportersThroughRelays(t *testing.T) {
	e2e(t)
	for _, tc := range relayChains() {
		t.Run(tc.lang, func(t *testing.T) {
			w := tc.workspace(t)
			orig := w.readFile(tc.callee)
			if b := w.hook(w.edit("s", tc.callee, orig)); strings.Contains(b, "ERROR") {
				t.Fatalf("%s as shipped: hook said\n%s", tc.callee, indent(b))
			}
			step := func(name string) {
				t.Helper()
				res := w.wholeAnswer(tc.callee)
				truth, unjudged := tc.truth(t, w.root)
				if len(truth) == 0 {
					t.Fatalf("%s: the compiler reports no error; the test wants some", name)
				}
				if p := judgeWhole(w.root, res, truth, unjudged); p != "" {
					t.Errorf("%s: %s\nlint block:\n%s", name, p, indent(res.Lint))
				}
			}
			w.writeFile(tc.callee, strings.Replace(orig, tc.from, tc.to, 1))
			step(tc.callee + ": its parameters changed")
			if err := os.Remove(w.path(tc.callee)); err != nil {
				t.Fatal(err)
			}
			step(tc.callee + ": deleted")
		})
	}
}
