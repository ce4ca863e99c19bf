package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseTSC(t *testing.T) {
	e := diag.SeverityError
	long := strings.Repeat("é", 50<<10)
	runToolCases(t, "tsc", ParseTSC, []toolCase{
		{name: "empty output", in: "", want: nil},
		{
			name: "continuation lines and a global error",
			in: "src/a.ts(19,7): error TS2322: Type '{}' is not assignable to type 'Shape'.\n" +
				"  The types of 'sides.count' are incompatible between these types.\n" +
				"    Type 'string' is not assignable to type 'number'.\n" +
				"error TS5083: Cannot read file '/p/base.json'.\n" +
				"  indented, but after a global error it still continues\n",
			want: []diag.Diagnostic{
				{Path: "src/a.ts", Line: 19, Column: 7, Severity: e, Code: "ts2322", Message: "Type '{}' is not assignable to type 'Shape'.\n" +
					"  The types of 'sides.count' are incompatible between these types.\n    Type 'string' is not assignable to type 'number'."},
				{Severity: e, Code: "ts5083", Message: "Cannot read file '/p/base.json'.\n  indented, but after a global error it still continues"},
			},
		},
		{
			name: "CRLF, categories, paths with spaces and parentheses, watch lines",
			in: "[12:00:00 AM] Starting compilation in watch mode...\r\n\r\n" +
				"my dir/a (copy).ts(1,2): warning TS6133: 'x' is declared but its value is never read.\r\n" +
				"a.ts(3,4): message TS6194: Found 1 error.\r\n" +
				"a.ts(5,6): suggestion TS80001: File is a CommonJS module.\r\n" +
				"  not a continuation: a blank line came before\r\n",
			want: []diag.Diagnostic{
				{Path: "my dir/a (copy).ts", Line: 1, Column: 2, Severity: diag.SeverityWarning, Code: "ts6133", Message: "'x' is declared but its value is never read."},
				{Path: "a.ts", Line: 3, Column: 4, Severity: diag.SeverityInfo, Code: "ts6194", Message: "Found 1 error."},
				{Path: "a.ts", Line: 5, Column: 6, Severity: diag.SeverityHint, Code: "ts80001", Message: "File is a CommonJS module.\n  not a continuation: a blank line came before"},
			},
		},
		{
			name: "a line over 64 KiB",
			in:   "a.ts(1,2): error TS2322: " + long + "\n",
			want: []diag.Diagnostic{{Path: "a.ts", Line: 1, Column: 2, Severity: e, Code: "ts2322", Message: long}},
		},
		{name: "pretty output", in: "\x1b[96ma.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m2\x1b[0m - \x1b[91merror\x1b[0m TS2322: x\n", wantErr: "--pretty false"},
	})
}

func TestDetectTSC(t *testing.T) {
	runDetectCases(t, detectTSC, []detectCase{
		{"file", "a.ts(1,2): error TS2322: x\n", true},
		{"global", "error TS5083: Cannot read file 'x'.\n", true},
		{"C#", "a.cs(1,2): error CS1002: ; expected\n", false},
		{"gcc", "a.c:1:2: error: x\n", false},
	})
}

// TestParseTSCManyContinuations guards against joining continuation lines
// one at a time, which is quadratic.
func TestParseTSCManyContinuations(t *testing.T) {
	const n = 100_000
	in := "a.ts(1,2): error TS2322: m\n" + strings.Repeat("  continued\n", n)
	ds, err := ParseTSC(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || strings.Count(ds[0].Message, "\n") != n {
		t.Fatalf("got %d diagnostics, want 1 with %d continuation lines", len(ds), n)
	}
}
