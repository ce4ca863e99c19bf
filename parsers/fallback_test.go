package parsers

import (
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseFallback(t *testing.T) {
	e, w, i := diag.SeverityError, diag.SeverityWarning, diag.SeverityInfo
	long := strings.Repeat("x", 100<<10)
	runToolCases(t, FallbackName, ParseFallback, []toolCase{
		{name: "empty output", in: "", want: nil},
		{name: "no positions", in: "all good\nmake: *** [Makefile:4: all] Error 1\n12:30:45 done\n", want: nil},
		{
			name: "shapes and severities",
			in: "src/a.py:3:5: E501 line too long\r\n" +
				"WARNING in ./src/b.js:10 - unused\r\n" +
				"  at (lib/c.ts:7:2) note: here\r\n" +
				"Foo.cs(12,3): warning CS0168: unused\r\n" +
				"at C:\\proj\\d.c:4 info: fyi\r\n" +
				"fatal: e.rs:1\r\n" +
				"f.txt:2: 3 errors\n",
			want: []diag.Diagnostic{
				{Path: "src/a.py", Line: 3, Column: 5, Severity: e, Message: "E501 line too long"},
				{Path: "./src/b.js", Line: 10, Severity: w, Message: "unused"},
				{Path: "lib/c.ts", Line: 7, Column: 2, Severity: i, Message: "note: here"},
				{Path: "Foo.cs", Line: 12, Column: 3, Severity: w, Message: "warning CS0168: unused"},
				{Path: `C:\proj\d.c`, Line: 4, Severity: i, Message: "info: fyi"},
				{Path: "e.rs", Line: 1, Severity: e, Message: "fatal: e.rs:1"},
				{Path: "f.txt", Line: 2, Severity: e, Message: "3 errors"},
			},
		},
		{
			name: "a line over 64 KiB, no final newline",
			in:   "a.go:1:2: " + long,
			want: []diag.Diagnostic{{Path: "a.go", Line: 1, Column: 2, Severity: e, Message: long}},
		},
	})
}

// TestParseFallbackNeverFails feeds the fallback inputs other parsers
// refuse: it must return diagnostics or none, never an error.
func TestParseFallbackNeverFails(t *testing.T) {
	for _, in := range []string{
		"\x00\xff\xfe", "{", "a.go:99999999999999999999:1: x", strings.Repeat("a.go:1:1:", 1<<12),
		strings.Repeat("y", maxToolLine+1) + "\nb.c:1:1: x", // longer than other formats read
	} {
		ds, err := ParseFallback(strings.NewReader(in))
		if err != nil {
			t.Errorf("ParseFallback(%.20q): %v", in, err)
		}
		if slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Line < 0 || d.Column < 0 }) {
			t.Errorf("ParseFallback(%.20q): negative position in %+v", in, ds)
		}
	}
}
