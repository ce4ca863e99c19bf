package parsers

import (
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseRuff(t *testing.T) {
	runToolCases(t, "ruff", ParseRuff, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "no diagnostics", in: "[]\n", want: nil},
		{
			name: "rule violation is a warning",
			in:   `[{"cell":null,"code":"E501","end_location":{"column":101,"row":3},"filename":"a.py","fix":null,"location":{"column":89,"row":3},"message":"Line too long (100 > 88)","noqa_row":3,"url":null}]`,
			want: []diag.Diagnostic{{Path: "a.py", Line: 3, Column: 89, EndLine: 3, EndColumn: 101, Severity: diag.SeverityWarning, Code: "E501", Message: "Line too long (100 > 88)"}},
		},
		{
			name: "null code is a syntax error",
			in:   `[{"cell":null,"code":null,"end_location":{"column":1,"row":2},"filename":"a.py","fix":null,"location":{"column":5,"row":1},"message":"SyntaxError: Expected an expression","noqa_row":null,"url":null}]`,
			want: []diag.Diagnostic{{Path: "a.py", Line: 1, Column: 5, EndLine: 2, EndColumn: 1, Severity: diag.SeverityError, Message: "SyntaxError: Expected an expression"}},
		},
		{
			name: "E902 io error is an error",
			in:   `[{"code":"E902","filename":"gone.py","location":{"column":1,"row":1},"end_location":{"column":1,"row":1},"message":"No such file or directory (os error 2)"}]`,
			want: []diag.Diagnostic{{Path: "gone.py", Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Severity: diag.SeverityError, Code: "E902", Message: "No such file or directory (os error 2)"}},
		},
		{
			name: "preview mode without location or filename",
			in:   `[{"cell":null,"code":"test-diagnostic","end_location":null,"filename":null,"fix":null,"location":null,"message":"main diagnostic message","noqa_row":null,"url":null}]`,
			want: []diag.Diagnostic{{Line: 1, Severity: diag.SeverityWarning, Code: "test-diagnostic", Message: "main diagnostic message"}},
		},
		{
			name: "notebook cell position goes into the message",
			in:   `[{"cell":2,"code":"F401","end_location":{"column":12,"row":2},"filename":"nb.ipynb","location":{"column":8,"row":2},"message":"` + "`math` imported but unused" + `"}]`,
			want: []diag.Diagnostic{{Path: "nb.ipynb", Line: 1, Severity: diag.SeverityWarning, Code: "F401", Message: "`math` imported but unused (notebook cell 2, line 2, column 8)"}},
		},
		{name: "truncated", in: `[{"code":"F401","filename":"a.py","location":{"col`, wantErr: "unexpected EOF"},
		{name: "garbage", in: "error: ruff failed\n", wantErr: "invalid character"},
		{name: "null document", in: "null", wantErr: "null"},
		{name: "object instead of array", in: `{"code":"F401"}`, wantErr: "cannot unmarshal"},
		{name: "two documents", in: "[]\n[]\n", wantErr: "after the JSON document"},
		{name: "negative row", in: `[{"code":"F401","filename":"a.py","location":{"column":1,"row":-3},"message":"m"}]`, wantErr: "out of range"},
		{name: "row overflows int", in: `[{"code":"F401","filename":"a.py","location":{"column":1,"row":1e30},"message":"m"}]`, wantErr: "cannot unmarshal"},
	})
}

func TestDetectRuff(t *testing.T) {
	runDetectCases(t, detectRuff, []detectCase{
		{"ruff output", "[\n  {\n    \"cell\": null,\n    \"code\": \"F401\",\n    \"end_location\": {\"column\": 10, \"row\": 1},\n    \"filename\": \"a.py\",\n    \"location\": {\"column\": 8, \"row\": 1},\n    \"message\": \"m\"", true},
		{"eslint output", `[{"filePath":"/a.js","messages":[{"ruleId":"x","line":1,"column":1,"message":"m"}]}]`, false},
		{"empty array", "[]", false},
		{"pyright output", `{"generalDiagnostics":[]}`, false},
	})
}
