package diag

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// ColumnUnit names what a tool's column number counts. Tools differ: clang,
// go vet and mypy count bytes; gcc ≥ 11 counts display columns (its
// -fdiagnostics-column-unit=display default); tsc, eslint and pyright count
// UTF-16 code units (JavaScript string indexes); ruff, cargo and shellcheck
// count characters. Diagnostic.Column is always characters (code points), so a
// column in another unit is converted with the line's text (ToCodePoints).
type ColumnUnit int

// Column units.
const (
	// UnitCodePoints counts Unicode code points (characters); no conversion.
	UnitCodePoints ColumnUnit = iota
	// UnitBytes counts bytes of the UTF-8 encoded line.
	UnitBytes
	// UnitUTF16 counts UTF-16 code units: a character outside the Basic
	// Multilingual Plane counts 2.
	UnitUTF16
	// UnitDisplay counts display columns as gcc does: a tab advances to the
	// next multiple of 8 (tab stop 8), an East Asian wide or fullwidth
	// character counts 2, every other character 1.
	UnitDisplay
)

// String returns "codepoints", "bytes" or "utf-16".
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
// line's text without its line ending), into a 1-based column in code points.
// A column at or past the end of the line maps to one past the last
// character plus the excess, so "end of line" positions survive; a column
// inside a multi-unit character maps to that character. Invalid UTF-8 counts
// one column per byte. Columns below 1 are returned unchanged.
func ToCodePoints(line string, col int, unit ColumnUnit) int {
	if unit == UnitCodePoints || col < 1 {
		return col
	}
	units := col - 1 // units before the target column
	chars, display := 0, 0
	for i := 0; i < len(line) && units > 0; {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case unit == UnitDisplay:
			w := displayWidth(r, display)
			display += w
			units -= w
		case unit == UnitBytes:
			units -= size
		case r == utf8.RuneError && size == 1:
			units--
		default:
			units -= utf16.RuneLen(r)
		}
		i += size
		chars++
	}
	if units < 0 {
		units = 0 // the column fell inside a character: point at it
		chars--
	}
	return chars + units + 1
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
