package validators

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

// want is one expected diagnostic: position, severity and a message substring.
type want struct {
	line, col int
	sev       diag.Severity
	msg       string
}

// errAt and warnAt build wants.
func errAt(line, col int, msg string) want  { return want{line, col, diag.SeverityError, msg} }
func warnAt(line, col int, msg string) want { return want{line, col, diag.SeverityWarning, msg} }

// validatorCase is one table row: a file and every diagnostic expected, in
// the order Validate returns them.
type validatorCase struct {
	name string
	src  string
	want []want
}

// runCases validates each case's src with v and compares the result.
func runCases(t *testing.T, v Validator, source string, cases []validatorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := v.Validate("/w/f", []byte(tc.src))
			if len(ds) != len(tc.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(ds), len(tc.want), dump(ds))
			}
			for i, w := range tc.want {
				d := ds[i]
				if d.Line != w.line || d.Column != w.col || d.Severity != w.sev || !strings.Contains(d.Message, w.msg) {
					t.Errorf("diagnostic %d = %d:%d %s %q, want %d:%d %s containing %q",
						i, d.Line, d.Column, d.Severity, d.Message, w.line, w.col, w.sev, w.msg)
				}
				if d.Source != source || d.Path != "/w/f" {
					t.Errorf("diagnostic %d: source %q path %q, want %q /w/f", i, d.Source, d.Path, source)
				}
			}
			checkInvariants(t, []byte(tc.src), ds, true)
		})
	}
}

// checkInvariants asserts what every diagnostic must satisfy: a position
// inside the file (line ≤ lines, column ≥ 1, and when columnsExact, column ≤
// code points in the line + 1), an end not before the start, a severity and
// a message.
func checkInvariants(t testing.TB, src []byte, ds []diag.Diagnostic, columnsExact bool) {
	t.Helper()
	src = stripBOM(src)
	lines := lineCount(src)
	for _, d := range ds {
		if d.Line < 1 || d.Column < 1 || d.Line > lines {
			t.Fatalf("position %d:%d outside a file of %d lines: %+v", d.Line, d.Column, lines, d)
		}
		if columnsExact && d.Column > lineWidth(src, d.Line)+1 {
			t.Fatalf("column %d beyond line %d of %d characters: %+v", d.Column, d.Line, lineWidth(src, d.Line), d)
		}
		if d.EndLine != 0 && (d.EndLine < d.Line || d.EndLine == d.Line && d.EndColumn < d.Column) {
			t.Fatalf("end before start: %+v", d)
		}
		if d.Severity < diag.SeverityError || d.Severity > diag.SeverityHint || d.Message == "" {
			t.Fatalf("bad severity or empty message: %+v", d)
		}
	}
}

// lineWidth returns the number of columns of 1-based line in src.
func lineWidth(src []byte, line int) int {
	start := lineOffset(src, line)
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	return positionOf(src, end).col - 1
}

func dump(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "\t%s %d:%d %s\n", d.Severity, d.Line, d.Column, d.Message)
	}
	return b.String()
}
