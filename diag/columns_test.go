package diag

import (
	"testing"
	"unicode/utf8"
)

// TestColumns is the table of the one column converter: a 0-based offset
// in a unit (an LSP Position.character in "utf-8", "utf-16" or "utf-32", or
// a tool's column − 1) becomes a 1-based code-point column (ToCodePoints),
// and that column goes back to the offset where its character starts
// (FromCodePoints). Each line is taken from text with LineText.
func TestColumns(t *testing.T) {
	const (
		u8  = UnitBytes
		u16 = UnitUTF16
		u32 = UnitCodePoints
	)
	tests := []struct {
		name   string
		text   string
		n      int // 1-based line of text
		unit   ColumnUnit
		offset int // 0-based, in unit
		col    int // 1-based, in code points
		back   int // 0-based offset, in unit, where col's character starts
	}{
		// "a😀b": a (1 byte, 1 UTF-16 unit), 😀 U+1F600 (4 bytes, 2 units), b.
		{"astral utf16 a", "a😀b", 1, u16, 0, 1, 0},
		{"astral utf16 emoji", "a😀b", 1, u16, 1, 2, 1},
		{"astral utf16 low surrogate is the emoji", "a😀b", 1, u16, 2, 2, 1},
		{"astral utf16 b", "a😀b", 1, u16, 3, 3, 3},
		{"astral utf16 end of line", "a😀b", 1, u16, 4, 4, 4},
		{"astral utf16 past the end is the end", "a😀b", 1, u16, 5, 4, 4},
		{"astral utf8 emoji", "a😀b", 1, u8, 1, 2, 1},
		{"astral utf8 continuation byte is the emoji", "a😀b", 1, u8, 2, 2, 1},
		{"astral utf8 last continuation byte", "a😀b", 1, u8, 4, 2, 1},
		{"astral utf8 b", "a😀b", 1, u8, 5, 3, 5},
		{"astral utf8 past the end is the end", "a😀b", 1, u8, 9, 4, 6},
		{"astral utf32 b", "a😀b", 1, u32, 2, 3, 2},
		{"astral utf32 past the end is the end", "a😀b", 1, u32, 5, 4, 3},

		{"ascii utf16", "abc", 1, u16, 2, 3, 2},
		{"ascii utf8", "abc", 1, u8, 0, 1, 0},
		{"ascii utf32", "abc", 1, u32, 3, 4, 3},
		{"empty line", "", 1, u16, 0, 1, 0},
		{"empty line past the end", "", 1, u8, 7, 1, 0},

		// 日本語: 3 bytes and 1 UTF-16 unit each.
		{"cjk utf16", "日本語x", 1, u16, 3, 4, 3},
		{"cjk utf8", "日本語x", 1, u8, 9, 4, 9},
		{"cjk utf8 inside 本", "日本語x", 1, u8, 4, 2, 3},
		{"cjk utf32", "日本語x", 1, u32, 1, 2, 1},

		// e + U+0301 COMBINING ACUTE ACCENT (2 bytes, 1 unit): a code point
		// of its own, so a column of its own.
		{"combining utf16 mark", "e\u0301x", 1, u16, 1, 2, 1},
		{"combining utf16 x", "e\u0301x", 1, u16, 2, 3, 2},
		{"combining utf8 inside the mark", "e\u0301x", 1, u8, 2, 2, 1},
		{"combining utf8 x", "e\u0301x", 1, u8, 3, 3, 3},
		{"combining utf32 x", "e\u0301x", 1, u32, 2, 3, 2},

		// A CRLF line: "\r" is the line ending, not a character.
		{"crlf utf16 é", "ab\r\nxé\r\n", 2, u16, 1, 2, 1},
		{"crlf utf16 at the \\r is the end", "ab\r\nxé\r\n", 2, u16, 2, 3, 2},
		{"crlf utf16 after the \\r is the end", "ab\r\nxé\r\n", 2, u16, 3, 3, 2},
		{"crlf utf8 at the \\r is the end", "ab\r\nxé\r\n", 2, u8, 3, 3, 3},

		// Invalid UTF-8: each bad byte is one character and one unit.
		{"invalid byte utf16", "\xffx", 1, u16, 1, 2, 1},
		{"truncated emoji utf8", "\xf0\x9f\x98x", 1, u8, 2, 3, 2},
		{"truncated emoji utf16", "\xf0\x9f\x98x", 1, u16, 3, 4, 3},

		// gcc's display columns: a tab to the next multiple of 8, wide 2.
		{"display tab", "\tx = \"日本\" + y", 1, UnitDisplay, 0, 1, 0},
		{"display inside the tab", "\tx = \"日本\" + y", 1, UnitDisplay, 5, 1, 0},
		{"display after the tab", "\tx = \"日本\" + y", 1, UnitDisplay, 8, 2, 8},
		{"display quote", "\tx = \"日本\" + y", 1, UnitDisplay, 12, 6, 12},
		{"display 日", "\tx = \"日本\" + y", 1, UnitDisplay, 13, 7, 13},
		{"display second half of 日", "\tx = \"日本\" + y", 1, UnitDisplay, 14, 7, 13},
		{"display 本", "\tx = \"日本\" + y", 1, UnitDisplay, 15, 8, 15},
		{"display closing quote", "\tx = \"日本\" + y", 1, UnitDisplay, 17, 9, 17},
		{"display y", "\tx = \"日本\" + y", 1, UnitDisplay, 21, 13, 21},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, ok := LineText(tt.text, tt.n)
			if !ok {
				t.Fatalf("no line %d in %q", tt.n, tt.text)
			}
			if got := ToCodePoints(line, tt.offset+1, tt.unit); got != tt.col {
				t.Errorf("ToCodePoints(%q, %d, %v) = %d, want %d", line, tt.offset+1, tt.unit, got, tt.col)
			}
			if got := FromCodePoints(line, tt.col, tt.unit); got != tt.back+1 {
				t.Errorf("FromCodePoints(%q, %d, %v) = %d, want %d", line, tt.col, tt.unit, got, tt.back+1)
			}
		})
	}
	for _, unit := range []ColumnUnit{UnitCodePoints, UnitBytes, UnitUTF16, UnitDisplay} {
		for _, col := range []int{0, -1} { // 0: the tool gave no column
			if got := ToCodePoints("a😀b", col, unit); got != col {
				t.Errorf("ToCodePoints(%d, %v) = %d, want it unchanged", col, unit, got)
			}
			if got := FromCodePoints("a😀b", col, unit); got != col {
				t.Errorf("FromCodePoints(%d, %v) = %d, want it unchanged", col, unit, got)
			}
		}
		// Past the end, FromCodePoints keeps the excess: one unit per character.
		if got, want := FromCodePoints("a😀b", 6, unit), FromCodePoints("a😀b", 4, unit)+2; got != want {
			t.Errorf("FromCodePoints(6, %v) = %d, want %d", unit, got, want)
		}
	}
}

// FuzzColumns checks the converter on any line, since offsets come from
// servers and tools: in every unit, a character column survives the trip
// to an offset and back; any offset lands on a column of the line, no
// further than where it points, and later offsets never land earlier.
func FuzzColumns(f *testing.F) {
	for _, line := range []string{"a😀b", "日本語x", "e\u0301x", "\xf0\x9f\x98x", "\tx = \"日本\" + y", "\xff\xfeabc", ""} {
		f.Add(line, 2, uint32(2))
	}
	f.Add("a😀b", 4, uint32(5))
	f.Add("", 1, ^uint32(0))
	f.Fuzz(func(t *testing.T, line string, col int, offset uint32) {
		n := utf8.RuneCountInString(line)
		for _, u := range []ColumnUnit{UnitCodePoints, UnitBytes, UnitUTF16, UnitDisplay} {
			if col >= 1 && col <= n+1 {
				off := FromCodePoints(line, col, u)
				if back := ToCodePoints(line, off, u); back != col {
					t.Fatalf("%v: column %d of %q → offset %d → column %d", u, col, line, off-1, back)
				}
			}
			k := int(offset) + 1 // the 1-based column of a 0-based offset
			c := ToCodePoints(line, k, u)
			if c < 1 || c > n+1 {
				t.Fatalf("%v: ToCodePoints(%q, %d) = %d, outside 1..%d", u, line, k, c, n+1)
			}
			if start := FromCodePoints(line, c, u); start > k {
				t.Fatalf("%v: offset %d of %q → column %d, which starts later, at %d", u, k-1, line, c, start-1)
			}
			if next := ToCodePoints(line, k+1, u); next < c {
				t.Fatalf("%v: ToCodePoints(%q) not monotonic: %d → %d, %d → %d", u, line, k, c, k+1, next)
			}
		}
	})
}
