package parsers

import (
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseShellCheckGCC(t *testing.T) {
	runToolCases(t, "shellcheck-gcc", ParseShellCheckGCC, []toolCase{
		{name: "empty output", in: "", want: nil},
		{
			name: "levels",
			in: "a.sh:2:1: error: Couldn't parse this if expression. [SC1073]\n" +
				"a.sh:3:6: warning: x appears unused. [SC2034]\r\n" +
				"a.sh:4:5: note: Double quote to prevent globbing [and] splitting. [SC2086]\n",
			want: []diag.Diagnostic{
				{Path: "a.sh", Line: 2, Column: 1, Severity: diag.SeverityError, Code: "SC1073", Message: "Couldn't parse this if expression."},
				{Path: "a.sh", Line: 3, Column: 6, Severity: diag.SeverityWarning, Code: "SC2034", Message: "x appears unused."},
				{Path: "a.sh", Line: 4, Column: 5, Severity: diag.SeverityInfo, Code: "SC2086", Message: "Double quote to prevent globbing [and] splitting."},
			},
		},
		{name: "json1 output", in: `{"comments":[]}`, wantErr: "no line is shellcheck-gcc output"},
		{name: "line too large", in: "a.sh:99999999999999999999:1: error: m [SC1000]\n", wantErr: "out of range"},
	})
}

func TestDetectShellCheckGCC(t *testing.T) {
	runDetectCases(t, detectShellCheckGCC, []detectCase{
		{"gcc", "a.sh:2:6: note: Double quote to prevent globbing. [SC2086]\n", true},
		{"gcc C compiler", "a.c:3:5: error: expected ';' before '}' token\n", false},
		{"mypy", "a.py:3:5: error: m  [misc]\n", false},
	})
}
