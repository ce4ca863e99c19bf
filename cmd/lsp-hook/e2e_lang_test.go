package main_test

// End-to-end tests per live language: the real binary and daemon, the real
// server of the catalogue, and Claude Code Edit events on a copy of
// testdata/langs/<lang> (see its README). The npm-installed servers of
// `make tools` live in .tools/npm/node_modules/.bin, which each workspace
// here puts on the PATH of its hooks and daemon.

import (
	"fmt"
	"strings"
	"testing"
)

// langCase is one language: the call in the caller that a breaking Edit
// gives an extra argument after an emoji, and the lint line that must come
// back for it.
type langCase struct {
	lang, exe string
	caller    string // the edited file, relative to the project
	call      string // the call line as shipped, with the argument "world"
	want      wantDiag
	// exact: want.msg is the whole message and the block must be exactly
	// that one line, for servers whose version `make tools` pins; not for
	// clangd, which comes from the system's packages.
	exact bool
}

var langCases = []langCase{
	{
		lang: "go", exe: "gopls", caller: "main.go", call: "\tfmt.Println(greet.Greet(\"world\"))",
		want:  wantDiag{file: "main.go", line: 10, col: 31, msg: "too many arguments in call to greet.Greet have (string, number) want (string)", code: "WrongArgCount"},
		exact: true,
	},
	{
		lang: "py", exe: "pyright-langserver", caller: "main.py", call: "    print(greet(\"world\"))",
		want:  wantDiag{file: "main.py", line: 5, col: 22, msg: "Expected 1 positional argument", code: "reportCallIssue"},
		exact: true,
	},
	{
		lang: "ts", exe: "typescript-language-server", caller: "src/main.ts", call: "  console.log(greet(\"world\"));",
		want:  wantDiag{file: "src/main.ts", line: 4, col: 26, msg: "Expected 1 arguments, but got 2.", code: "ts2554"},
		exact: true,
	},
	{
		lang: "c", exe: "clangd", caller: "main.c", call: "  greet(\"world\");",
		want: wantDiag{file: "main.c", line: 4, col: 14, msg: "Too many arguments to function call", code: "typecheck_call_too_many_args_one"},
	},
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
			w := newWorkspaceOf(t, "langs/"+c.lang, "", []string{"PATH=" + langPath()})
			shipped := w.readFile(c.caller)
			if strings.Count(shipped, c.call+"\n") != 1 {
				t.Fatalf("%s does not hold %q exactly once", c.caller, c.call)
			}
			bad := strings.Replace(c.call, `"world"`, `"🙂", 3`, 1)
			broken := strings.Replace(shipped, c.call+"\n", bad+"\n", 1)

			block := w.hook(w.edit("s", c.caller, broken))
			checkLint(t, block, []wantDiag{c.want})
			if c.exact {
				d := c.want
				want := fmt.Sprintf("%s\n<diagnostics file=\"%s\">\nERROR [%d:%d] %s (%s)\n</diagnostics>", headerThisFile, d.file, d.line, d.col, d.msg, d.code)
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
