package diag

import "testing"

func TestTextLine(t *testing.T) {
	tests := []struct {
		rel  string
		d    Diagnostic
		want string
	}{
		{"a.go", Diagnostic{Line: 12, Column: 5, Severity: SeverityError, Code: "X1", Source: "gopls", Message: "undefined: x"}, "a.go:12:5: error: undefined: x [X1] (gopls)"},
		{"a.go", Diagnostic{Line: 12, Severity: SeverityWarning, Message: "no column"}, "a.go:12: warning: no column"},
		{"a.go", Diagnostic{Severity: SeverityInfo, Source: "s", Message: "no line"}, "a.go: info: no line (s)"},
		{"", Diagnostic{Line: 3, Column: 1, Severity: SeverityHint, Message: "no file"}, "hint: no file"},
		{"dir/b c.ts", Diagnostic{Line: 1, Column: 2, Severity: SeverityError, Code: "ts 2322", Message: "two\nlines  and\tspace "}, "dir/b c.ts:1:2: error: two lines and space [ts 2322]"},
	}
	for _, tt := range tests {
		if got := textLine(tt.rel, tt.d); got != tt.want {
			t.Errorf("textLine(%q, %+v) = %q, want %q", tt.rel, tt.d, got, tt.want)
		}
	}
}
