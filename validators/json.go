package validators

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/diag"
)

// JSON validates strict JSON as RFC 8259 defines it: one value (object,
// array, string, number, true, false or null) surrounded by optional
// whitespace, UTF-8 encoded (section 8.1; a leading byte order mark is
// ignored, as 8.1 allows). No comments, no trailing commas, no trailing data.
//
// Validate reports the first syntax error, at the 1-based line and 1-based
// code-point column of the offending character (the end of input when the
// file stops early), with severity error, and every duplicate object key at
// any depth (RFC 8259 section 4: names SHOULD be unique) as a warning at the
// second key, its range covering the quoted key and its message naming the
// first: `duplicate key "name" (first at 3:5)`. Source is "json"; Code is
// empty. An empty file is an error ("empty JSON document"). Memory is linear
// in the input: the scan is iterative (deep nesting costs heap, not stack)
// and keeps only the keys of the objects still open.
type JSON struct{}

var _ Validator = (*JSON)(nil)

// Validate implements Validator for strict JSON (RFC 8259).
func (JSON) Validate(path string, src []byte) []diag.Diagnostic {
	return scanJSON(path, "json", src, false)
}

// maxDuplicates caps the duplicate-key findings reported for one file; the
// rest are summed up in one more finding.
const maxDuplicates = 100

// scanJSON runs the scanner in strict (jsonc=false) or JSONC mode.
func scanJSON(path, source string, src []byte, jsonc bool) []diag.Diagnostic {
	src = stripBOM(src)
	s := &jsonScanner{src: src, jsonc: jsonc, name: "JSON", moreOff: -1}
	if jsonc {
		s.name = "JSONC"
	}
	s.document()
	if s.dups > maxDuplicates {
		s.findings = append(s.findings, finding{off: s.moreOff, end: -1, ref: -1, severity: diag.SeverityWarning,
			msg: fmt.Sprintf("%d more duplicate keys not reported", s.dups-maxDuplicates)})
	}
	return diagnostics(path, source, src, s.findings)
}

// jsonScanner checks one JSON or JSONC text. Every method that can fail
// returns false after recording the error with fail; scanning stops there.
type jsonScanner struct {
	src      []byte
	i        int  // offset of the next unread byte
	jsonc    bool // allow comments and trailing commas
	name     string
	stack    []jsonFrame      // containers open at s.i, outermost first
	pool     []map[string]int // spare key sets by depth, reused between objects
	findings []finding
	dups     int // duplicate keys seen
	moreOff  int // offset of the first duplicate not reported, or -1
}

// jsonFrame is one open container.
type jsonFrame struct {
	object bool
	keys   map[string]int // object keys → offset of their first occurrence; nil until the first key
}

func (s *jsonScanner) fail(off int, format string, args ...any) bool {
	s.findings = append(s.findings, finding{off: off, end: -1, ref: -1, severity: diag.SeverityError,
		msg: fmt.Sprintf(format, args...)})
	return false
}

// document scans the whole text: exactly one value.
func (s *jsonScanner) document() {
	if !s.space() {
		return
	}
	if s.i == len(s.src) {
		s.fail(0, "empty %s document", s.name)
		return
	}
	if !s.value() || !s.space() {
		return
	}
	if s.i < len(s.src) {
		s.fail(s.i, "unexpected %s after the top-level value%s", describe(s.src, s.i), s.hint(s.i, false, false))
	}
}

// space skips whitespace (RFC 8259 section 2) and, in JSONC, comments.
func (s *jsonScanner) space() bool {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		case '/':
			if !s.jsonc {
				return true // the caller reports it, with a hint
			}
			if !s.comment() {
				return false
			}
		default:
			return true
		}
	}
	return true
}

// value scans one value at s.i. Containers are tracked on s.stack instead of
// by recursion.
func (s *jsonScanner) value() bool {
	base := len(s.stack)
	afterComma := false
	for {
		if !s.space() {
			return false
		}
		if s.i == len(s.src) {
			return s.fail(s.i, "unexpected end of input, expected a value")
		}
		switch c := s.src[s.i]; {
		case c == '{' || c == '[':
			closer := c + 2 // '}' or ']'
			s.push(c == '{')
			s.i++
			if !s.space() {
				return false
			}
			if s.i < len(s.src) && s.src[s.i] == closer {
				s.i++
				s.pop()
				break // an empty container is a complete value
			}
			if c == '{' && !s.member(false) {
				return false
			}
			afterComma = false
			continue
		case c == '"':
			if !s.str() {
				return false
			}
		case c == '-' || c >= '0' && c <= '9':
			if !s.number() {
				return false
			}
		case c == 't' || c == 'f' || c == 'n':
			if !s.literal(c) {
				return false
			}
		default:
			return s.fail(s.i, "expected a value, found %s%s", describe(s.src, s.i), s.hint(s.i, afterComma, false))
		}
		// A value is complete: close containers until one wants another value.
		for {
			if len(s.stack) == base {
				return true
			}
			if !s.space() {
				return false
			}
			object := s.stack[len(s.stack)-1].object
			closer, what := byte(']'), "array element"
			if object {
				closer, what = '}', "object member"
			}
			if s.i == len(s.src) {
				return s.fail(s.i, "unexpected end of input, expected ',' or '%c'", closer)
			}
			if c := s.src[s.i]; c == closer {
				s.i++
				s.pop()
				continue
			} else if c != ',' {
				return s.fail(s.i, "expected ',' or '%c' after %s, found %s%s", closer, what, describe(s.src, s.i), s.hint(s.i, false, false))
			}
			s.i++
			if !s.space() {
				return false
			}
			if s.jsonc && s.i < len(s.src) && s.src[s.i] == closer {
				s.i++ // a trailing comma, allowed in JSONC
				s.pop()
				continue
			}
			if object && !s.member(true) {
				return false
			}
			afterComma = !object
			break
		}
	}
}

// member scans an object key and its colon, leaving s.i at the value.
func (s *jsonScanner) member(afterComma bool) bool {
	if s.i == len(s.src) {
		return s.fail(s.i, "unexpected end of input, expected an object key")
	}
	if s.src[s.i] != '"' {
		return s.fail(s.i, "expected a string object key, found %s%s", describe(s.src, s.i), s.hint(s.i, afterComma, true))
	}
	start := s.i
	if !s.str() {
		return false
	}
	s.key(start, s.i)
	if !s.space() {
		return false
	}
	if s.i == len(s.src) {
		return s.fail(s.i, "unexpected end of input, expected ':' after object key")
	}
	if s.src[s.i] != ':' {
		return s.fail(s.i, "expected ':' after object key, found %s%s", describe(s.src, s.i), s.hint(s.i, false, false))
	}
	s.i++
	return true
}

// key records the key quoted at src[start:end] in the innermost object and
// reports it when that object already has it.
func (s *jsonScanner) key(start, end int) {
	top := &s.stack[len(s.stack)-1]
	if top.keys == nil {
		top.keys = s.keySet(len(s.stack) - 1)
	}
	raw := s.src[start+1 : end-1]
	if bytes.IndexByte(raw, '\\') >= 0 {
		var k string // escapes: compare decoded keys, so "a" and "\u0061" collide
		if json.Unmarshal(s.src[start:end], &k) == nil {
			raw = []byte(k)
		}
	}
	first, ok := top.keys[string(raw)]
	if !ok {
		top.keys[string(raw)] = start
		return
	}
	s.dups++
	if s.dups > maxDuplicates {
		if s.moreOff < 0 {
			s.moreOff = start
		}
		return
	}
	s.findings = append(s.findings, finding{off: start, end: end, ref: first, severity: diag.SeverityWarning,
		msg: "duplicate key " + keyLabel(string(raw))})
}

// keySet returns an empty key set for an object at depth d.
func (s *jsonScanner) keySet(d int) map[string]int {
	if d < len(s.pool) && s.pool[d] != nil {
		m := s.pool[d]
		s.pool[d] = nil
		return m
	}
	return make(map[string]int)
}

func (s *jsonScanner) push(object bool) { s.stack = append(s.stack, jsonFrame{object: object}) }

// pop closes the innermost container, keeping a small key set for reuse (a
// big one is dropped: clearing it again for every small object would cost
// time in proportion to its size).
func (s *jsonScanner) pop() {
	d := len(s.stack) - 1
	if m := s.stack[d].keys; m != nil && len(m) <= 64 {
		clear(m)
		for len(s.pool) <= d {
			s.pool = append(s.pool, nil)
		}
		s.pool[d] = m
	}
	s.stack = s.stack[:d]
}

// hint explains a common mistake at src[off], or returns "".
func (s *jsonScanner) hint(off int, afterComma, key bool) string {
	if off >= len(s.src) {
		return ""
	}
	switch c := s.src[off]; {
	case c == '/' && !s.jsonc:
		return " (comments are not allowed in JSON)"
	case (c == '}' || c == ']') && afterComma && !s.jsonc:
		return " (trailing commas are not allowed in JSON)"
	case c == '\'':
		return " (strings must use double quotes)"
	case key && (c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
		return " (object keys must be double-quoted strings)"
	}
	return ""
}

// str scans a string (RFC 8259 section 7) starting at the '"' at s.i.
func (s *jsonScanner) str() bool {
	s.i++
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '"':
			s.i++
			return true
		case c == '\\':
			if !s.escape() {
				return false
			}
		case c < 0x20:
			return s.fail(s.i, "invalid control character %U in string (write it as %s)", rune(c), controlEscape(c))
		case c < utf8.RuneSelf:
			s.i++
		default:
			r, w := utf8.DecodeRune(s.src[s.i:])
			if r == utf8.RuneError && w == 1 {
				return s.fail(s.i, "invalid UTF-8 byte 0x%02x in string", c)
			}
			s.i += w
		}
	}
	return s.fail(s.i, "unexpected end of input in string (missing closing '\"')")
}

// controlEscape spells control character c as a JSON escape.
func controlEscape(c byte) string {
	switch c {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return fmt.Sprintf(`\u%04x`, c)
}

// escape scans an escape sequence at the '\\' at s.i.
func (s *jsonScanner) escape() bool {
	switch {
	case s.i+1 >= len(s.src):
		return s.fail(s.i+1, "unexpected end of input in string escape")
	case strings.IndexByte(`"\/bfnrt`, s.src[s.i+1]) >= 0:
		s.i += 2
		return true
	case s.src[s.i+1] != 'u':
		return s.fail(s.i+1, `invalid escape character %s in string (valid: \" \\ \/ \b \f \n \r \t \uXXXX)`, describe(s.src, s.i+1))
	}
	for k := s.i + 2; k < s.i+6; k++ {
		if k >= len(s.src) {
			return s.fail(k, `unexpected end of input in \u escape`)
		}
		if c := s.src[k]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return s.fail(k, `invalid \u escape: expected a hex digit, found %s`, describe(s.src, k))
		}
	}
	s.i += 6
	return true
}

// number scans a number (RFC 8259 section 6) starting at s.i.
func (s *jsonScanner) number() bool {
	if s.src[s.i] == '-' {
		s.i++
	}
	switch {
	case s.at('0'):
		s.i++
		if s.digit() {
			return s.fail(s.i, "invalid number: leading zeros are not allowed")
		}
	case s.digit():
		s.digits()
	default:
		return s.fail(s.i, "invalid number: expected a digit after '-', found %s", describe(s.src, s.i))
	}
	if s.at('.') {
		s.i++
		if !s.digit() {
			return s.fail(s.i, "invalid number: expected a digit after '.', found %s", describe(s.src, s.i))
		}
		s.digits()
	}
	if s.at('e') || s.at('E') {
		s.i++
		if s.at('+') || s.at('-') {
			s.i++
		}
		if !s.digit() {
			return s.fail(s.i, "invalid number: expected a digit in the exponent, found %s", describe(s.src, s.i))
		}
		s.digits()
	}
	return true
}

func (s *jsonScanner) at(c byte) bool { return s.i < len(s.src) && s.src[s.i] == c }
func (s *jsonScanner) digit() bool   { return s.i < len(s.src) && s.src[s.i] >= '0' && s.src[s.i] <= '9' }
func (s *jsonScanner) digits() {
	for s.digit() {
		s.i++
	}
}

// literal scans true, false or null at s.i, whose first byte is c.
func (s *jsonScanner) literal(c byte) bool {
	word := "null"
	switch c {
	case 't':
		word = "true"
	case 'f':
		word = "false"
	}
	for k := 0; k < len(word); k++ {
		if s.i+k >= len(s.src) || s.src[s.i+k] != word[k] {
			return s.fail(s.i+k, "invalid literal: expected %q, found %s", word, describe(s.src, s.i+k))
		}
	}
	s.i += len(word)
	return true
}
