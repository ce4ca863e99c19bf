package parsers

import (
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseESLint(t *testing.T) {
	runToolCases(t, "eslint", ParseESLint, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "no files", in: "[]", want: nil},
		{name: "clean file", in: `[{"filePath":"/p/a.js","messages":[],"errorCount":0}]`, want: nil},
		{
			name: "severities",
			in: `[{"filePath":"/p/a.js","messages":[` +
				`{"ruleId":"no-undef","severity":2,"message":"'x' is not defined.","line":3,"column":5,"endLine":3,"endColumn":6},` +
				`{"ruleId":"no-console","severity":1,"message":"Unexpected console statement.","line":4,"column":1,"endLine":4,"endColumn":12}]}]`,
			want: []diag.Diagnostic{
				{Path: "/p/a.js", Line: 3, Column: 5, EndLine: 3, EndColumn: 6, Severity: diag.SeverityError, Code: "no-undef", Message: "'x' is not defined."},
				{Path: "/p/a.js", Line: 4, Column: 1, EndLine: 4, EndColumn: 12, Severity: diag.SeverityWarning, Code: "no-console", Message: "Unexpected console statement."},
			},
		},
		{
			name: "fatal parse error with null ruleId",
			in:   `[{"filePath":"/p/b.js","messages":[{"ruleId":null,"nodeType":null,"fatal":true,"severity":2,"message":"Parsing error: Unexpected token","line":2,"column":17}]}]`,
			want: []diag.Diagnostic{{Path: "/p/b.js", Line: 2, Column: 17, Severity: diag.SeverityError, Message: "Parsing error: Unexpected token"}},
		},
		{
			name: "fatal is an error even at severity 1",
			in:   `[{"filePath":"/p/b.js","messages":[{"ruleId":null,"fatal":true,"severity":1,"message":"Parsing error","line":1,"column":1}]}]`,
			want: []diag.Diagnostic{{Path: "/p/b.js", Line: 1, Column: 1, Severity: diag.SeverityError, Message: "Parsing error"}},
		},
		{
			name: "message about the whole file",
			in:   `[{"filePath":"/p/vendor/c.js","messages":[{"fatal":false,"severity":1,"message":"File ignored because of a matching ignore pattern."}]}]`,
			want: []diag.Diagnostic{{Path: "/p/vendor/c.js", Line: 1, Severity: diag.SeverityWarning, Message: "File ignored because of a matching ignore pattern."}},
		},
		{name: "severity 0", in: `[{"filePath":"/p/a.js","messages":[{"ruleId":"x","severity":0,"message":"m","line":1,"column":1}]}]`, wantErr: "unknown severity 0"},
		{name: "result without messages", in: `[{"filePath":"/p/a.js"}]`, wantErr: "no messages array"},
		{name: "truncated", in: `[{"filePath":"/p/a.js","messages":[{"ruleId":"x","severity":2,`, wantErr: "unexpected EOF"},
		{name: "stylish output", in: "\n/p/a.js\n  3:5  error  'x' is not defined  no-undef\n", wantErr: "invalid character"},
		{name: "negative line", in: `[{"filePath":"/p/a.js","messages":[{"ruleId":"x","severity":2,"message":"m","line":-2,"column":1}]}]`, wantErr: "out of range"},
	})
}

func TestDetectESLint(t *testing.T) {
	runDetectCases(t, detectESLint, []detectCase{
		{"eslint output", `[{"filePath":"/p/a.js","messages":[]}]`, true},
		{"ruff output", `[{"code":"F401","filename":"a.py","location":{"column":8,"row":1},"end_location":{"column":10,"row":1},"message":"m"}]`, false},
		{"object", `{"filePath":"/p/a.js","messages":[]}`, false},
	})
}
