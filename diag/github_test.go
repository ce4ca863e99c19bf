package diag

import (
	"net/url"
	"strings"
	"testing"
)

func TestGitHubEscape(t *testing.T) {
	tests := []struct {
		in, data, property string
	}{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\nb", "a%0Ab", "a%0Ab"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"x: y, z", "x: y, z", "x%3A y%2C z"},
		{"%0A", "%250A", "%250A"},
		{"::error::", "::error::", "%3A%3Aerror%3A%3A"},
		{"C:\\a,b.go", "C:\\a,b.go", "C%3A\\a%2Cb.go"},
		{"😀=é", "😀=é", "😀=é"},
	}
	for _, tt := range tests {
		if got := githubEscapeData(tt.in); got != tt.data {
			t.Errorf("githubEscapeData(%q) = %q, want %q", tt.in, got, tt.data)
		}
		if got := githubEscapeProperty(tt.in); got != tt.property {
			t.Errorf("githubEscapeProperty(%q) = %q, want %q", tt.in, got, tt.property)
		}
	}
}

func TestGitHubCommand(t *testing.T) {
	tests := []struct {
		rel  string
		d    Diagnostic
		want string
	}{
		{"a.go", Diagnostic{Line: 3, Column: 5, EndLine: 3, EndColumn: 9, Severity: SeverityError, Code: "E1", Source: "gopls", Message: "bad"},
			"::error file=a.go,line=3,col=5,endLine=3,endColumn=9,title=E1 (gopls)::bad"},
		{"a.go", Diagnostic{Line: 3, Column: 5, EndLine: 6, EndColumn: 2, Severity: SeverityWarning, Source: "vet", Message: "multi"},
			"::warning file=a.go,line=3,endLine=6,title=vet::multi"},
		{"a.go", Diagnostic{Line: 3, Severity: SeverityInfo, Message: "m"}, "::notice file=a.go,line=3::m"},
		{"a.go", Diagnostic{Severity: SeverityHint, Code: "H", Message: "m"}, "::notice file=a.go,title=H::m"},
		{"", Diagnostic{Severity: SeverityError, Message: "no file"}, "::error::no file"},
		{"d,x/y:z.go", Diagnostic{Line: 1, Column: 1, Severity: SeverityError, Code: "a:b,c", Message: "50% done\nnext"},
			"::error file=d%2Cx/y%3Az.go,line=1,col=1,title=a%3Ab%2Cc::50%25 done%0Anext"},
	}
	for _, tt := range tests {
		if got := githubCommand(tt.rel, tt.d); got != tt.want {
			t.Errorf("githubCommand(%q, %+v)\n got %q\nwant %q", tt.rel, tt.d, got, tt.want)
		}
	}
}

// FuzzGitHubEscape checks the escaping's two promises for any input: the
// escaped text has no line break (one command per line) and, for a property,
// no ',' or ':' (the runner splits on them); and unescaping as the runner
// does (percent-decoding) gives the input back.
func FuzzGitHubEscape(f *testing.F) {
	for _, s := range []string{"", "a,b:c", "100%", "x\r\ny", "%0A", "%%3A", "😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data, prop := githubEscapeData(s), githubEscapeProperty(s)
		if strings.ContainsAny(data, "\r\n") || strings.ContainsAny(prop, "\r\n,:") {
			t.Fatalf("escaping %q left a separator: data %q, property %q", s, data, prop)
		}
		for _, esc := range []string{data, prop} {
			back, err := url.PathUnescape(esc)
			if err != nil || back != s {
				t.Fatalf("unescaping %q gave %q, %v; want %q", esc, back, err, s)
			}
		}
	})
}
