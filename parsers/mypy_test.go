package parsers

import (
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseMypy(t *testing.T) {
	runToolCases(t, "mypy", ParseMypy, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "success", in: "Success: no issues found in 3 source files\n", want: nil},
		{
			name: "plain, columns and error end",
			in: "a.py:3: error: Name \"x\" is not defined  [name-defined]\n" +
				"a.py:4:7: error: Incompatible return value type (got \"int\", expected \"str\")  [return-value]\n" +
				"a.py:5:1:5:9: note: Revealed type is \"builtins.int\"\n" +
				"Found 2 errors in 1 file (checked 1 source file)\n",
			want: []diag.Diagnostic{
				{Path: "a.py", Line: 3, Severity: diag.SeverityError, Code: "name-defined", Message: `Name "x" is not defined`},
				{Path: "a.py", Line: 4, Column: 7, Severity: diag.SeverityError, Code: "return-value", Message: `Incompatible return value type (got "int", expected "str")`},
				{Path: "a.py", Line: 5, Column: 1, EndLine: 5, EndColumn: 10, Severity: diag.SeverityInfo, Message: `Revealed type is "builtins.int"`},
			},
		},
		{
			name: "error context lines and pretty excerpts are skipped",
			in: "a.py: note: In function \"f\":\n" +
				"a.py:2:5: error: Unsupported operand types  [operator]\n" +
				"        return 1 + \"x\"\n" +
				"               ^~~~~~~\n" +
				"Found 1 error in 1 file (checked 1 source file)\r\n",
			want: []diag.Diagnostic{{Path: "a.py", Line: 2, Column: 5, Severity: diag.SeverityError, Code: "operator", Message: "Unsupported operand types"}},
		},
		{
			name: "error about a whole file, CRLF, Windows path",
			in:   "pkg\\m.py: error: Duplicate module named \"m\"\r\nC:\\src\\a.py:3:5: error: Bad  [misc]\r\n",
			want: []diag.Diagnostic{
				{Path: "pkg\\m.py", Line: 1, Severity: diag.SeverityError, Message: `Duplicate module named "m"`},
				{Path: "C:\\src\\a.py", Line: 3, Column: 5, Severity: diag.SeverityError, Code: "misc", Message: "Bad"},
			},
		},
		{
			name: "syntax error columns are dropped",
			in:   "b.py:1:21:1:21: error: '(' was never closed  [syntax]\nFound 1 error in 1 file (errors prevented further checking)\n",
			want: []diag.Diagnostic{{Path: "b.py", Line: 1, Severity: diag.SeverityError, Code: "syntax", Message: "'(' was never closed"}},
		},
		{
			name: "json lines with hint, unknown position and a summary",
			in: `{"file": "a.py", "line": 5, "column": 0, "end_line": 5, "end_column": 6, "message": "Too many arguments for \"foo\"", "hint": null, "code": "call-arg", "severity": "error"}` + "\n" +
				`{"file": "a.py", "line": 7, "column": 4, "message": "No overload variant", "hint": "Possible overload variants:\n    def f() -> None", "code": "call-overload", "severity": "error"}` + "\n" +
				`{"file": "a.py", "line": -1, "column": -1, "message": "Stub file not found", "hint": null, "code": null, "severity": "note"}` + "\n" +
				`{"file": "b.py", "line": 2, "column": -1, "message": "invalid syntax", "hint": null, "code": "syntax", "severity": "error"}` + "\n" +
				"Found 3 errors in 2 files (checked 2 source files)\n",
			want: []diag.Diagnostic{
				{Path: "a.py", Line: 5, Column: 1, EndLine: 5, EndColumn: 7, Severity: diag.SeverityError, Code: "call-arg", Message: `Too many arguments for "foo"`},
				{Path: "a.py", Line: 7, Column: 5, Severity: diag.SeverityError, Code: "call-overload", Message: "No overload variant\nPossible overload variants:\n    def f() -> None"},
				{Path: "a.py", Line: 1, Severity: diag.SeverityInfo, Message: "Stub file not found"},
				{Path: "b.py", Line: 2, Severity: diag.SeverityError, Code: "syntax", Message: "invalid syntax"},
			},
		},
		{name: "truncated json line", in: `{"file": "a.py", "line": 5, "col`, wantErr: "line 1"},
		{name: "unknown json severity", in: `{"file": "a.py", "line": 5, "column": 0, "message": "m", "hint": null, "code": null, "severity": "warning"}`, wantErr: `unknown severity "warning"`},
		{name: "crash report", in: "Traceback (most recent call last):\n  File \"mypy/main.py\", line 1\nKeyError: 'x'\n", wantErr: "no line is mypy output"},
		{name: "line number too large", in: "a.py:99999999999999999999: error: m  [misc]\n", wantErr: "out of range"},
	})
}

func TestDetectMypy(t *testing.T) {
	runDetectCases(t, detectMypy, []detectCase{
		{"text", "a.py:3: error: Name \"x\" is not defined  [name-defined]\n", true},
		{"columns", "src/a.py:3:5: error: m  [misc]\n", true},
		{"summary only", "Success: no issues found in 1 source file\n", true},
		{"json", `{"file": "main", "line": 5, "column": 0, "message": "m", "hint": null, "code": "call-arg", "severity": "error"}` + "\n", true},
		{"shellcheck gcc", "a.sh:2:6: note: Double quote to prevent globbing. [SC2086]\n", false},
		{"cargo short", "src/lib.rs:3:37: error[E0308]: mismatched types\n", false},
		{"go vet", "./a.go:3:5: unreachable code\n", false},
	})
}
