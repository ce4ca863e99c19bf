package diag

import "testing"

func TestToCodePoints(t *testing.T) {
	const line = "a😀é=x" // a(1B,1u16) 😀(4B,2u16) é(2B,1u16) =(1) x(1)
	tests := []struct {
		unit ColumnUnit
		col  int
		want int
	}{
		{UnitCodePoints, 3, 3},
		{UnitBytes, 1, 1},
		{UnitBytes, 2, 2},  // 😀
		{UnitBytes, 6, 3},  // é
		{UnitBytes, 8, 4},  // =
		{UnitBytes, 4, 2},  // inside 😀 → 😀
		{UnitBytes, 10, 6}, // end of line
		{UnitBytes, 12, 8}, // past the end keeps the excess
		{UnitUTF16, 2, 2},  // 😀
		{UnitUTF16, 4, 3},  // é
		{UnitUTF16, 5, 4},  // =
		{UnitUTF16, 3, 2},  // low surrogate → 😀
		{UnitUTF16, 0, 0},
	}
	// gcc's display columns: "\tint x = \"日本\" + y" — a tab to 8, wide 2.
	const gccLine = "\tx = \"日本\" + y"
	tests2 := []struct{ col, want int }{
		{1, 1}, {9, 2}, {13, 6}, {14, 7}, {16, 8}, {18, 9}, {19, 10},
	}
	for _, tt := range tests2 {
		if got := ToCodePoints(gccLine, tt.col, UnitDisplay); got != tt.want {
			t.Errorf("ToCodePoints(%q, %d, display) = %d, want %d", gccLine, tt.col, got, tt.want)
		}
	}
	for _, tt := range tests {
		if got := ToCodePoints(line, tt.col, tt.unit); got != tt.want {
			t.Errorf("ToCodePoints(%q, %d, %v) = %d, want %d", line, tt.col, tt.unit, got, tt.want)
		}
	}
}

func TestLineText(t *testing.T) {
	text := "one\r\ntwo\nthree"
	for n, want := range map[int]string{1: "one", 2: "two", 3: "three"} {
		if got, ok := LineText(text, n); !ok || got != want {
			t.Errorf("LineText(%d) = %q, %v; want %q", n, got, ok, want)
		}
	}
	for _, n := range []int{0, 4} {
		if _, ok := LineText(text, n); ok {
			t.Errorf("LineText(%d) found a line", n)
		}
	}
}
