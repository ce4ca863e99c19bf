package validators

import "testing"

func TestPositions(t *testing.T) {
	src := []byte("ab\r\n日本x\rz\n😀\xffq")
	tests := []struct {
		off  int
		want pos
	}{
		{0, pos{1, 1}},
		{2, pos{1, 3}},  // the '\r' of CRLF: end of line 1
		{3, pos{1, 3}},  // its '\n': same place
		{4, pos{2, 1}},  // 日
		{5, pos{2, 1}},  // inside 日: that character
		{7, pos{2, 2}},  // 本
		{10, pos{2, 3}}, // x
		{11, pos{2, 4}}, // lone '\r' ends line 2
		{12, pos{3, 1}}, // z
		{14, pos{4, 1}}, // 😀, one column though two UTF-16 units
		{18, pos{4, 2}}, // invalid byte: one column
		{19, pos{4, 3}}, // q
		{20, pos{4, 4}}, // end of input
		{99, pos{4, 4}}, // clamped
		{-5, pos{1, 1}}, // clamped
	}
	offs := make([]int, len(tests))
	for i := len(tests) - 1; i >= 0; i-- { // any order
		offs[i] = tests[i].off
	}
	got := positions(src, offs)
	for i, tc := range tests {
		if got[i] != tc.want {
			t.Errorf("offset %d: got %v, want %v", tc.off, got[i], tc.want)
		}
		if p := positionOf(src, tc.off); p != tc.want {
			t.Errorf("positionOf(%d) = %v, want %v", tc.off, p, tc.want)
		}
	}
	if n := lineCount(src); n != 4 {
		t.Errorf("lineCount = %d, want 4", n)
	}
	for line, want := range map[int]int{1: 0, 2: 4, 3: 12, 4: 14, 5: 20} {
		if got := lineOffset(src, line); got != want {
			t.Errorf("lineOffset(%d) = %d, want %d", line, got, want)
		}
	}
}

func TestKeyLabel(t *testing.T) {
	if got := keyLabel("name"); got != `"name"` {
		t.Errorf("keyLabel(name) = %s", got)
	}
	long := ""
	for range 70 {
		long += "é"
	}
	if got, want := keyLabel(long), `"`+long[:120]+`"…`; got != want {
		t.Errorf("keyLabel(long) = %s, want %s", got, want)
	}
}
