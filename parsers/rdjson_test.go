package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestRDJSONLErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", "src/a.go:1:2: message\n", "rdjsonl line 1"},
		{"second line", `{"message":"m"}` + "\nnope\n", "rdjsonl line 2"},
		{"no message", `{"location":{"path":"a.go"}}`, "line 1: no message"},
		{"severity", `{"message":"m","severity":"FATAL"}`, `unknown severity "FATAL"`},
		{"negative", `{"message":"m","location":{"path":"a","range":{"start":{"line":-1}}}}`, "not a non-negative int32"},
		{"float", `{"message":"m","location":{"path":"a","range":{"start":{"line":1.5}}}}`, "not a non-negative int32"},
		{"path type", `{"message":"m","location":{"path":3}}`, "rdjsonl line 1"},
	}
	for _, tt := range tests {
		_, err := ParseRDJSONL(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestRDJSONErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", "[", "parsing rdjson"},
		{"array", `[{"message":"m"}]`, "parsing rdjson"},
		{"two documents", `{"diagnostics":[]} {"diagnostics":[]}`, "data after the DiagnosticResult"},
		{"no message", `{"diagnostics":[{"location":{"path":"a"}}]}`, "diagnostic 0: no message"},
		{"result severity", `{"severity":"BAD","diagnostics":[]}`, `unknown severity "BAD"`},
	}
	for _, tt := range tests {
		_, err := ParseRDJSON(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestRDJSONLValues(t *testing.T) {
	tests := []struct {
		in   string
		want diag.Diagnostic
	}{
		{`{"message":"m","severity":2,"location":{"path":"a.go","range":{"start":{"line":"4","column":7},"end":{"line":4,"column":"9"}}}}`,
			diag.Diagnostic{Path: "a.go", Line: 4, Column: 7, EndLine: 4, EndColumn: 9, Severity: diag.SeverityWarning, Message: "m"}},
		{`{"message":"m","severity":"UNKNOWN_SEVERITY","code":{"value":"C"},"source":{"name":"s"}}`,
			diag.Diagnostic{Severity: diag.SeverityError, Code: "C", Source: "s", Message: "m"}},
		{`{"message":"m","severity":null,"location":{"path":"b","range":{"start":{"line":null}}}}`,
			diag.Diagnostic{Path: "b", Severity: diag.SeverityError, Message: "m"}},
	}
	for _, tt := range tests {
		ds, err := ParseRDJSONL(strings.NewReader(tt.in))
		if err != nil || len(ds) != 1 || ds[0] != tt.want {
			t.Errorf("ParseRDJSONL(%s) = %+v, %v; want %+v", tt.in, ds, err, tt.want)
		}
	}
}
