package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestJSONArrayErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", "a.go:1: x", "parsing JSON diagnostics"},
		{"scalar", `"x"`, "want an array or an object"},
		{"object without files", `{"diagnostics":[]}`, `without a "files" array`},
		{"element", `[1]`, "diagnostic 0 is not an object"},
		{"no message", `[{"path":"a"}]`, `diagnostic 0: no "message" string`},
		{"path type", `[{"path":1,"message":"m"}]`, `"path" is 1, not a string`},
		{"line type", `[{"line":"3","message":"m"}]`, `"line" is 3, not a line or column number`},
		{"negative column", `[{"line":3,"col":-1,"message":"m"}]`, `"col" is -1`},
		{"fraction", `[{"line":3.5,"message":"m"}]`, `"line" is 3.5`},
		{"severity name", `[{"message":"m","severity":"critical"}]`, "unknown severity critical"},
		{"severity number", `[{"message":"m","severity":5}]`, "unknown severity 5"},
		{"code type", `[{"message":"m","code":[1]}]`, `"code" is [1]`},
		{"files element", `{"files":[1]}`, "files[0] is not an object"},
		{"files diagnostics", `{"files":[{"path":"a","diagnostics":{}}]}`, "files[0].diagnostics is not an array"},
		{"files diagnostic", `{"files":[{"path":"a","diagnostics":[{"line":1}]}]}`, `files[0]: parsing JSON diagnostics: diagnostic 0: no "message"`},
		{"trailing", `[] []`, "data after the document"},
	}
	for _, tt := range tests {
		_, err := ParseJSONArray(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestJSONArraySeverity(t *testing.T) {
	tests := []struct {
		in   string
		want diag.Severity
	}{
		{`"error"`, diag.SeverityError}, {`"ERR"`, diag.SeverityError}, {`"Fatal"`, diag.SeverityError},
		{`"warning"`, diag.SeverityWarning}, {`"warn"`, diag.SeverityWarning},
		{`"info"`, diag.SeverityInfo}, {`"information"`, diag.SeverityInfo}, {`"note"`, diag.SeverityInfo}, {`"NOTICE"`, diag.SeverityInfo},
		{`"hint"`, diag.SeverityHint},
		{`1`, diag.SeverityError}, {`2`, diag.SeverityWarning}, {`3`, diag.SeverityInfo}, {`4`, diag.SeverityHint},
		{`null`, diag.SeverityError},
	}
	for _, tt := range tests {
		ds, err := ParseJSONArray(strings.NewReader(`[{"message":"m","severity":` + tt.in + `}]`))
		if err != nil || len(ds) != 1 || ds[0].Severity != tt.want {
			t.Errorf("severity %s: %+v, %v; want %v", tt.in, ds, err, tt.want)
		}
	}
}

func TestJSONArrayFilesPath(t *testing.T) {
	in := `{"files":[{"path":"/r/a.go","diagnostics":[{"line":1,"message":"inherits"},{"path":"/r/b.go","line":2,"message":"own"}]},{"path":"/r/c.go","diagnostics":[]},{"path":"/r/d.go"}],"errors":2}`
	ds, err := ParseJSONArray(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Path != "/r/a.go" || ds[1].Path != "/r/b.go" {
		t.Errorf("got %+v", ds)
	}
}
