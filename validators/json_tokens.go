package validators

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The lexical parts of RFC 8259: strings (section 7), numbers (section 6)
// and the literals true, false and null (section 3). Each scanner starts at
// s.i on the token's first byte and leaves s.i just after the token, or
// records an error at the offending byte and returns false.

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
func (s *jsonScanner) digit() bool    { return s.i < len(s.src) && s.src[s.i] >= '0' && s.src[s.i] <= '9' }
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
