package parsers

import (
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParsePyright(t *testing.T) {
	runToolCases(t, "pyright", ParsePyright, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "clean", in: `{"version":"1.1.414","generalDiagnostics":[],"summary":{"errorCount":0}}`, want: nil},
		{
			name: "0-based range becomes 1-based",
			in:   `{"generalDiagnostics":[{"file":"/p/a.py","severity":"error","message":"m","range":{"start":{"line":0,"character":0},"end":{"line":2,"character":4}},"rule":"reportGeneralTypeIssues"}]}`,
			want: []diag.Diagnostic{{Path: "/p/a.py", Line: 1, Column: 1, EndLine: 3, EndColumn: 5, Severity: diag.SeverityError, Code: "reportGeneralTypeIssues", Message: "m"}},
		},
		{
			name: "warning and information without rule",
			in: `{"generalDiagnostics":[` +
				`{"file":"/p/a.py","severity":"warning","message":"w","range":{"start":{"line":4,"character":2},"end":{"line":4,"character":3}},"rule":"reportUnusedImport"},` +
				`{"file":"/p/a.py","severity":"information","message":"Type of \"x\" is \"int\"","range":{"start":{"line":5,"character":12},"end":{"line":5,"character":13}}}]}`,
			want: []diag.Diagnostic{
				{Path: "/p/a.py", Line: 5, Column: 3, EndLine: 5, EndColumn: 4, Severity: diag.SeverityWarning, Code: "reportUnusedImport", Message: "w"},
				{Path: "/p/a.py", Line: 6, Column: 13, EndLine: 6, EndColumn: 14, Severity: diag.SeverityInfo, Message: `Type of "x" is "int"`},
			},
		},
		{
			name: "no range is the whole file",
			in:   `{"generalDiagnostics":[{"file":"/p/a.py","severity":"error","message":"Import cycle detected"}]}`,
			want: []diag.Diagnostic{{Path: "/p/a.py", Line: 1, Severity: diag.SeverityError, Message: "Import cycle detected"}},
		},
		{name: "unknown severity", in: `{"generalDiagnostics":[{"file":"/p/a.py","severity":"hint","message":"m"}]}`, wantErr: `unknown severity "hint"`},
		{name: "no generalDiagnostics", in: `{"version":"1.1.414","summary":{}}`, wantErr: "no generalDiagnostics"},
		{name: "truncated", in: `{"version":"1.1.414","generalDiagnostics":[{"file":"/p/a.py",`, wantErr: "unexpected EOF"},
		{name: "text output", in: "/p/a.py\n  /p/a.py:1:8 - error: Import \"x\" could not be resolved\n", wantErr: "invalid character"},
		{name: "line overflows when made 1-based", in: `{"generalDiagnostics":[{"file":"/p/a.py","severity":"error","message":"m","range":{"start":{"line":9223372036854775807,"character":0},"end":{"line":0,"character":0}}}]}`, wantErr: "out of range"},
	})
}

func TestDetectPyright(t *testing.T) {
	runDetectCases(t, detectPyright, []detectCase{
		{"pyright output", "{\n    \"version\": \"1.1.414\",\n    \"time\": \"1\",\n    \"generalDiagnostics\": [", true},
		{"shellcheck json1", `{"comments":[]}`, false},
		{"array", `[{"generalDiagnostics":[]}]`, false},
	})
}
