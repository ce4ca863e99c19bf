package validators

import (
	"bytes"
	"encoding/json"
	"fmt"

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

// maxRepeated caps the findings of one kind (duplicate keys, tab-indented
// lines) reported for one file; the rest are summed up in one more finding.
const maxRepeated = 100

// scanJSON runs the scanner in strict (jsonc=false) or JSONC mode.
func scanJSON(path, source string, src []byte, jsonc bool) []diag.Diagnostic {
	src = stripBOM(src)
	s := &jsonScanner{src: src, jsonc: jsonc, name: "JSON", moreOff: -1}
	if jsonc {
		s.name = "JSONC"
	}
	s.document()
	if s.dups > maxRepeated {
		s.findings = append(s.findings, finding{off: s.moreOff, end: -1, ref: -1, severity: diag.SeverityWarning,
			msg: fmt.Sprintf("%d more duplicate key(s) not reported", s.dups-maxRepeated)})
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
	stack    []jsonFrame // containers open at s.i, outermost first
	pool     [][]jsonKey // spare key lists by depth, reused between objects
	findings []finding
	dups     int // duplicate keys seen
	moreOff  int // offset of the first duplicate not reported, or -1
}

// jsonFrame is one open container. An object's keys are kept in a short
// list, searched linearly and allocation-free, until there are more than
// smallObject; then in a map.
type jsonFrame struct {
	object bool
	keys   []jsonKey      // the keys while there are at most smallObject
	many   map[string]int // key → offset of its first occurrence, once there are more
}

// jsonKey is an object key (its bytes in src, or decoded when it has escapes)
// and the offset of its opening quote.
type jsonKey struct {
	name []byte
	off  int
}

// smallObject is the number of keys above which an object's keys go in a map.
const smallObject = 16

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
// by recursion: each turn scans a scalar or opens a container, then closes
// what is complete and moves on to the next element.
func (s *jsonScanner) value() bool {
	base := len(s.stack)
	afterComma := false
	for {
		opened, ok := s.start(afterComma)
		if !ok {
			return false
		}
		if opened {
			afterComma = false
			continue
		}
		more, arrayComma, ok := s.next(base)
		if !ok || !more {
			return ok
		}
		afterComma = arrayComma
	}
}

// start scans a scalar at s.i, or opens a container and moves to its first
// element (opened); an empty container is scanned whole, as a scalar is.
// afterComma reports that a comma came just before, for the error hint.
func (s *jsonScanner) start(afterComma bool) (opened, ok bool) {
	if !s.space() {
		return false, false
	}
	if s.i == len(s.src) {
		return false, s.fail(s.i, "unexpected end of input, expected a value")
	}
	switch c := s.src[s.i]; {
	case c == '{' || c == '[':
		s.push(c == '{')
		s.i++
		if !s.space() {
			return false, false
		}
		if s.i < len(s.src) && s.src[s.i] == c+2 { // '}' or ']'
			s.i++
			s.pop()
			return false, true
		}
		return true, c == '[' || s.member(false)
	case c == '"':
		return false, s.str()
	case c == '-' || c >= '0' && c <= '9':
		return false, s.number()
	case c == 't' || c == 'f' || c == 'n':
		return false, s.literal(c)
	}
	return false, s.fail(s.i, "expected a value, found %s%s", describe(s.src, s.i), s.hint(s.i, afterComma, false))
}

// next follows a complete value: it closes the containers that end there,
// down to depth base, then moves past the comma to the next element (more;
// arrayComma when it is an array element). more is false when the value at
// depth base is complete.
func (s *jsonScanner) next(base int) (more, arrayComma, ok bool) {
	for len(s.stack) > base {
		if !s.space() {
			return false, false, false
		}
		object := s.stack[len(s.stack)-1].object
		closer, what := byte(']'), "array element"
		if object {
			closer, what = '}', "object member"
		}
		switch {
		case s.i == len(s.src):
			return false, false, s.fail(s.i, "unexpected end of input, expected ',' or '%c'", closer)
		case s.src[s.i] == closer:
			s.i++
			s.pop()
			continue
		case s.src[s.i] != ',':
			return false, false, s.fail(s.i, "expected ',' or '%c' after %s, found %s%s",
				closer, what, describe(s.src, s.i), s.hint(s.i, false, false))
		}
		s.i++
		if !s.space() {
			return false, false, false
		}
		if s.jsonc && s.i < len(s.src) && s.src[s.i] == closer {
			s.i++ // a trailing comma, allowed in JSONC
			s.pop()
			continue
		}
		if object {
			return true, false, s.member(true)
		}
		return true, true, true
	}
	return false, false, true
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
	name := s.src[start+1 : end-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		var k string // escapes: compare decoded keys, so "a" and "\u0061" collide
		if json.Unmarshal(s.src[start:end], &k) == nil {
			name = []byte(k)
		}
	}
	first, found := top.find(name)
	if !found {
		top.add(name, start)
		return
	}
	s.dups++
	if s.dups > maxRepeated {
		if s.moreOff < 0 {
			s.moreOff = start
		}
		return
	}
	s.findings = append(s.findings, finding{off: start, end: end, ref: first, severity: diag.SeverityWarning,
		msg: "duplicate key " + keyLabel(string(name))})
}

// find returns the offset of key name in the object f, if it has it.
func (f *jsonFrame) find(name []byte) (int, bool) {
	if f.many != nil {
		off, ok := f.many[string(name)]
		return off, ok
	}
	for _, k := range f.keys {
		if bytes.Equal(k.name, name) {
			return k.off, true
		}
	}
	return 0, false
}

// add records key name at offset off in the object f.
func (f *jsonFrame) add(name []byte, off int) {
	if f.many == nil && len(f.keys) < smallObject {
		f.keys = append(f.keys, jsonKey{name, off})
		return
	}
	if f.many == nil {
		f.many = make(map[string]int, 4*smallObject)
		for _, k := range f.keys {
			f.many[string(k.name)] = k.off
		}
	}
	f.many[string(name)] = off
}

// push opens a container, reusing a key list for an object.
func (s *jsonScanner) push(object bool) {
	f := jsonFrame{object: object}
	if d := len(s.stack); object && d < len(s.pool) {
		f.keys, s.pool[d] = s.pool[d], nil
	}
	s.stack = append(s.stack, f)
}

// pop closes the innermost container, keeping its key list for the next
// object at that depth.
func (s *jsonScanner) pop() {
	d := len(s.stack) - 1
	if f := s.stack[d]; f.keys != nil {
		for len(s.pool) <= d {
			s.pool = append(s.pool, nil)
		}
		s.pool[d] = f.keys[:0]
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
