package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestErrorformat(t *testing.T) {
	p, err := Errorformat([]string{
		`%f:%l:%c: %t%*[^:]: %m [%n]`,
		`%f:%l:%c: %m`,
		`%f:%l: %m`,
		`%E%f(%l): error: %m`,
		`%C  %m`,
		`%Z`,
		`%-G%.%#`,
	})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", efmMaxLine-len("a.go:1:2: "))
	runToolCases(t, "errorformat", p.Parse, []toolCase{
		{name: "empty output", in: "", want: nil},
		{
			name: "types, numbers, multi-line, CRLF, ignored lines",
			in: "a.c:1:2: error: bad [12]\r\n" +
				"a.c:3:4: warning: meh [7]\r\n" +
				"a.c:5:6: info: fyi [1]\r\n" +
				"a.c:7:8: note: see [2]\r\n" +
				"b.go:9:10: plain\r\n" +
				"c.txt:11: no column\r\n" +
				"d.cs(12): error: first\r\n" +
				"  second\r\n" +
				"\r\n" +
				"summary: 7 problems\r\n",
			want: []diag.Diagnostic{
				{Path: "a.c", Line: 1, Column: 2, Severity: diag.SeverityError, Code: "12", Message: "bad"},
				{Path: "a.c", Line: 3, Column: 4, Severity: diag.SeverityWarning, Code: "7", Message: "meh"},
				{Path: "a.c", Line: 5, Column: 6, Severity: diag.SeverityInfo, Code: "1", Message: "fyi"},
				{Path: "a.c", Line: 7, Column: 8, Severity: diag.SeverityInfo, Code: "2", Message: "see"},
				{Path: "b.go", Line: 9, Column: 10, Severity: diag.SeverityError, Message: "plain"},
				{Path: "c.txt", Line: 11, Severity: diag.SeverityError, Message: "no column"},
				{Path: "d.cs", Line: 12, Severity: diag.SeverityError, Message: "first\nsecond"},
			},
		},
		{
			name: "the longest line the library reads",
			in:   "a.go:1:2: " + long + "\nb.go:3:4: next\n",
			want: []diag.Diagnostic{
				{Path: "a.go", Line: 1, Column: 2, Severity: diag.SeverityError, Message: long},
				{Path: "b.go", Line: 3, Column: 4, Severity: diag.SeverityError, Message: "next"},
			},
		},
		{name: "a longer line is an error, not a silent stop", in: "b.go:3:4: first\na.go:1:2: " + long + "x\n", wantErr: "line 2 is"},
	})
}

func TestErrorformatCompileErrors(t *testing.T) {
	for _, c := range []struct {
		efms    []string
		wantErr string
	}{
		{nil, "no format strings"},
		{[]string{"%f:%l: %m", "%f:%l:%"}, `"%f:%l:%"`},
		{[]string{"%f:%l:%*"}, `"%f:%l:%*"`},
		{[]string{"%f:%l:%*[a-z"}, `"%f:%l:%*[a-z"`},
		{[]string{"%f:%y"}, `"%f:%y"`},
		{[]string{`%f:%l:%*\`}, `"%f:%l:%*\\"`},
	} {
		_, err := Errorformat(c.efms)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("Errorformat(%q) error = %v, want one containing %s", c.efms, err, c.wantErr)
		}
	}
}
