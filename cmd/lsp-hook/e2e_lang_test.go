package main_test

// End-to-end tests per live language: the real binary and daemon, the real
// server of the catalogue, and Claude Code Edit events on a copy of
// testdata/langs/<lang> (see its README). The npm-installed servers of
// `make tools` live in .tools/npm/node_modules/.bin, which each workspace
// here puts on the PATH of its hooks and daemon.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// langCase is one language: the call a breaking Edit introduces in the
// caller, and the lint line that must come back for it.
type langCase struct {
	lang, exe string
	caller    string // the edited file, relative to the project
	goodCall  string // the call line as shipped
	badCall   string // the same call with an extra argument after an emoji
	want      wantDiag
	// line is the whole lint line, for servers whose version `make tools`
	// pins; "" for clangd, which comes from the system's packages.
	line string
}

var langCases = []langCase{
	{
		lang: "go", exe: "gopls", caller: "main.go",
		goodCall: "\tfmt.Println(greet.Greet(\"world\"))",
		badCall:  "\tfmt.Println(greet.Greet(\"🙂\", 3))",
		want:     wantDiag{file: "main.go", line: 10, col: 31, msg: "too many arguments in call to greet.Greet", code: "WrongArgCount"},
		line:     "ERROR [10:31] too many arguments in call to greet.Greet have (string, number) want (string) (WrongArgCount)",
	},
	{
		lang: "py", exe: "pyright-langserver", caller: "main.py",
		goodCall: "    print(greet(\"world\"))",
		badCall:  "    print(greet(\"🙂\", 3))",
		want:     wantDiag{file: "main.py", line: 5, col: 22, msg: "Expected 1 positional argument", code: "reportCallIssue"},
		line:     "ERROR [5:22] Expected 1 positional argument (reportCallIssue)",
	},
	{
		lang: "ts", exe: "typescript-language-server", caller: "src/main.ts",
		goodCall: "  console.log(greet(\"world\"));",
		badCall:  "  console.log(greet(\"🙂\", 3));",
		want:     wantDiag{file: "src/main.ts", line: 4, col: 26, msg: "Expected 1 arguments, but got 2.", code: "ts2554"},
		line:     "ERROR [4:26] Expected 1 arguments, but got 2. (ts2554)",
	},
	{
		lang: "c", exe: "clangd", caller: "main.c",
		goodCall: "  greet(\"world\");",
		badCall:  "  greet(\"🙂\", 3);",
		want:     wantDiag{file: "main.c", line: 4, col: 14, msg: "Too many arguments to function call", code: "typecheck_call_too_many_args_one"},
	},
}

// npmBin is where `make tools` installs pyright-langserver and
// typescript-language-server.
func npmBin() string { return filepath.Join(moduleRoot, ".tools", "npm", "node_modules", ".bin") }

// langPath is the PATH of the tests' hooks and daemons: the npm servers,
// then this process's PATH (which TestMain starts with .tools/bin).
func langPath() string {
	return npmBin() + string(os.PathListSeparator) + os.Getenv("PATH")
}

// requireExe skips the test when exe is not on langPath, or fails it when
// LSP_HOOK_REQUIRE_SERVERS=1 (as `make test` sets).
func requireExe(t *testing.T, exe string) {
	t.Helper()
	for _, dir := range filepath.SplitList(langPath()) {
		if fi, err := os.Stat(filepath.Join(dir, exe)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return
		}
	}
	if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
		t.Fatalf("%s is required (LSP_HOOK_REQUIRE_SERVERS=1) but not on PATH or in .tools; run `make tools`", exe)
	}
	t.Skipf("%s not installed (run `make tools`)", exe)
}

// newLangWorkspace copies testdata/langs/<lang> into a temp dir made a git
// repository (its own workspace root), with the npm servers on PATH, and
// stops its daemon when the test ends.
func newLangWorkspace(t *testing.T, lang string) *workspace {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(root, os.DirFS(filepath.Join(moduleRoot, "testdata", "langs", lang))); err != nil {
		t.Fatal(err)
	}
	rt := shortTempDir(t)
	w := &workspace{t: t, root: root, runtime: rt, env: childEnv(rt, []string{"PATH=" + langPath()})}
	if git, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command(git, "-C", root, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	} else if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.stopAll)
	return w
}

// TestLanguageEdits runs, per live language, the Edit that breaks a call
// (the hook prints the exact lint line: position in characters past an
// emoji, message and code) and the Edit that fixes it (the hook prints
// nothing). The breaking Edit starts the daemon and the server cold.
func TestLanguageEdits(t *testing.T) {
	e2e(t)
	for _, c := range langCases {
		t.Run(c.lang, func(t *testing.T) {
			requireExe(t, c.exe)
			w := newLangWorkspace(t, c.lang)
			shipped := w.readFile(c.caller)
			if strings.Count(shipped, c.goodCall+"\n") != 1 {
				t.Fatalf("%s does not hold %q exactly once", c.caller, c.goodCall)
			}
			broken := strings.Replace(shipped, c.goodCall+"\n", c.badCall+"\n", 1)

			block := w.hook(w.edit("s", c.caller, broken))
			checkLint(t, block, []wantDiag{c.want})
			if c.line != "" {
				want := headerThisFile + "\n<diagnostics file=\"" + c.want.file + "\">\n" + c.line + "\n</diagnostics>"
				if block != want {
					t.Errorf("lint block:\n%s\nwant exactly:\n%s", indent(block), indent(want))
				}
			}
			if block := w.hook(w.edit("s", c.caller, shipped)); block != "" {
				t.Errorf("the fixing edit printed:\n%s", indent(block))
			}
		})
	}
}
