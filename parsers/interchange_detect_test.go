package parsers

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDetectInterchange checks that auto-detection tells the interchange
// formats apart from each other, also on a sample cut short, and leaves
// alone what they must not claim.
func TestDetectInterchange(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join("testdata", p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name, sample, want string
	}{
		{"sarif cut short", read("sarif/eslint-formatter-sarif.out")[:300], "sarif"},
		{"sarif $schema first", `{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[`, "sarif"},
		{"lsp params, not rdjson", `{"uri":"file:///a.go","diagnostics":[]}`, "lsp"},
		{"lsp trace line", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", "lsp"},
		{"lsp array cut short", read("lsp/diagnostic-array.out")[:120], "lsp"},
		{"rdjson", `{"source":{"name":"x"},"diagnostics":[{"message":"m"}]}`, "rdjson"},
		{"rdjsonl with BOM", "\ufeff" + `{"message":"m","location":{"path":"a.go"}}` + "\n", "rdjsonl"},
		{"lsp-hook json", `{"files":[{"path":"/a.go","rel":"a.go","diagnostics":[]}],"errors":0}`, "json"},
		{"generic array", `[{"file":"a.py","line":1,"message":"m"}]`, "json"},
	}
	for _, tt := range tests {
		if got := Detect([]byte(tt.sample)); got == nil || got.Name != tt.want {
			t.Errorf("%s: Detect = %v, want %s", tt.name, got, tt.want)
		}
	}
	// What none of them may claim.
	mine := map[string]func([]byte) bool{"sarif": detectSARIF, "rdjson": detectRDJSON, "rdjsonl": detectRDJSONL, "lsp": detectLSP, "json": detectJSONArray}
	for _, s := range []string{
		"", "main.go:1:2: error: x", "[]", "{}", `[{"filePath":"/a.js","messages":[]}]`, `{"Issues":[]}`,
		`[{"code":"F401","message":"m","location":{"row":1,"column":1}}]`, `{"reason":"compiler-message","message":{}}`,
	} {
		for name, detect := range mine {
			if detect([]byte(s)) {
				t.Errorf("%s claims %q", name, s)
			}
		}
	}
}
