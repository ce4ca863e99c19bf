package diag

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Units. Diagnostic.Column is 1-based and counts characters: Unicode code
// points, so "e\u0301" (e and a combining accent) is two columns and "😀"
// one. Tools and servers count otherwise (ColumnUnit); ToCodePoints turns
// their 1-based column into ours and FromCodePoints is its inverse, both on
// the text of the line without its line ending ("\n", "\r\n"). They are the
// one converter: an LSP Position.character (0-based, LSP 3.17 "Position",
// "PositionEncodingKind") is column−1 in UnitBytes for "utf-8", UnitUTF16
// for "utf-16" and UnitCodePoints for "utf-32".
//
// Columns come from outside, so every input has one answer:
//
//   - A column inside a character — a UTF-8 continuation byte, the low half
//     of a UTF-16 surrogate pair, the second display column of a wide
//     character or inside a tab — is that character, as gopls's
//     protocol.Mapper.PositionOffset stops at the start of the rune.
//   - A column past the end of the line is the end of the line, one past
//     its last character: LSP 3.17 "Position" says a character offset past
//     the line's length defaults back to the line length. FromCodePoints
//     alone keeps an excess (one unit per missing character), for a server
//     to clamp.
//   - An invalid UTF-8 byte is one character and one unit in every unit.
//   - A column below 1 (0: none given) is returned unchanged.

// ColumnUnit names what a tool's column number counts. Tools differ: clang,
// go vet and mypy count bytes; gcc ≥ 11 counts display columns (its
// -fdiagnostics-column-unit=display default); tsc, eslint and pyright count
// UTF-16 code units (JavaScript string indexes); ruff, cargo and shellcheck
// count characters. Diagnostic.Column is always characters (code points), so a
// column in another unit is converted with the line's text (ToCodePoints).
type ColumnUnit int

// Column units.
const (
	// UnitCodePoints counts Unicode code points (characters); LSP's
	// "utf-32".
	UnitCodePoints ColumnUnit = iota
	// UnitBytes counts bytes of the UTF-8 encoded line; LSP's "utf-8".
	UnitBytes
	// UnitUTF16 counts UTF-16 code units: a character outside the Basic
	// Multilingual Plane counts 2; LSP's "utf-16", its default.
	UnitUTF16
	// UnitDisplay counts display columns as gcc does: a tab advances to the
	// next multiple of 8 (tab stop 8), an East Asian wide or fullwidth
	// character counts 2, every other character 1.
	UnitDisplay
)

// String returns "codepoints", "bytes", "utf-16" or "display".
func (u ColumnUnit) String() string {
	switch u {
	case UnitCodePoints:
		return "codepoints"
	case UnitBytes:
		return "bytes"
	case UnitUTF16:
		return "utf-16"
	case UnitDisplay:
		return "display"
	}
	return fmt.Sprintf("unit(%d)", int(u))
}

// ToCodePoints converts the 1-based column col, counted in unit on line (the
// line's text without its line ending), into a 1-based column in code
// points, between 1 and one past the line's last character. A column inside
// a character is that character; a column past the end of the line is one
// past its last character (see Units above). A column below 1 is returned
// unchanged.
func ToCodePoints(line string, col int, unit ColumnUnit) int {
	if col < 1 {
		return col
	}
	before := col - 1 // units before the target column
	chars, units := 0, 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		w := unitLen(r, size, units, unit)
		if units+w > before {
			break // the target is this character or inside it
		}
		units += w
		chars++
		i += size
	}
	return chars + 1
}

// FromCodePoints is the inverse of ToCodePoints: it converts the 1-based
// code-point column col on line (the line's text without its line ending)
// into the 1-based column, counted in unit, where that character starts. A
// column past the end of the line keeps its excess, one unit per missing
// character. So ToCodePoints(line, FromCodePoints(line, c, u), u) == c for
// every c from 1 to one past the last character. A column below 1 is
// returned unchanged.
func FromCodePoints(line string, col int, unit ColumnUnit) int {
	if col < 1 {
		return col
	}
	chars := col - 1 // characters before the target column
	units := 0
	for i := 0; i < len(line) && chars > 0; {
		r, size := utf8.DecodeRuneInString(line[i:])
		units += unitLen(r, size, units, unit)
		chars--
		i += size
	}
	return units + chars + 1
}

// unitLen is how many units of unit the character r, of size bytes in
// UTF-8 (an invalid byte being r = utf8.RuneError of size 1), takes when it
// starts at 0-based unit at (display columns only: tabs reach the next stop).
func unitLen(r rune, size, at int, unit ColumnUnit) int {
	switch {
	case unit == UnitBytes:
		return size
	case unit == UnitDisplay:
		return displayWidth(r, at)
	case unit == UnitUTF16 && size > 1:
		return utf16.RuneLen(r) // 1 or 2: a decoded rune is never a surrogate
	}
	return 1
}

// LineText returns 1-based line n of text without its line ending ("\n" or
// "\r\n"), and false when text has no such line.
func LineText(text string, n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	for i := 1; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return "", false
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r"), true
}

// displayWidth is the display width of r starting at display column at
// (0-based): tabs reach the next multiple of 8.
func displayWidth(r rune, at int) int {
	if r == '\t' {
		return 8 - at%8
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
