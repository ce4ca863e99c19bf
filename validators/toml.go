package validators

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/lsp-hook/lsp-hook/diag"
)

// TOML validates TOML 1.0 (https://toml.io/en/v1.0.0) by decoding it with
// github.com/BurntSushi/toml, which also rejects duplicate keys and tables
// (TOML 1.0 "Keys", "Table"). The library (v1.6) implements TOML 1.1.0, a
// superset, so the 1.1 additions are accepted too: newlines and trailing
// commas in inline tables, \xHH and \e escapes, times without seconds.
//
// Validate reports at most one diagnostic, severity error, Source "toml": the
// parser's first error, at a 1-based line and 1-based code-point column
// computed from the byte range of its toml.Position (the library's own Col
// counts bytes): on the offending character when the library names one ("but
// got 'x' instead"), at the end of input for "unexpected EOF", else at the
// start of the item at fault, such as a duplicate key. Before parsing, the
// file is checked for what TOML 1.0 forbids anywhere: invalid UTF-8 and
// control characters other than tab, newline and CRLF; those are reported at
// the exact byte. A file over MaxTOMLParse (2 MiB) gets only that check,
// and Unchecked says so: the library's tables take up to some 40 times the
// input in memory.
type TOML struct{}

var (
	_ Validator = (*TOML)(nil)
	_ Partial   = (*TOML)(nil)
)

// Unchecked implements Partial: a file over MaxTOMLParse is checked only
// for its encoding and control characters.
func (TOML) Unchecked(src []byte) string {
	return unchecked("TOML", src, MaxTOMLParse, "its encoding and control characters were")
}

// Validate implements Validator for TOML 1.0.
func (TOML) Validate(path string, src []byte) (ds []diag.Diagnostic) {
	src = stripBOM(src)
	defer func() {
		if r := recover(); r != nil { // the library recovers its own panics; this is a backstop
			ds = diagnostics(path, "toml", src, []finding{{end: -1, ref: -1, severity: diag.SeverityError,
				msg: fmt.Sprintf("toml parser failed: %v", r)}})
		}
	}()
	if f, bad := tomlChars(src); bad {
		return diagnostics(path, "toml", src, []finding{f})
	}
	if len(src) > MaxTOMLParse {
		return nil
	}
	var v map[string]any
	if _, err := toml.Decode(string(src), &v); err != nil {
		return diagnostics(path, "toml", src, []finding{tomlFinding(src, err)})
	}
	return nil
}

// tomlChars finds the first byte that TOML 1.0 allows nowhere: invalid UTF-8,
// U+007F, or a control character other than tab, newline and the CR of CRLF.
func tomlChars(src []byte) (finding, bool) {
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\t' || c == '\n' || c >= 0x20 && c < 0x7F:
			i++
			continue
		case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
			continue
		case c < utf8.RuneSelf:
			msg := fmt.Sprintf("control character %U is not allowed in TOML", rune(c))
			if c == '\r' {
				msg += " (a carriage return must be followed by a newline)"
			}
			return finding{off: i, end: i + 1, ref: -1, severity: diag.SeverityError, msg: msg}, true
		}
		r, w := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && w == 1 {
			return finding{off: i, end: i + 1, ref: -1, severity: diag.SeverityError,
				msg: fmt.Sprintf("invalid UTF-8 byte 0x%02x (TOML files must be UTF-8)", c)}, true
		}
		i += w
	}
	return finding{}, false
}

// tomlFinding places a toml.Decode error. A ParseError's Position is a byte
// range: for a parser error (a duplicate key, a bad value) the item at fault;
// for a lexer error the token read so far, whose last character is the
// offending one ("but got 'x' instead"). Such an error is placed on that
// character, one about the end of input at the end, any other at the start
// of the range (leading blanks skipped).
func tomlFinding(src []byte, err error) finding {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return finding{end: -1, ref: -1, severity: diag.SeverityError, msg: tomlMessage(err.Error())}
	}
	f := finding{end: -1, ref: -1, severity: diag.SeverityError, msg: tomlMessage(pe.Message)}
	off := pe.Position.Start
	if off <= 0 && pe.Position.Line > 1 { // no offset: fall back to the line and byte column
		off = lineOffset(src, pe.Position.Line) + max(pe.Position.Col-1, 0)
	}
	off = min(max(off, 0), len(src))
	end := min(off+max(pe.Position.Len, 1), len(src))
	switch {
	case strings.HasPrefix(f.msg, "unexpected EOF"):
		f.off = len(src)
	case tomlLexMessage(f.msg) && end > off:
		_, w := utf8.DecodeLastRune(src[off:end])
		f.off, f.end = end-w, end
	default:
		for off < end-1 && (src[off] == ' ' || src[off] == '\t') {
			off++
		}
		f.off, f.end = off, end
	}
	return f
}

// tomlLexMessage reports whether msg is one of the library's lexer errors
// that name the character they stopped at.
func tomlLexMessage(msg string) bool {
	for _, s := range []string{" got ", " found ", "unexpected ", "invalid escape in string", "number:", "strings cannot contain newlines", "newlines not allowed"} {
		if strings.Contains(msg, s) || strings.HasPrefix(msg, strings.TrimSpace(s)) {
			return true
		}
	}
	return false
}

// tomlMessage makes a library message read like ours: lower-case first word
// (acronyms such as "TOML" kept) and no final period.
func tomlMessage(m string) string {
	m = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(m, "toml: ")), ".")
	r, w := utf8.DecodeRuneInString(m)
	if next, _ := utf8.DecodeRuneInString(m[w:]); unicode.IsUpper(r) && !unicode.IsUpper(next) {
		m = string(unicode.ToLower(r)) + m[w:]
	}
	return m
}
