package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

const lspDiag = `{"range":{"start":{"line":2,"character":4},"end":{"line":2,"character":9}},"severity":2,"code":7,"source":"s","message":"m"}`

func TestLSPShapes(t *testing.T) {
	one := diag.Diagnostic{Line: 3, Column: 5, EndLine: 3, EndColumn: 10, Severity: diag.SeverityWarning, Code: "7", Source: "s", Message: "m"}
	at := func(path string) diag.Diagnostic { d := one; d.Path = path; return d }
	params := `{"uri":"file:///r/a%20b.go","version":3,"diagnostics":[` + lspDiag + `]}`
	tests := []struct {
		name, in string
		want     []diag.Diagnostic
	}{
		{"empty", "", nil},
		{"Diagnostic[]", "[" + lspDiag + "," + lspDiag + "]", []diag.Diagnostic{one, one}},
		{"one Diagnostic", lspDiag, []diag.Diagnostic{one}},
		{"PublishDiagnosticsParams", params, []diag.Diagnostic{at("/r/a b.go")}},
		{"params array", "[" + params + "," + params + "]", []diag.Diagnostic{at("/r/a b.go"), at("/r/a b.go")}},
		{"notification", `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":` + params + `}`, []diag.Diagnostic{at("/r/a b.go")}},
		{"trace", `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3,"message":"hi"}}` + "\n" +
			`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///r/c.go","diagnostics":[]}}` + "\n" +
			`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":` + params + "}\n", []diag.Diagnostic{at("/r/a b.go")}},
		{"full report", `{"kind":"full","resultId":"1","items":[` + lspDiag + `]}`, []diag.Diagnostic{one}},
		{"no severity, MarkupContent, string code", `[{"range":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}},"code":"E1","message":{"kind":"markdown","value":"**m**"}}]`,
			[]diag.Diagnostic{{Line: 1, Column: 1, EndLine: 2, EndColumn: 1, Severity: diag.SeverityError, Code: "E1", Message: "**m**"}}},
		{"hint", `[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":4,"message":"h","tags":[1]}]`,
			[]diag.Diagnostic{{Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: diag.SeverityHint, Message: "h"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := ParseLSP(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != len(tt.want) {
				t.Fatalf("got %d diagnostics %+v, want %d", len(ds), ds, len(tt.want))
			}
			for i := range ds {
				if ds[i] != tt.want[i] {
					t.Errorf("diagnostic %d = %+v, want %+v", i, ds[i], tt.want[i])
				}
			}
		})
	}
}

func TestLSPErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", "file.go:1:1: x", "parsing LSP JSON value 1"},
		{"second value", "[]\n{", "parsing LSP JSON value 2"},
		{"unknown object", `{"foo":1}`, "not an LSP Diagnostic"},
		{"scalar", `3`, "want an object"},
		{"uri scheme", `{"uri":"untitled:Untitled-1","diagnostics":[]}`, `uri "untitled:Untitled-1" is not a file:// URI`},
		{"uri host", `{"uri":"file://host/a.go","diagnostics":[]}`, "is not a file:// URI of a local file"},
		{"diagnostics type", `{"uri":"file:///a.go","diagnostics":{}}`, "diagnostics: want an array"},
		{"no range end", `[{"range":{"start":{"line":0,"character":0}},"message":"m"}]`, "element 0: range needs start and end"},
		{"no character", `[{"range":{"start":{"line":0},"end":{"line":0,"character":0}},"message":"m"}]`, "range needs start and end"},
		{"negative", `[{"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":0}},"message":"m"}]`, "element 0"},
		{"severity", `[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"severity":7,"message":"m"}]`, "severity 7 is not 1–4"},
		{"code", `[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"code":1.5,"message":"m"}]`, "code 1.5: want an integer or a string"},
		{"message", `[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"message":3}]`, "want a string or a MarkupContent"},
		{"in params", `{"uri":"file:///a.go","diagnostics":[{"message":"m"}]}`, "file:///a.go: diagnostic 0: range needs"},
	}
	for _, tt := range tests {
		_, err := ParseLSP(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
