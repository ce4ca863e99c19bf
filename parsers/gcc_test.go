package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseGCC(t *testing.T) {
	e, w, i := diag.SeverityError, diag.SeverityWarning, diag.SeverityInfo
	long := strings.Repeat("z", 100<<10)
	runToolCases(t, "gcc", ParseGCC, []toolCase{
		{name: "empty output", in: "", want: nil},
		{
			name: "kinds, codes, skipped lines",
			in: "In file included from a.c:3:\n" +
				"                 from b.c:1:\n" +
				"a.h:2:5: note: previous declaration\n" +
				"    2 | int area(int w, int h);\n" +
				"      |     ^~~~\n" +
				"a.c: In function 'main':\n" +
				"a.c:9:14: warning: unused variable 'n' [-Wunused-variable]\n" +
				"a.c:10:1: error: expected ';' [-Werror=format=]\n" +
				"a.c:11: remark: inlined [-Rpass=inline]\n" +
				"a.c:12:3: fatal error: x.h: No such file or directory\n" +
				"compilation terminated.\n" +
				"2 warnings and 2 errors generated.\n",
			want: []diag.Diagnostic{
				{Path: "a.h", Line: 2, Column: 5, Severity: i, Message: "previous declaration"},
				{Path: "a.c", Line: 9, Column: 14, Severity: w, Code: "-Wunused-variable", Message: "unused variable 'n'"},
				{Path: "a.c", Line: 10, Column: 1, Severity: e, Code: "-Wformat=", Message: "expected ';'"},
				{Path: "a.c", Line: 11, Severity: i, Code: "-Rpass=inline", Message: "inlined"},
				{Path: "a.c", Line: 12, Column: 3, Severity: e, Message: "x.h: No such file or directory"},
			},
		},
		{
			name: "clang -Werror, clang-tidy, CRLF, Windows path",
			in: "a.c:9:6: error: incompatible [-Werror,-Wint-conversion]\r\n" +
				`C:\src\a.c:3:1: warning: statement should be inside braces [readability-braces-around-statements]` + "\r\n" +
				"a.c:4:2: warning: unused [clang-diagnostic-unused-variable,-warnings-as-errors]\r\n" +
				"a.c:5:2: error: array of type 'int [5]'\r\n",
			want: []diag.Diagnostic{
				{Path: "a.c", Line: 9, Column: 6, Severity: e, Code: "-Wint-conversion", Message: "incompatible"},
				{Path: `C:\src\a.c`, Line: 3, Column: 1, Severity: w, Code: "readability-braces-around-statements", Message: "statement should be inside braces"},
				{Path: "a.c", Line: 4, Column: 2, Severity: w, Code: "clang-diagnostic-unused-variable", Message: "unused"},
				{Path: "a.c", Line: 5, Column: 2, Severity: e, Message: "array of type 'int [5]'"},
			},
		},
		{
			name: "driver diagnostics without a position",
			in:   "clang: error: no such file or directory: 'x.c'\ncc1: warning: command-line option '-Wfoo' is valid for C++ [-Wfoo]\ncollect2: error: ld returned 1 exit status\n",
			want: []diag.Diagnostic{
				{Severity: e, Message: "no such file or directory: 'x.c'"},
				{Severity: w, Code: "-Wfoo", Message: "command-line option '-Wfoo' is valid for C++"},
				{Severity: e, Message: "ld returned 1 exit status"},
			},
		},
		{
			name: "a line over 64 KiB",
			in:   "a.c:1:2: error: " + long + "\n",
			want: []diag.Diagnostic{{Path: "a.c", Line: 1, Column: 2, Severity: e, Message: long}},
		},
		{name: "other output", in: "hello world\n", wantErr: "no line is gcc output"},
		{name: "a line number too long", in: "a.c:1234567890:1: error: x\n", wantErr: "no line is gcc output"},
	})
}

func TestDetectGCC(t *testing.T) {
	runDetectCases(t, detectGCC, []detectCase{
		{"gcc", "a.c: In function 'main':\na.c:9:14: warning: unused variable\n", true},
		{"no column", "a.c:9: error: x\n", true},
		{"go", "a.go:1:2: undefined: x\n", false},
		{"source line", "    9 | a.c:9:14: warning: x\n", false},
	})
}
