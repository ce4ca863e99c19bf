package parsers

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Tests of the interchange formats lsp-hook also writes (sarif, json,
// rdjsonl): lsp-hook's own output is a golden input, and diagnostics survive
// a trip through each renderer and back.

// ownFiles is the workspace behind ownReport: file texts by path relative
// to the root. main.go has characters outside the BMP and non-ASCII before
// its findings, so every column unit differs.
var ownFiles = map[string]string{
	"cmd/app/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"héllo 😀\", undefinedName)\n\tvar unusedVar int\n}\n",
	"docs/a b.md":     "# Tïtle\n\ntext\n",
}

// ownReport is a report with a bit of everything, its workspace at root
// (files outside it and the note are fixed).
func ownReport(root string) diag.Report {
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	main, doc := p("cmd/app/main.go"), p("docs/a b.md")
	return diag.Report{
		Root: root,
		Tool: diag.Tool{Name: "lsp-hook", Version: "v0.0.0-test", InformationURI: "https://github.com/lsp-hook/lsp-hook"},
		Files: []diag.FileDiagnostics{
			{Path: main, Diagnostics: []diag.Diagnostic{
				{Path: main, Line: 6, Column: 25, EndLine: 6, EndColumn: 38, Severity: diag.SeverityError, Code: "UndeclaredName", Source: "gopls", Message: "undefined: undefinedName"},
				{Path: main, Line: 7, Column: 6, EndLine: 7, EndColumn: 15, Severity: diag.SeverityWarning, Source: "go vet", Message: "declared and not used: unusedVar\n(a second line)"},
				{Path: main, Line: 5, Column: 1, EndLine: 8, EndColumn: 2, Severity: diag.SeverityHint, Code: "fn", Source: "gopls", Message: "function main"},
			}},
			{Path: doc, Diagnostics: []diag.Diagnostic{
				{Path: doc, Line: 1, Column: 3, EndLine: 1, EndColumn: 8, Severity: diag.SeverityInfo, Code: "MD041", Source: "markdownlint", Message: "title: use 'Title', not \"Tïtle\""},
			}},
			{Path: "/outside/x.ts", Diagnostics: []diag.Diagnostic{
				{Path: "/outside/x.ts", Line: 2, Column: 7, Severity: diag.SeverityError, Code: "2322", Source: "typescript", Message: "Type 'string' is not assignable to type 'number'."},
			}},
			{Diagnostics: []diag.Diagnostic{
				{Severity: diag.SeverityError, Code: "TS5083", Source: "tsc", Message: "Cannot read file 'tsconfig.json'."},
			}},
		},
		Notes: []string{"eslint timed out after 3s; its diagnostics are missing"},
		Text: func(path string) (string, bool) {
			rel, err := filepath.Rel(root, path)
			s, ok := ownFiles[filepath.ToSlash(rel)]
			return s, ok && err == nil
		},
	}
}

// ownFormats pairs each format lsp-hook writes with the parser reading it.
var ownFormats = []struct {
	out    diag.OutputFormat
	parser string
}{
	{diag.FormatSARIF, "sarif"},
	{diag.FormatJSON, "json"},
	{diag.FormatRDJSONL, "rdjsonl"},
}

// TestOwnOutputSamples keeps testdata/<format>/lsp-hook.out equal to what
// the renderers write for ownReport("/repo"), so the golden tests parse
// current output (-update rewrites them).
func TestOwnOutputSamples(t *testing.T) {
	for _, f := range ownFormats {
		var b bytes.Buffer
		if err := diag.WriteReport(&b, f.out, ownReport("/repo")); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", f.parser, "lsp-hook.out")
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./parsers -run TestOwnOutputSamples -update)", err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs from what WriteReport(%s) writes now; run go test ./parsers -run TestOwnOutputSamples -update, then TestGolden -update, and read the diff", path, f.out)
		}
	}
}

// TestRoundTrip renders ownReport, over files written to a temporary
// workspace, in each format, parses it back, normalizes it as `lsp-hook
// parse` does, and expects the diagnostics it started from, except for
// what a format cannot carry: SARIF and rdf have no hint level, so a hint
// comes back as info.
func TestRoundTrip(t *testing.T) {
	root := testdir.New(t)
	for rel, text := range ownFiles {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := ownReport(root)
	var want []diag.Diagnostic
	for _, f := range rep.Files {
		want = append(want, f.Diagnostics...)
	}
	want = diag.SortDedupe(want)
	for _, f := range ownFormats {
		t.Run(string(f.out), func(t *testing.T) {
			var b bytes.Buffer
			if err := diag.WriteReport(&b, f.out, rep); err != nil {
				t.Fatal(err)
			}
			format, err := Lookup(f.parser)
			if err != nil {
				t.Fatal(err)
			}
			if got := Detect(b.Bytes()); got == nil || got.Name != f.parser {
				t.Errorf("Detect(%s output) = %v, want %s", f.out, got, f.parser)
			}
			got, err := parseNormalized(format, b.Bytes(), root)
			if err != nil {
				t.Fatalf("parsing %s output: %v\n%s", f.out, err, b.Bytes())
			}
			exp := append([]diag.Diagnostic(nil), want...)
			for i := range exp {
				if f.out != diag.FormatJSON && exp[i].Severity == diag.SeverityHint {
					exp[i].Severity = diag.SeverityInfo
				}
			}
			got = diag.SortDedupe(got)
			if !reflect.DeepEqual(got, exp) {
				t.Errorf("%s round trip:\n got %s\nwant %s\noutput:\n%s", f.out, dump(got), dump(exp), b.Bytes())
			}
		})
	}
}

// parseNormalized parses out with format and normalizes the result against
// dir as `lsp-hook parse` does (ReadWith: per-diagnostic units where the
// parser reports them).
func parseNormalized(format *Format, out []byte, dir string) ([]diag.Diagnostic, error) {
	return ReadWith(format.Parser, format.Unit, bytes.NewReader(out), dir, "")
}

// dump renders diagnostics one per line for a failure message.
func dump(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "\n\t%s:%d:%d-%d:%d %s [%s] (%s) %q", d.Path, d.Line, d.Column, d.EndLine, d.EndColumn, d.Severity, d.Code, d.Source, d.Message)
	}
	return b.String()
}
