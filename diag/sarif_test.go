package diag

import (
	"bytes"
	"encoding/json"
	"os"
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
		Notes: []string{"eslint timed out after 3s"},
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
	wants := []want{
		{"gopls", "note", "main.go", SARIFSrcRoot, &sarifRegion{3, 1, 5, 2}, true, "gopls"},
		{"go vet", "warning", "main.go", SARIFSrcRoot, &sarifRegion{4, 2, 4, 3}, true, "go vet"},
		{"UndeclaredName", "error", "main.go", SARIFSrcRoot, &sarifRegion{4, 12, 4, 13}, true, "gopls"},
		{"MD041", "note", "docs/a%20b%25/c:d.md", SARIFSrcRoot, &sarifRegion{StartLine: 1}, true, "markdownlint"},
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
		if *loc.Region != *w.region {
			t.Errorf("result %d: region %+v, want %+v", i, *loc.Region, *w.region)
		}
		// A fingerprint exactly when the file's text is known (the lines'
		// values are pinned by TestLineHashes).
		if fp, ok := res.PartialFingerprints["primaryLocationLineHash"]; ok != w.fingerprint || (ok && !strings.HasSuffix(fp, ":1")) {
			t.Errorf("result %d: fingerprint %q, want one: %v", i, fp, w.fingerprint)
		}
	}
	notes := run.Invocations[0].ToolExecutionNotifications
	if len(notes) != 1 || notes[0].Message.Text != "eslint timed out after 3s" {
		t.Errorf("notifications = %+v", notes)
	}
}
