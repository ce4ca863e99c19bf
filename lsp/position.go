package lsp

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Units. An LSP Position is (line, character), both 0-based, where character
// counts code units of the negotiated encoding: UTF-16 code units by default
// (a character outside the Basic Multilingual Plane, such as most emoji,
// counts 2), bytes for "utf-8", code points for "utf-32" (LSP 3.17
// "Position", "PositionEncodingKind"). A diag.Diagnostic is 1-based in both
// line and column, with the column in Unicode code points. toColumn is the
// one conversion between the two, and it needs the line's text: without the
// text, a UTF-16 offset cannot be turned into characters.
//
// Lines are split at "\n"; a "\r" before it belongs to the line ending, as
// the specification says for "\r\n". A character offset past the end of the
// line is clamped to the end (the specification says to default back to the
// line length). Invalid UTF-8 counts one column per byte.

// lineIndex gives fast access to the lines of a document.
type lineIndex struct {
	text   []byte
	starts []int // byte offset of each line's first byte
}

func newLineIndex(text []byte) *lineIndex {
	starts := []int{0}
	for i, b := range text {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts}
}

// line returns the text of 0-based line n without its line ending, and false
// when the document has no such line.
func (x *lineIndex) line(n int) ([]byte, bool) {
	if n < 0 || n >= len(x.starts) {
		return nil, false
	}
	end := len(x.text)
	if n+1 < len(x.starts) {
		end = x.starts[n+1] - 1
	}
	l := x.text[x.starts[n]:end]
	return bytes.TrimSuffix(l, []byte("\r")), true
}

// toColumn converts a 0-based character offset in encoding enc on line text
// into a 1-based column in code points.
func toColumn(line []byte, character uint32, enc string) int {
	units := int(character)
	col := 0
	for i := 0; i < len(line) && units > 0; {
		r, size := utf8.DecodeRune(line[i:])
		switch enc {
		case EncodingUTF8:
			units -= size
		case EncodingUTF32:
			units--
		default: // UTF-16
			if r == utf8.RuneError && size == 1 {
				units--
			} else {
				units -= utf16.RuneLen(r)
			}
		}
		i += size
		col++
	}
	return col + 1
}

// convert turns an LSP position into a 1-based line and code-point column.
// When the line is not in the text (the document changed since), the column
// is taken as if every unit were one character.
func (x *lineIndex) convert(p Position, enc string) (line, col int) {
	l, ok := x.line(int(p.Line))
	if !ok {
		return int(p.Line) + 1, int(p.Character) + 1
	}
	return int(p.Line) + 1, toColumn(l, p.Character, enc)
}

// pathToURI turns an absolute file path into a file:// URI, percent-encoding
// what needs it (spaces, '%', '#', non-ASCII) with net/url.
func pathToURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// uriToPath turns a file:// URI back into a cleaned absolute path.
func uriToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("parsing document URI %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("document URI %q: scheme %q is not file", uri, u.Scheme)
	}
	p := filepath.FromSlash(u.Path)
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("document URI %q: path is not absolute", uri)
	}
	return filepath.Clean(p), nil
}
