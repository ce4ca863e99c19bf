package diag

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

var _ flag.Value = (*OutputFormat)(nil)

func TestOutputFormatSet(t *testing.T) {
	tests := []struct {
		in      string
		want    OutputFormat
		wantErr bool
	}{
		{"lint", FormatLint, false},
		{"text", FormatText, false},
		{"JSON", FormatJSON, false},
		{" sarif ", FormatSARIF, false},
		{"github", FormatGitHub, false},
		{"rdjsonl", FormatRDJSONL, false},
		{"rdjson", FormatRDJSON, false},
		{"rdjsonx", "", true},
		{"", "", true},
		{"xml", "", true},
	}
	for _, tt := range tests {
		var f OutputFormat
		err := f.Set(tt.in)
		if (err != nil) != tt.wantErr || f != tt.want {
			t.Errorf("Set(%q) = %q, %v; want %q, error %v", tt.in, f, err, tt.want, tt.wantErr)
		}
		if err != nil && (!strings.Contains(err.Error(), "lint, text, json, sarif, github, rdjsonl, rdjson") || !strings.Contains(err.Error(), `"`+tt.in+`"`)) {
			t.Errorf("Set(%q) error %q should name the input and list the formats", tt.in, err)
		}
		if err == nil && f.String() != string(tt.want) {
			t.Errorf("String() = %q", f.String())
		}
	}
}

func TestWriteReportFormats(t *testing.T) {
	for _, f := range OutputFormats() {
		var b bytes.Buffer
		if err := WriteReport(&b, f, sampleReport()); err != nil {
			t.Errorf("WriteReport(%s): %v", f, err)
		}
		if b.Len() == 0 {
			t.Errorf("WriteReport(%s) wrote nothing", f)
		}
	}
	if err := WriteReport(&bytes.Buffer{}, "xml", Report{}); err == nil || !strings.Contains(err.Error(), `"xml"`) {
		t.Errorf("unknown format: error %v, want one naming it", err)
	}
}

// TestWriteReportEmpty: a clean report is silent in the line formats and a
// well-formed empty document in the others.
func TestWriteReportEmpty(t *testing.T) {
	want := map[OutputFormat]string{FormatLint: "", FormatText: "", FormatGitHub: "", FormatRDJSONL: ""}
	for _, f := range OutputFormats() {
		var b bytes.Buffer
		if err := WriteReport(&b, f, Report{Root: "/r", Files: []FileDiagnostics{{Path: "/r/a.go", Rel: "a.go"}}}); err != nil {
			t.Fatal(err)
		}
		if w, ok := want[f]; ok && b.String() != w {
			t.Errorf("%s: wrote %q for a clean report", f, b.String())
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteReportWriteError(t *testing.T) {
	for _, f := range OutputFormats() {
		err := WriteReport(failWriter{}, f, sampleReport())
		if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), string(f)) {
			t.Errorf("%s: error %v, want one naming the format and the cause", f, err)
		}
	}
}

// TestReportFilesDoesNotMutate: renderers sort and de-duplicate a copy.
func TestReportFilesDoesNotMutate(t *testing.T) {
	r := Report{Root: "/r", Files: []FileDiagnostics{{Path: "/r/a.go", Diagnostics: []Diagnostic{
		{Line: 9, Column: 1, Severity: SeverityError, Message: "b"},
		{Line: 1, Column: 1, Severity: 0, Message: "a"},
		{Line: 9, Column: 1, Severity: SeverityWarning, Message: "b"},
	}}}}
	files := r.files()
	if got := len(files[0].diags); got != 2 {
		t.Errorf("%d diagnostics after de-duplication, want 2", got)
	}
	if files[0].diags[0].Severity != SeverityError || files[0].rel != "a.go" || !files[0].inside {
		t.Errorf("files()[0] = %+v", files[0])
	}
	if r.Files[0].Diagnostics[0].Line != 9 || r.Files[0].Diagnostics[1].Severity != 0 {
		t.Errorf("Report.Files was modified: %+v", r.Files[0].Diagnostics)
	}
}
