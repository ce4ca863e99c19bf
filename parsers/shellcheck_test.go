package parsers

import (
	"os"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseShellCheck(t *testing.T) {
	legacy, err := os.ReadFile("testdata/shellcheck/legacy-json.txt")
	if err != nil {
		t.Fatal(err)
	}
	runToolCases(t, "shellcheck", ParseShellCheck, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "clean", in: `{"comments":[]}`, want: nil},
		{
			name: "levels and codes",
			in: `{"comments":[` +
				`{"file":"a.sh","line":2,"endLine":2,"column":1,"endColumn":1,"level":"error","code":1073,"message":"e","fix":null},` +
				`{"file":"a.sh","line":3,"endLine":3,"column":6,"endColumn":8,"level":"warning","code":2034,"message":"w","fix":null},` +
				`{"file":"a.sh","line":4,"endLine":4,"column":5,"endColumn":7,"level":"info","code":2086,"message":"i","fix":{"replacements":[]}},` +
				`{"file":"a.sh","line":5,"endLine":5,"column":5,"endColumn":11,"level":"style","code":2006,"message":"s","fix":null}]}`,
			want: []diag.Diagnostic{
				{Path: "a.sh", Line: 2, Column: 1, EndLine: 2, EndColumn: 1, Severity: diag.SeverityError, Code: "SC1073", Message: "e"},
				{Path: "a.sh", Line: 3, Column: 6, EndLine: 3, EndColumn: 8, Severity: diag.SeverityWarning, Code: "SC2034", Message: "w"},
				{Path: "a.sh", Line: 4, Column: 5, EndLine: 4, EndColumn: 7, Severity: diag.SeverityInfo, Code: "SC2086", Message: "i"},
				{Path: "a.sh", Line: 5, Column: 5, EndLine: 5, EndColumn: 11, Severity: diag.SeverityHint, Code: "SC2006", Message: "s"},
			},
		},
		{name: "legacy -f json counts tabs as 8", in: string(legacy), wantErr: "json1"},
		{name: "unknown level", in: `{"comments":[{"file":"a.sh","line":1,"column":1,"level":"fatal","code":1,"message":"m"}]}`, wantErr: `unknown level "fatal"`},
		{name: "no comments key", in: `{"version":1}`, wantErr: "no comments"},
		{name: "truncated", in: `{"comments":[{"file":"a.sh","line":1,`, wantErr: "unexpected EOF"},
		{name: "tty output", in: "\nIn a.sh line 2:\necho $1\n     ^-- SC2086 (info)\n", wantErr: "invalid character"},
	})
}

func TestDetectShellCheck(t *testing.T) {
	runDetectCases(t, detectShellCheck, []detectCase{
		{"json1", `{"comments":[{"file":"a.sh"`, true},
		{"json1 clean", "{\"comments\":[]}\n", true},
		{"legacy json", `[{"file":"a.sh","line":2}]`, false},
		{"other object", `{"generalDiagnostics":[],"comments":[]}`, false},
	})
}
