package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

// sarifLogOf wraps results (a JSON array) and run members in a minimal log.
func sarifLogOf(runExtra, results string) string {
	return `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"t"}}` + runExtra + `,"results":` + results + `}]}`
}

func TestSARIFErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", "SARIF?", "parsing SARIF"},
		{"version", `{"version":"2.0.0","runs":[]}`, `version "2.0.0"`},
		{"two logs", sarifLogOf("", "[]") + "\n" + sarifLogOf("", "[]"), "second JSON document"},
		{"level", sarifLogOf("", `[{"level":"fatal","message":{"text":"m"}}]`), `unknown level "fatal"`},
		{"columnKind", sarifLogOf(`,"columnKind":"bytes"`, "[]"), `unknown columnKind "bytes"`},
		{"no message", sarifLogOf("", `[{"ruleId":"r"}]`), "run 0 result 0: message has no text"},
		{"unknown message id", sarifLogOf("", `[{"ruleIndex":0,"message":{"id":"x"}}]`), "message has no text"},
		{"scheme", sarifLogOf("", `[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"https://example.com/a.go"}}}]}]`), `scheme "https" is not file`},
		{"remote host", sarifLogOf("", `[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file://server/share/a.go"}}}]}]`), `names host "server"`},
		{"bad uri", sarifLogOf("", `[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"%zz"}}}]}]`), `parsing uri "%zz"`},
		{"negative line", sarifLogOf("", `[{"message":{"text":"m"},"locations":[{"physicalLocation":{"region":{"startLine":-1}}}]}]`), "negative position"},
		{"base cycle", sarifLogOf(`,"originalUriBaseIds":{"A":{"uri":"a/","uriBaseId":"B"},"B":{"uri":"b/","uriBaseId":"A"}}`,
			`[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"x.c","uriBaseId":"A"}}}]}]`), "a cycle?"},
		{"source property", sarifLogOf("", `[{"message":{"text":"m"},"properties":{"lspHook/source":3}}]`), "is not a string"},
		{"wrong type", `{"version":"2.1.0","runs":[{"results":{}}]}`, "parsing SARIF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := SARIFParser{}.Parse(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestSARIFUnitsAndPaths(t *testing.T) {
	loc := func(uri, base string) string {
		return `[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"` + uri + `","uriBaseId":"` + base + `"},"region":{"startLine":1,"startColumn":2}}}]}]`
	}
	tests := []struct {
		name, in string
		path     string
		unit     diag.ColumnUnit
	}{
		{"default unit", sarifLogOf("", loc("a.go", "")), "a.go", diag.UnitUTF16},
		{"code points", sarifLogOf(`,"columnKind":"unicodeCodePoints"`, loc("a.go", "")), "a.go", diag.UnitCodePoints},
		{"utf-16", sarifLogOf(`,"columnKind":"utf16CodeUnits"`, loc("a.go", "")), "a.go", diag.UnitUTF16},
		{"golangci-lint bytes", strings.Replace(sarifLogOf("", loc("a.go", "")), `"name":"t"`, `"name":"golangci-lint"`, 1), "a.go", diag.UnitBytes},
		{"file URI decoded", sarifLogOf("", loc("file:///r/a%20b/%C3%A9.go", "")), "/r/a b/é.go", diag.UnitUTF16},
		{"relative decoded", sarifLogOf("", loc("./x/a%25.go", "")), "./x/a%.go", diag.UnitUTF16},
		{"base", sarifLogOf(`,"originalUriBaseIds":{"%SRCROOT%":{"uri":"file:///w/repo/"}}`, loc("src/a.go", "%SRCROOT%")), "/w/repo/src/a.go", diag.UnitUTF16},
		{"base without slash", sarifLogOf(`,"originalUriBaseIds":{"R":{"uri":"file:///w/repo"}}`, loc("a.go", "R")), "/w/repo/a.go", diag.UnitUTF16},
		{"undefined base", sarifLogOf("", loc("src/a.go", "%SRCROOT%")), "src/a.go", diag.UnitUTF16},
		{"base without uri", sarifLogOf(`,"originalUriBaseIds":{"R":{"description":{"text":"the checkout"}}}`, loc("a.go", "R")), "a.go", diag.UnitUTF16},
		{"absolute ignores base", sarifLogOf(`,"originalUriBaseIds":{"R":{"uri":"file:///w/"}}`, loc("file:///abs/a.go", "R")), "/abs/a.go", diag.UnitUTF16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, units, err := SARIFParser{}.ParseUnits(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != 1 || len(units) != 1 {
				t.Fatalf("got %d diagnostics, %d units", len(ds), len(units))
			}
			if ds[0].Path != tt.path || units[0] != tt.unit || ds[0].Line != 1 || ds[0].Column != 2 {
				t.Errorf("got %s:%d:%d in %v, want %s:1:2 in %v", ds[0].Path, ds[0].Line, ds[0].Column, units[0], tt.path, tt.unit)
			}
		})
	}
}

func TestSARIFEmptyAndTrailing(t *testing.T) {
	for _, in := range []string{"", "  \n", `{"version":"2.1.0","runs":null}`, `{"version":"2.1.0","runs":[]}`} {
		ds, err := SARIFParser{}.Parse(strings.NewReader(in))
		if err != nil || len(ds) != 0 {
			t.Errorf("Parse(%q) = %v, %v; want nothing", in, ds, err)
		}
	}
	in := sarifLogOf("", `[{"message":{"text":"m"}}]`) + "\n1 issues:\n* errcheck: 1\n"
	if ds, err := (SARIFParser{}).Parse(strings.NewReader(in)); err != nil || len(ds) != 1 {
		t.Errorf("a log followed by golangci-lint's counts: %v, %v; want one diagnostic", ds, err)
	}
}

func TestSARIFFormat(t *testing.T) {
	tests := []struct {
		s    string
		args []string
		want string
	}{
		{"plain", nil, "plain"},
		{"{0} and {1}", []string{"a", "b"}, "a and b"},
		{"{1}{0}{1}", []string{"a", "b"}, "bab"},
		{"{{0}} is literal", []string{"a"}, "{0} is literal"},
		{"}} and {{", nil, "} and {"},
		{"{2} missing", []string{"a"}, "{2} missing"},
		{"{x} and {-1} and {", []string{"a"}, "{x} and {-1} and {"},
		{"é{0}😀", []string{"ü"}, "éü😀"},
	}
	for _, tt := range tests {
		if got := sarifFormat(tt.s, tt.args); got != tt.want {
			t.Errorf("sarifFormat(%q, %q) = %q, want %q", tt.s, tt.args, got, tt.want)
		}
	}
}
