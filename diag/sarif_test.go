package diag

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema compiles testdata/sarif-schema-2.1.0.json (see
// testdata/README.md for where it comes from) with format assertions on, so
// "uri" and "uri-reference" values are checked too.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("reading the SARIF schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SARIFSchema, doc); err != nil {
		t.Fatalf("adding the SARIF schema: %v", err)
	}
	sch, err := c.Compile(SARIFSchema)
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	return sch
}

// sampleReport has a bit of everything: codes and none, every severity,
// ranges over one and several lines, no column, a file outside the root,
// a path that needs percent-encoding, a diagnostic about no file, notes.
func sampleReport() Report {
	text := map[string]string{
		"/repo/main.go":          "package main\n\nfunc main() {\n\tx := \"😀\"; y\n}\n",
		"/repo/docs/a b%/c:d.md": "# Title\n",
	}
	return Report{
		Root: "/repo",
		Tool: Tool{Name: "lsp-hook", Version: "v1.2.3", InformationURI: "https://github.com/lsp-hook/lsp-hook"},
		Files: []FileDiagnostics{
			{Path: "/repo/main.go", Rel: "main.go", Diagnostics: []Diagnostic{
				{Path: "/repo/main.go", Line: 4, Column: 12, EndLine: 4, EndColumn: 13, Severity: SeverityError, Code: "UndeclaredName", Source: "gopls", Message: "undefined: y"},
				{Path: "/repo/main.go", Line: 4, Column: 2, EndLine: 4, EndColumn: 3, Severity: SeverityWarning, Source: "go vet", Message: "x declared and not used\nsecond line"},
				{Path: "/repo/main.go", Line: 3, Column: 1, EndLine: 5, EndColumn: 2, Severity: SeverityHint, Source: "gopls", Message: "function body"},
			}},
			{Path: "/repo/docs/a b%/c:d.md", Diagnostics: []Diagnostic{
				{Path: "/repo/docs/a b%/c:d.md", Line: 1, Severity: SeverityInfo, Code: "MD041", Source: "markdownlint", Message: "first line: a, b"},
			}},
			{Path: "/elsewhere/x.ts", Rel: "/elsewhere/x.ts", Diagnostics: []Diagnostic{
				{Path: "/elsewhere/x.ts", Line: 2, Column: 3, Severity: SeverityError, Code: "2322", Message: "Type 'string' is not assignable"},
			}},
			{Diagnostics: []Diagnostic{{Severity: SeverityError, Source: "tsc", Message: "cannot read tsconfig.json"}}},
			{Path: "/repo/clean.go", Rel: "clean.go"},
		},
		Notes:        []string{"eslint timed out after 3s"},
		AutomationID: "diagnose/1of4/",
		Text: func(p string) (string, bool) {
			s, ok := text[p]
			return s, ok
		},
	}
}

func TestSARIFSchema(t *testing.T) {
	sch := sarifSchema(t)
	valid := func(t *testing.T, b []byte) error {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, b)
		}
		return sch.Validate(doc)
	}
	tests := []struct {
		name string
		r    Report
	}{
		{"empty", Report{}},
		{"sample", sampleReport()},
		{"no root", Report{Files: []FileDiagnostics{{Path: "rel/x.go", Rel: "rel/x.go", Diagnostics: []Diagnostic{{Line: 1, Column: 1, Severity: SeverityError, Message: "m"}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteSARIF(&b, tt.r); err != nil {
				t.Fatal(err)
			}
			if err := valid(t, b.Bytes()); err != nil {
				t.Errorf("WriteSARIF output does not validate: %v\n%s", err, b.Bytes())
			}
		})
	}

	// The schema check must be able to fail: break a valid document in ways
	// the schema forbids and expect each to be rejected.
	var good bytes.Buffer
	if err := WriteSARIF(&good, sampleReport()); err != nil {
		t.Fatal(err)
	}
	breaks := []struct{ name, from, to string }{
		{"version", `"version": "2.1.0"`, `"version": "2.0.0"`},
		{"level", `"level": "error"`, `"level": "fatal"`},
		{"startLine", `"startLine": 4`, `"startLine": 0`},
		{"unknown property", `"ruleIndex": 0`, `"ruleIndex": 0, "severity": "high"`},
		{"columnKind", `"columnKind": "unicodeCodePoints"`, `"columnKind": "bytes"`},
		{"missing message", `"message": {`, `"notMessage": {`},
	}
	for _, br := range breaks {
		t.Run("rejects "+br.name, func(t *testing.T) {
			s := good.String()
			if !strings.Contains(s, br.from) {
				t.Fatalf("sample output lacks %s", br.from)
			}
			if err := valid(t, []byte(strings.Replace(s, br.from, br.to, 1))); err == nil {
				t.Errorf("schema accepted a document with %s", br.to)
			}
		})
	}
}

// TestSARIFContent checks what the schema cannot: rule ids and indexes,
// URIs, regions, fingerprints and notes.
func TestSARIFContent(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, sampleReport()); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if got := run.OriginalURIBaseIDs[SARIFSrcRoot].URI; got != "file:///repo/" {
		t.Errorf("%%SRCROOT%% = %q, want file:///repo/", got)
	}
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	if got, want := strings.Join(ids, " "), "2322 MD041 UndeclaredName go vet gopls tsc"; got != want {
		t.Errorf("rules = %q, want %q", got, want)
	}
	for _, res := range run.Results {
		if rule := run.Tool.Driver.Rules[res.RuleIndex]; rule.ID != res.RuleID {
			t.Errorf("result %q points at rule %d = %q", res.RuleID, res.RuleIndex, rule.ID)
		}
	}
	type want struct {
		ruleID, level, uri, base string
		region                   *sarifRegion
		fingerprint              bool
		source                   string
	}
	snip := func(s string) *sarifMessage { return &sarifMessage{Text: s} }
	wants := []want{
		{"gopls", "note", "main.go", SARIFSrcRoot, &sarifRegion{3, 1, 5, 2, snip("func main() {\n\tx := \"😀\"; y\n}")}, true, "gopls"},
		{"go vet", "warning", "main.go", SARIFSrcRoot, &sarifRegion{4, 2, 4, 3, snip("x")}, true, "go vet"},
		{"UndeclaredName", "error", "main.go", SARIFSrcRoot, &sarifRegion{4, 12, 4, 13, snip("y")}, true, "gopls"},
		{"MD041", "note", "docs/a%20b%25/c:d.md", SARIFSrcRoot, &sarifRegion{StartLine: 1, Snippet: snip("# Title")}, true, "markdownlint"},
		{"2322", "error", "file:///elsewhere/x.ts", "", &sarifRegion{StartLine: 2, StartColumn: 3}, false, ""},
		{"tsc", "error", "", "", nil, false, "tsc"},
	}
	if len(run.Results) != len(wants) {
		t.Fatalf("%d results, want %d:\n%s", len(run.Results), len(wants), b.Bytes())
	}
	for i, w := range wants {
		res := run.Results[i]
		if res.RuleID != w.ruleID || res.Level != w.level || res.Properties[SARIFSourceProperty] != w.source {
			t.Errorf("result %d = %s/%s/%q, want %s/%s/%q", i, res.RuleID, res.Level, res.Properties[SARIFSourceProperty], w.ruleID, w.level, w.source)
		}
		if w.uri == "" {
			if len(res.Locations) != 0 {
				t.Errorf("result %d: locations %+v, want none", i, res.Locations)
			}
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != w.uri || loc.ArtifactLocation.URIBaseID != w.base {
			t.Errorf("result %d: uri %q base %q, want %q %q", i, loc.ArtifactLocation.URI, loc.ArtifactLocation.URIBaseID, w.uri, w.base)
		}
		if !reflect.DeepEqual(loc.Region, w.region) {
			t.Errorf("result %d: region %s, want %s", i, jsonOf(loc.Region), jsonOf(w.region))
		}
		// A fingerprint exactly when the file's text is known (the lines'
		// values are pinned by TestLineHashes).
		if fp, ok := res.PartialFingerprints["primaryLocationLineHash"]; ok != w.fingerprint || (ok && !strings.HasSuffix(fp, ":1")) {
			t.Errorf("result %d: fingerprint %q, want one: %v", i, fp, w.fingerprint)
		}
	}
	// Every rule as GitHub's rules want it (GH2012), with the tool's page
	// where it has one.
	helps := map[string]string{
		"UndeclaredName": "https://pkg.go.dev/golang.org/x/tools/internal/typesinternal#UndeclaredName",
		"MD041":          "",
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.FullDescription.Text == "" || r.Help.Text == "" {
			t.Errorf("rule %s: fullDescription %q, help %q; want both", r.ID, r.FullDescription.Text, r.Help.Text)
		}
		if want, ok := helps[r.ID]; ok && r.HelpURI != want {
			t.Errorf("rule %s: helpUri %q, want %q", r.ID, r.HelpURI, want)
		}
	}
	if run.AutomationDetails == nil || run.AutomationDetails.ID != "diagnose/1of4/" {
		t.Errorf("automationDetails = %+v, want id diagnose/1of4/", run.AutomationDetails)
	}
	notes := run.Invocations[0].ToolExecutionNotifications
	if len(notes) != 1 || notes[0].Message.Text != "eslint timed out after 3s" {
		t.Errorf("notifications = %+v", notes)
	}
}

// jsonOf is v as JSON, for messages.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestRegionText(t *testing.T) {
	const text = "ab😀cd\r\nline two\n\nlast"
	tests := []struct {
		name string
		d    Diagnostic
		want string
		ok   bool
	}{
		{"one character after an astral one", Diagnostic{Line: 1, Column: 4, EndLine: 1, EndColumn: 5}, "c", true},
		{"the astral character itself", Diagnostic{Line: 1, Column: 3, EndLine: 1, EndColumn: 4}, "😀", true},
		{"no end: to the end of the line, CR dropped", Diagnostic{Line: 1, Column: 3}, "😀cd", true},
		{"no column: the whole line", Diagnostic{Line: 2}, "line two", true},
		{"across lines", Diagnostic{Line: 1, Column: 5, EndLine: 2, EndColumn: 5}, "d\nline", true},
		{"an empty line", Diagnostic{Line: 3}, "", false},
		{"past the last line", Diagnostic{Line: 9}, "", false},
		{"column past the end", Diagnostic{Line: 4, Column: 40}, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := regionText(text, tc.d)
			if got != tc.want || ok != tc.ok {
				t.Errorf("regionText = %q, %v; want %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestRuleHelpURI(t *testing.T) {
	tests := []struct{ source, id, want string }{
		{"gopls", "UndeclaredName", "https://pkg.go.dev/golang.org/x/tools/internal/typesinternal#UndeclaredName"},
		{"gopls", "unusedvariable", "https://github.com/golang/tools/blob/master/gopls/doc/analyzers.md#unusedvariable"},
		{"Pyright", "reportAttributeAccessIssue", "https://microsoft.github.io/pyright/#/configuration?id=reportAttributeAccessIssue"},
		{"shellcheck", "SC2086", "https://www.shellcheck.net/wiki/SC2086"},
		{"eslint", "no-unused-vars", "https://eslint.org/docs/latest/rules/no-unused-vars"},
		{"eslint", "@typescript-eslint/no-explicit-any", ""},
		{"ruff", "F401", "https://docs.astral.sh/ruff/rules/?q=F401"},
		{"typescript", "2322", ""},
		{"clangd", "undeclared_var_use", ""},
	}
	for _, tc := range tests {
		if got := ruleHelpURI(tc.source, tc.id); got != tc.want {
			t.Errorf("ruleHelpURI(%q, %q) = %q, want %q", tc.source, tc.id, got, tc.want)
		}
	}
}

func TestSARIFVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.3": "1.2.3",
		"v0.0.0-20261125225212-1f4774b60088+dirty": "0.0.0-20261125225212-1f4774b60088+dirty",
		"devel+1f4774b0a1b2-dirty":                 "0.0.0-devel+1f4774b0a1b2-dirty",
		"devel":                                    "0.0.0-devel",
		"":                                         "",
	} {
		if got := sarifVersion(in); got != want {
			t.Errorf("sarifVersion(%q) = %q, want %q", in, got, want)
		}
	}
}
