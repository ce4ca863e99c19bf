package validators

import (
	"cmp"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Positions.
//
// The checkers in this package find a problem as a byte offset into the file
// (yaml.v3 is the exception: it gives a 1-based line and code-point column
// itself). diag.Diagnostic wants a 1-based line and a 1-based column counted
// in Unicode code points. This file does that mapping, in one place:
//
//   - a line ends at "\n", "\r\n" or a lone "\r" (the terminators LSP 3.17
//     counts), so a CRLF file has the same lines and columns as its LF twin;
//   - a column counts code points from the line start, so "日本" is two
//     columns, and every byte of invalid UTF-8 counts as one column;
//   - the offset len(src) is the end of input: the place just after the last
//     character (line N+1, column 1 when the file ends with a newline).
//
// A leading UTF-8 byte order mark is cut off before a validator looks at the
// file (stripBOM), so it never counts as a column: editors do not show it.

// pos is a 1-based line and a 1-based code-point column.
type pos struct{ line, col int }

// positions converts byte offsets into src to positions, in one pass over
// src whatever the order of offs: O(len(src) + k log k) for k offsets. An
// offset inside a multi-byte character maps to that character; offsets are
// clamped to [0, len(src)].
func positions(src []byte, offs []int) []pos {
	order := make([]int, len(offs))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(offs[a], offs[b]) })
	out := make([]pos, len(offs))
	line, col, i := 1, 1, 0
	for _, k := range order {
		target := min(max(offs[k], 0), len(src))
	advance:
		for i < target {
			switch c := src[i]; {
			case c == '\n':
				line, col = line+1, 1
				i++
			case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
				i++ // the '\n' of this CRLF ends the line
			case c == '\r':
				line, col = line+1, 1
				i++
			case c < utf8.RuneSelf:
				col++
				i++
			default:
				_, w := utf8.DecodeRune(src[i:])
				if i+w > target {
					break advance // target is inside this character
				}
				col++
				i += w
			}
		}
		out[k] = pos{line, col}
	}
	return out
}

// positionOf converts one byte offset; see positions.
func positionOf(src []byte, off int) pos { return positions(src, []int{off})[0] }

// lineCount returns the number of lines in src as positions counts them: one
// more than the number of line terminators.
func lineCount(src []byte) int {
	n := 1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			n++
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				n++
			}
		}
	}
	return n
}

// lineOffset returns the byte offset where 1-based line starts in src, or
// len(src) when src has fewer lines. Lines end as positions counts them.
func lineOffset(src []byte, line int) int {
	if line <= 1 {
		return 0
	}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' || src[i] == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			if line--; line == 1 {
				return i + 1
			}
		}
	}
	return len(src)
}

// stripBOM returns src without a leading UTF-8 byte order mark. RFC 8259
// section 8.1 lets a parser ignore one; YAML 1.2 and TOML 1.0 allow one.
func stripBOM(src []byte) []byte {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return src[3:]
	}
	return src
}

// finding is a problem located by byte offsets into the (BOM-less) source,
// before conversion to a diagnostic.
type finding struct {
	off      int // start of the problem
	end      int // exclusive end, or -1 when the problem has no extent
	ref      int // a related earlier place ("first at"), or -1
	severity diag.Severity
	msg      string
}

// diagnostics converts findings to diagnostics for path, with one pass over
// src for all their offsets. A finding with a ref gets " (first at L:C)"
// appended to its message.
func diagnostics(path, source string, src []byte, fs []finding) []diag.Diagnostic {
	if len(fs) == 0 {
		return nil
	}
	offs := make([]int, 0, 3*len(fs))
	for _, f := range fs {
		offs = append(offs, f.off, f.end, f.ref)
	}
	ps := positions(src, offs)
	ds := make([]diag.Diagnostic, len(fs))
	for k, f := range fs {
		start, end, ref := ps[3*k], ps[3*k+1], ps[3*k+2]
		d := diag.Diagnostic{
			Path:     path,
			Line:     start.line,
			Column:   start.col,
			Severity: f.severity,
			Source:   source,
			Message:  f.msg,
		}
		if f.end > f.off {
			d.EndLine, d.EndColumn = end.line, end.col
		}
		if f.ref >= 0 {
			d.Message += fmt.Sprintf(" (first at %d:%d)", ref.line, ref.col)
		}
		ds[k] = d
	}
	return ds
}

// describe names the character at src[off] for a message: a quoted
// character ('}', '日', '\t'), "invalid UTF-8 byte 0xff", or "end of input"
// when off is at the end.
func describe(src []byte, off int) string {
	if off >= len(src) {
		return "end of input"
	}
	r, w := utf8.DecodeRune(src[off:])
	if r == utf8.RuneError && w <= 1 {
		return fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[off])
	}
	return fmt.Sprintf("%q", r)
}

// invalidUTF8 returns the offset of the first byte of src that is not part of
// valid UTF-8, or -1 when src is valid.
func invalidUTF8(src []byte) int {
	if utf8.Valid(src) {
		return -1
	}
	for i := 0; i < len(src); {
		r, w := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && w == 1 {
			return i
		}
		i += w
	}
	return -1
}

// keyLabel quotes a key for a message, shortened to 60 characters.
func keyLabel(k string) string {
	const limit = 60
	n := 0
	for i := range k {
		if n == limit {
			return fmt.Sprintf("%q…", k[:i])
		}
		n++
	}
	return fmt.Sprintf("%q", k)
}
