package diag

import (
	"testing"
	"unicode/utf8"
)

func TestFromCodePoints(t *testing.T) {
	const line = "a😀é=x" // a(1B,1u16) 😀(4B,2u16) é(2B,1u16) =(1) x(1)
	tests := []struct {
		unit ColumnUnit
		col  int
		want int
	}{
		{UnitCodePoints, 3, 3},
		{UnitBytes, 1, 1},
		{UnitBytes, 2, 2},  // 😀
		{UnitBytes, 3, 6},  // é
		{UnitBytes, 4, 8},  // =
		{UnitBytes, 6, 10}, // end of line
		{UnitBytes, 8, 12}, // past the end keeps the excess
		{UnitUTF16, 3, 4},  // é
		{UnitUTF16, 4, 5},  // =
		{UnitBytes, 0, 0},
		{UnitBytes, -1, -1},
	}
	for _, tt := range tests {
		if got := fromCodePoints(line, tt.col, tt.unit); got != tt.want {
			t.Errorf("fromCodePoints(%q, %d, %v) = %d, want %d", line, tt.col, tt.unit, got, tt.want)
		}
	}
}

// FuzzFromCodePoints checks that fromCodePoints inverts ToCodePoints for
// every column of any line, in every unit.
func FuzzFromCodePoints(f *testing.F) {
	f.Add("a😀é=x", 3)
	f.Add("\xff\xfeabc", 2)
	f.Add("", 4)
	f.Fuzz(func(t *testing.T, line string, col int) {
		if col < 1 || col > utf8.RuneCountInString(line)+5 {
			return
		}
		for _, u := range []ColumnUnit{UnitCodePoints, UnitBytes, UnitUTF16} {
			c := fromCodePoints(line, col, u)
			if back := ToCodePoints(line, c, u); back != col {
				t.Fatalf("ToCodePoints(%q, fromCodePoints(%d, %v) = %d) = %d", line, col, u, c, back)
			}
		}
	})
}

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
