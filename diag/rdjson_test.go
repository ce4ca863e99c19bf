package diag

import "testing"

func TestRDJSONLColumns(t *testing.T) {
	r := Report{Root: "/r", Files: []FileDiagnostics{{Path: "/r/a.go", Diagnostics: []Diagnostic{
		{Line: 1, Column: 3, EndLine: 2, EndColumn: 2, Severity: SeverityHint, Message: "m"},
	}}}}
	r.Text = func(string) (string, bool) { return "é😀x\n😀y\n", true }
	got := rdjsonDiagnostic("a.go", r.Files[0].Diagnostics[0])
	if got.Severity != "INFO" || got.Location.Range.Start.Column != 3 {
		t.Errorf("before conversion: %+v", got)
	}
	text, _ := r.Text("/r/a.go")
	if c := bytesColumn(text, 1, 3); c != 7 {
		t.Errorf("line 1 column 3 = byte %d, want 7", c)
	}
	if c := bytesColumn(text, 2, 2); c != 5 {
		t.Errorf("line 2 column 2 = byte %d, want 5", c)
	}
	if c := bytesColumn(text, 9, 2); c != 2 {
		t.Errorf("a line the text lacks: column 2 = %d, want 2 unchanged", c)
	}
}
