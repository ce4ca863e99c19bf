package lsp

// Behaviour tests against the real language servers of the catalogue, one
// table row per live language, each on a copy of its project in
// testdata/langs (see the README there). They skip a server that is not
// installed, and fail instead under LSP_HOOK_REQUIRE_SERVERS=1 (`make
// test`), which also puts the pinned servers of ./.tools on PATH.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// serverCase is one language: its project, the call the tests break, and
// the errors each server reports for it.
type serverCase struct {
	lang   string // the project: testdata/langs/<lang>
	server string // catalogue name
	exe    string // the executable requireServer looks for

	caller   string  // the file the agent edits (slash-separated, relative to the project)
	goodCall string  // the line of caller that calls greet, as shipped
	badCall  string  // that line with an extra argument after an emoji
	comment  string  // a comment line that fits above the call (padding)
	tooMany  wantErr // the error for badCall, as shipped (no padding)

	callee    string // the file that defines greet
	twoParams string // callee's text after greet gains a second parameter
	tooFew    wantErr

	// unopened is a caller the tests never open, and unopenedErr its error
	// after the signature change, for servers that report files nobody
	// opened (gopls diagnoses every package of the workspace; lsp-hook
	// pulls tsserver's diagnostics for a changed file's importers); "" for
	// servers that only check open files.
	unopened    string
	unopenedErr wantErr
}

// wantErr is one expected diagnostic: the exact 1-based line and column
// (code points), a substring of the message and the exact code.
type wantErr struct {
	line, col int
	msg, code string
}

func (w wantErr) String() string {
	return fmt.Sprintf("[%d:%d] …%s… (%s)", w.line, w.col, w.msg, w.code)
}

func (w wantErr) matches(d diag.Diagnostic) bool {
	return d.Line == w.line && d.Column == w.col && strings.Contains(d.Message, w.msg) &&
		d.Code == w.code && d.Severity == diag.SeverityError
}

// The columns below count the emoji of badCall as one character: 🙂 is
// 4 bytes in UTF-8 and 2 units in UTF-16, so a unit mix-up moves them.
var serverCases = []serverCase{
	{
		lang: "go", server: "gopls", exe: "gopls",
		caller: "main.go", comment: "\t// padding",
		goodCall: "\tfmt.Println(greet.Greet(\"world\"))",
		badCall:  "\tfmt.Println(greet.Greet(\"🙂\", 3))",
		tooMany:  wantErr{10, 31, "too many arguments in call to greet.Greet", "WrongArgCount"},
		callee:   "greet/greet.go",
		twoParams: "// Package greet builds greetings.\npackage greet\n\n" +
			"// Greet returns a greeting for name, ending in punct.\n" +
			"func Greet(name, punct string) string {\n\treturn \"hello, \" + name + punct\n}\n",
		tooFew:      wantErr{10, 33, "not enough arguments in call to greet.Greet", "WrongArgCount"},
		unopened:    "loud.go",
		unopenedErr: wantErr{11, 47, "not enough arguments in call to greet.Greet", "WrongArgCount"},
	},
	{
		lang: "py", server: "pyright", exe: "pyright-langserver",
		caller: "main.py", comment: "    # padding",
		goodCall: "    print(greet(\"world\"))",
		badCall:  "    print(greet(\"🙂\", 3))",
		tooMany:  wantErr{5, 22, "Expected 1 positional argument", "reportCallIssue"},
		callee:   "greet.py",
		twoParams: "\"\"\"Greetings.\"\"\"\n\n\ndef greet(name: str, punct: str) -> str:\n" +
			"    \"\"\"Return a greeting for name, ending in punct.\"\"\"\n    return \"hello, \" + name + punct\n",
		tooFew: wantErr{5, 11, `Argument missing for parameter "punct"`, "reportCallIssue"},
	},
	{
		lang: "ts", server: "typescript-language-server", exe: "typescript-language-server",
		caller: "src/main.ts", comment: "  // padding",
		goodCall: "  console.log(greet(\"world\"));",
		badCall:  "  console.log(greet(\"🙂\", 3));",
		tooMany:  wantErr{4, 26, "Expected 1 arguments, but got 2.", "ts2554"},
		callee:   "src/greet.ts",
		twoParams: "/** Returns a greeting for name, ending in punct. */\n" +
			"export function greet(name: string, punct: string): string {\n  return \"hello, \" + name + punct;\n}\n",
		tooFew:      wantErr{4, 15, "Expected 2 arguments, but got 1.", "ts2554"},
		unopened:    "src/loud.ts",
		unopenedErr: wantErr{5, 10, "Expected 2 arguments, but got 1.", "ts2554"},
	},
	{
		lang: "c", server: "clangd", exe: "clangd",
		caller: "main.c", comment: "  // padding",
		goodCall: "  greet(\"world\");",
		badCall:  "  greet(\"🙂\", 3);",
		tooMany:  wantErr{4, 14, "Too many arguments to function call", "typecheck_call_too_many_args_one"},
		callee:   "greet.h",
		twoParams: "#ifndef GREET_H\n#define GREET_H\n\n/* greet prints a greeting for name, ending in punct. */\n" +
			"void greet(const char *name, const char *punct);\n\n#endif\n",
		tooFew: wantErr{4, 16, "Too few arguments to function call, expected 2, have 1", "typecheck_call_too_few_args"},
	},
}

// text returns the caller as shipped with its call line replaced by call,
// and pad comment lines above it: the call moves pad lines down.
func (c serverCase) text(t *testing.T, shipped, call string, pad int) string {
	t.Helper()
	if strings.Count(shipped, c.goodCall+"\n") != 1 {
		t.Fatalf("%s: %s does not hold %q exactly once", c.lang, c.caller, c.goodCall)
	}
	return strings.Replace(shipped, c.goodCall+"\n", strings.Repeat(c.comment+"\n", pad)+call+"\n", 1)
}

// checker runs Manager.Check for one language's server on a copy of its
// project the way the hook does: the file written to disk first, then
// checked with its text.
type checker struct {
	t   *testing.T
	m   *Manager
	c   serverCase
	dir string // the copy of testdata/langs/<lang>
}

// newChecker copies testdata/langs/<c.lang> to a temp dir (symlink-free:
// servers report resolved paths) and returns a checker of it, whose
// manager is shut down when the test ends.
func newChecker(t *testing.T, c serverCase) *checker {
	t.Helper()
	dir := tempDir(t)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "langs", c.lang))); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	// A cold server under make test's load (every package at once, the
	// race detector) has taken over the default 10 s to its first answer
	// (make test at 65efb45: tsserver, TestTSServerPull); these tests
	// judge answers, not start-up time.
	cfg.LSP.FirstTouchTimeout = 30 * time.Second
	m := NewManager(cfg, dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	return &checker{t: t, m: m, c: c, dir: dir}
}

// signalInUse fails the test unless the running server's DoneSignal, if
// the catalogue gives it one, is in use: else its checks wait a settle
// window the catalogue's evidence says they do not need.
func (k *checker) signalInUse() {
	k.t.Helper()
	k.m.mu.Lock()
	var clients []*Client
	for key, e := range k.m.entries {
		if c := e.readyClient(); c != nil && key.root != "" {
			clients = append(clients, c)
		}
	}
	k.m.mu.Unlock()
	if len(clients) == 0 {
		k.t.Fatal("no running server after the first check")
	}
	for _, c := range clients {
		if c.server.DoneSignal != config.SignalNone && !c.signalling() {
			k.t.Errorf("%s: its signal %q is not in use", c.server.Name, c.server.DoneSignal)
		}
	}
}

// path returns the absolute path of a slash-separated project file.
func (k *checker) path(rel string) string { return filepath.Join(k.dir, filepath.FromSlash(rel)) }

// shipped returns a project file's text as shipped.
func (k *checker) shipped(rel string) string {
	k.t.Helper()
	b, err := os.ReadFile(k.path(rel))
	if err != nil {
		k.t.Fatal(err)
	}
	return string(b)
}

// check writes text to path, checks it and returns the server's outcome, or
// an error unless it is fresh with a plausible server_ms.
func (k *checker) check(path, text string, settle time.Duration) (Outcome, error) {
	k.t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		k.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	begin := time.Now()
	outs := k.m.Check(ctx, []Doc{{Path: path, Text: []byte(text)}}, settle)
	elapsed := time.Since(begin)
	server, name := k.c.server, filepath.Base(path)
	for _, o := range outs {
		if o.Server != server {
			continue
		}
		k.t.Logf("%s %s: %s in %v", server, name, o.Freshness, elapsed.Round(time.Millisecond))
		if o.Freshness != Fresh || o.Err != nil {
			return o, fmt.Errorf("%s on %s: freshness %s, err %v; want fresh", server, name, o.Freshness, o.Err)
		}
		if o.ServerMS <= 0 || o.ServerMS > elapsed.Milliseconds() {
			return o, fmt.Errorf("%s on %s: server_ms %d, want within (0, %d]", server, name, o.ServerMS, elapsed.Milliseconds())
		}
		return o, nil
	}
	return Outcome{}, fmt.Errorf("no outcome from %s for %s: %+v", server, path, outs)
}

// edit checks the caller with text, as an agent's edit, and fails the test
// unless the answer is fresh with exactly the wanted errors in the caller.
func (k *checker) edit(what, text string, want ...wantErr) {
	k.t.Helper()
	caller := k.path(k.c.caller)
	o, err := k.check(caller, text, EditSettle)
	if err != nil {
		k.t.Fatalf("%s: %v", what, err)
	}
	if err := only(what, o.Files[caller], want...); err != nil {
		k.t.Fatal(err)
	}
}

// alternate edits the caller, shipped as its text, into broken and fixed
// versions 20 times in a row, the call 1 to 6 lines lower each time: every
// answer must describe the text it was asked about, never an earlier one.
func (k *checker) alternate(shipped string) {
	k.t.Helper()
	c := k.c
	for i := range 20 {
		pad := i%6 + 1
		want := c.tooMany
		want.line += pad
		k.edit(fmt.Sprintf("alternation %d, broken on line %d", i, want.line), c.text(k.t, shipped, c.badCall, pad), want)
		k.edit(fmt.Sprintf("alternation %d, fixed", i), c.text(k.t, shipped, c.goodCall, pad))
	}
}

// write checks the callee with text in write mode, and fails the test
// unless the callee is clean and each caller (the edited one and, for
// servers that report it, the unopened one) has a fresh publication under
// Others: with its tooFew error when broken, else clean.
func (k *checker) write(what, text string, broken bool) {
	k.t.Helper()
	c := k.c
	callee := k.path(c.callee)
	o, err := k.check(callee, text, DefaultSettle)
	if err != nil {
		k.t.Fatalf("%s: %v", what, err)
	}
	if err := only(what+": the callee", o.Files[callee]); err != nil {
		k.t.Fatal(err)
	}
	for rel, want := range map[string]wantErr{c.caller: c.tooFew, c.unopened: c.unopenedErr} {
		if rel == "" {
			continue
		}
		ds, ok := o.Others[k.path(rel)]
		if !ok {
			k.t.Fatalf("%s: no fresh publication for the caller %s in Others (%d other files)", what, rel, len(o.Others))
		}
		var wants []wantErr
		if broken {
			wants = append(wants, want)
		}
		if err := only(what+": the caller "+rel+" (Others)", ds, wants...); err != nil {
			k.t.Fatal(err)
		}
	}
}

// errorsOf keeps the errors of ds: the tests check errors, as the hook's
// default threshold does (servers add hints such as "x is not accessed").
func errorsOf(ds []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// only returns an error unless ds holds exactly the wanted errors (none
// when want is empty).
func only(what string, ds []diag.Diagnostic, want ...wantErr) error {
	got := errorsOf(ds)
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = want[i].matches(got[i])
	}
	if ok {
		return nil
	}
	var b strings.Builder
	for _, d := range got {
		fmt.Fprintf(&b, "\n  [%d:%d] %s (%s)", d.Line, d.Column, d.Message, d.Code)
	}
	if b.Len() == 0 {
		b.WriteString(" none")
	}
	return fmt.Errorf("%s: got errors:%s\nwant %v", what, b.String(), want)
}

// TestServers runs every live language through what an agent does: break a
// call (exact line, column in characters, message, code), fix it (clean and
// fresh), alternate broken and fixed texts 20 times with the error on a
// different line each time, edit the clean file into another clean text,
// then change the callee's signature in another file (write mode: the broken
// caller under Outcome.Others) and change it back (the caller clean again).
func TestServers(t *testing.T) {
	for _, c := range serverCases {
		t.Run(c.lang, func(t *testing.T) {
			requireServer(t, c.exe)
			t.Parallel()
			k := newChecker(t, c)
			shipped, shippedCallee := k.shipped(c.caller), k.shipped(c.callee)

			// The first touch starts the server and opens the caller.
			k.edit("breaking edit", c.text(t, shipped, c.badCall, 0), c.tooMany)
			k.signalInUse()
			k.edit("fixing edit", shipped)
			k.alternate(shipped)
			// The last alternation left a clean text with padding: going
			// back to the shipped text is a clean edit of a clean file.
			k.edit("clean edit", shipped)

			// Write mode: the callee gains a parameter, which breaks the
			// caller (open since the edits above) in another file.
			k.write("signature change", c.twoParams, true)
			k.write("signature change undone", shippedCallee, false)
		})
	}
}

// TestCatalogueRoots checks where each catalogue server's root lands in
// monorepo layouts: the nearest directory holding the server's first
// marker found, never above the workspace; a JavaScript monorepo's root
// (its workspace manifest) before any package's own.
func TestCatalogueRoots(t *testing.T) {
	servers := config.Default().LSP.Servers
	tests := []struct {
		name   string
		server string
		files  []string // created empty, or with the text after "=" (path=text); the workspace is the temp dir
		file   string   // the file whose root is asked
		want   string   // its root, relative to the workspace ("." for the workspace)
	}{
		{"go: every module of the workspace in one", "gopls", []string{"a/go.mod", "b/go.mod"}, "a/x/y.go", "."},
		{"go: a go.work below the workspace", "gopls", []string{"svc/go.work", "svc/a/go.mod", "b/go.mod"}, "svc/a/x.go", "svc"},
		{"go: go.work wins over a nearer go.mod", "gopls", []string{"go.work", "a/go.mod", "b/go.mod"}, "a/x/y.go", "."},
		{"go: no module", "gopls", nil, "cmd/main.go", "."},
		{"go: a module above the workspace is out of bounds", "gopls", []string{"../go.mod"}, "x.go", "."},
		{"py: nearest pyproject.toml", "pyright", []string{"pyproject.toml", "pkgs/a/pyproject.toml"}, "pkgs/a/src/m.py", "pkgs/a"},
		{"py: setup.py package under a requirements.txt repo", "pyright", []string{"requirements.txt", "pkgs/a/setup.py"}, "pkgs/a/m.py", "pkgs/a"},
		{"py: pyrightconfig.json covers the packages below it", "pyright", []string{"pyrightconfig.json", "pkgs/a/pyproject.toml"}, "pkgs/a/m.py", "."},
		{"py: uv workspace: one root for its members", "pyright",
			[]string{"pyproject.toml=[project]\nname = \"acme\"\n[tool.uv.workspace]\nmembers = [\"pkgs/*\"]\n", "pkgs/a/pyproject.toml"}, "pkgs/a/src/a/m.py", "."},
		{"py: a pyproject.toml that is no TOML is no workspace root", "pyright",
			[]string{"pyproject.toml=[tool.uv.workspace", "pkgs/a/pyproject.toml"}, "pkgs/a/m.py", "pkgs/a"},
		{"ts: package with its own tsconfig.json", "typescript-language-server",
			[]string{"package.json", "tsconfig.json", "packages/a/package.json", "packages/a/tsconfig.json"}, "packages/a/src/x.ts", "packages/a"},
		{"ts: package.json-only package under a root tsconfig.json", "typescript-language-server",
			[]string{"package.json", "tsconfig.json", "packages/b/package.json"}, "packages/b/src/x.ts", "."},
		{"ts: plain JavaScript package", "typescript-language-server", []string{"web/package.json"}, "web/app.js", "web"},
		{"ts: pnpm workspace: one root for its packages", "typescript-language-server",
			[]string{"pnpm-workspace.yaml", "package.json", "packages/a/package.json", "packages/a/tsconfig.json"}, "packages/a/src/x.ts", "."},
		{"ts: npm workspaces: one root for its packages", "typescript-language-server",
			[]string{`package.json={"name": "mono", "workspaces": ["packages/*"]}`, "packages/a/package.json", "packages/a/tsconfig.json"}, "packages/a/src/x.ts", "."},
		{"ts: yarn workspaces object, JSONC", "typescript-language-server",
			[]string{"package.json={\"workspaces\": {\"packages\": [\"packages/*\"]},}", "packages/a/tsconfig.json"}, "packages/a/x.ts", "."},
		{"ts: Nx workspace: one root for its projects", "typescript-language-server",
			[]string{"nx.json", "package.json", "tsconfig.base.json", "libs/core/tsconfig.json"}, "libs/core/src/index.ts", "."},
		{"ts: a monorepo below the workspace root", "typescript-language-server",
			[]string{"tsconfig.json", "web/lerna.json", "web/packages/a/tsconfig.json"}, "web/packages/a/x.ts", "web"},
		{"ts: a package.json that is no JSON is no monorepo root", "typescript-language-server",
			[]string{"package.json=workspaces", "packages/a/tsconfig.json"}, "packages/a/x.ts", "packages/a"},
		{"c: one compile_commands.json for the tree", "clangd",
			[]string{"compile_commands.json", "third_party/z/compile_flags.txt"}, "third_party/z/z.c", "."},
		{"c: compile_flags.txt project", "clangd", []string{"tools/gen/compile_flags.txt"}, "tools/gen/gen.c", "tools/gen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := tempDir(t)
			ws := filepath.Join(base, "ws")
			files := map[string]string{}
			for _, f := range append(slices.Clone(tt.files), tt.file) {
				name, text, _ := strings.Cut(f, "=")
				files[filepath.Join("ws", filepath.FromSlash(name))] = text
			}
			writeFiles(t, base, files)
			s, ok := servers[tt.server]
			if !ok {
				t.Fatalf("no %s in the catalogue", tt.server)
			}
			got := FindRoot(filepath.Join(ws, filepath.FromSlash(tt.file)), s.RootMarkers, ws)
			if want := filepath.Join(ws, filepath.FromSlash(tt.want)); got != want {
				t.Errorf("root of %s with markers %v = %s, want %s", tt.file, s.RootMarkers, got, want)
			}
		})
	}
}

// TestMonorepoRoots checks two packages of one repository against real
// servers: one process per package root, each answering for its own files
// (gopls: one at the workspace root, or the go.work's, a view per module).
func TestMonorepoRoots(t *testing.T) {
	tests := []struct {
		name, server, exe string
		files             map[string]string // the workspace
		broken            string            // a file with one error, in package a
		clean             string            // a clean file, in package b
		roots             []string          // the roots Status must list, relative
	}{
		{
			name: "two Go modules", server: "gopls", exe: "gopls",
			files: map[string]string{
				"a/go.mod": "module example.com/a\n\ngo 1.22\n", "a/a.go": "package a\n\nvar N int = \"x\"\n",
				"b/go.mod": "module example.com/b\n\ngo 1.22\n", "b/b.go": "package b\n\nvar N int = 1\n",
			},
			broken: "a/a.go", clean: "b/b.go", roots: []string{"."}, // one gopls, a view per module
		},
		{
			name: "Go workspace of two modules", server: "gopls", exe: "gopls",
			files: map[string]string{
				"go.work":  "go 1.22\n\nuse (\n\t./a\n\t./b\n)\n",
				"a/go.mod": "module example.com/a\n\ngo 1.22\n", "a/a.go": "package a\n\nvar N int = \"x\"\n",
				"b/go.mod": "module example.com/b\n\ngo 1.22\n", "b/b.go": "package b\n\nvar N int = 1\n",
			},
			broken: "a/a.go", clean: "b/b.go", roots: []string{"."},
		},
		{
			name: "two Python packages", server: "pyright", exe: "pyright-langserver",
			files: map[string]string{
				"a/pyproject.toml": "[project]\nname = \"a\"\nversion = \"0\"\n", "a/a.py": "\"\"\"A.\"\"\"\n\nn: int = \"x\"\n",
				"b/pyproject.toml": "[project]\nname = \"b\"\nversion = \"0\"\n", "b/b.py": "\"\"\"B.\"\"\"\n\nn: int = 1\n",
			},
			broken: "a/a.py", clean: "b/b.py", roots: []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireServer(t, tt.exe)
			t.Parallel()
			dir := workspace(t, tt.files)
			m := NewManager(config.Default(), dir, testLogger(t))
			t.Cleanup(m.Shutdown)
			broken, clean := filepath.Join(dir, filepath.FromSlash(tt.broken)), filepath.Join(dir, filepath.FromSlash(tt.clean))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			outs := m.Check(ctx, []Doc{{Path: broken}, {Path: clean}}, 0)
			files := make(map[string][]diag.Diagnostic)
			for _, o := range outs {
				if o.Server != tt.server {
					continue
				}
				if o.Freshness != Fresh {
					t.Errorf("%s for %s: %s (%v)", o.Server, o.Root, o.Freshness, o.Err)
				}
				for p, ds := range o.Files {
					files[p] = append(files[p], ds...)
				}
			}
			if ds := errorsOf(files[broken]); len(ds) != 1 || ds[0].Line != 3 {
				t.Errorf("%s: errors %+v, want one on line 3", tt.broken, ds)
			}
			if ds := errorsOf(files[clean]); len(ds) != 0 {
				t.Errorf("%s: errors %+v, want none", tt.clean, ds)
			}
			var roots []string
			pids := make(map[int]bool)
			for _, s := range m.Status() {
				if s.Name != tt.server {
					continue
				}
				rel, err := filepath.Rel(dir, s.Root)
				if err != nil || s.State != StateActive || s.Pid == 0 {
					t.Errorf("status entry %+v: want an active %s under %s", s, tt.server, dir)
				}
				roots = append(roots, filepath.ToSlash(rel))
				pids[s.Pid] = true
			}
			if !slices.Equal(roots, tt.roots) || len(pids) != len(tt.roots) {
				t.Errorf("%s roots = %v (%d processes), want %v, one process each", tt.server, roots, len(pids), tt.roots)
			}
		})
	}
}
