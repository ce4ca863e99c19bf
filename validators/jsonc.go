package validators

import (
	"bytes"

	"github.com/lsp-hook/lsp-hook/diag"
)

// JSONC validates JSON with comments and trailing commas, the dialect of VS
// Code settings, tsconfig.json and devcontainer.json: RFC 8259 JSON plus line
// comments (// up to the end of the line), block comments (/* … */) wherever
// whitespace may appear, and one trailing comma after the last element of an
// array or member of an object. This is the grammar of JWCC as
// github.com/tailscale/hujson documents it, except that a line comment may
// end at the end of the file without a newline, as VS Code accepts.
//
// Diagnostics are those of JSON (first syntax error as an error, duplicate
// keys as warnings; 1-based lines, 1-based code-point columns of the original
// text, comments included), with Source "jsonc". An unterminated block
// comment is reported at its "/*"; an empty file is an error ("empty JSONC
// document").
type JSONC struct{}

var _ Validator = (*JSONC)(nil)

// Validate implements Validator for JSONC.
func (JSONC) Validate(path string, src []byte) []diag.Diagnostic {
	return scanJSON(path, "jsonc", src, true)
}

// comment skips the comment that starts at the '/' at s.i.
func (s *jsonScanner) comment() bool {
	start := s.i
	if start+1 >= len(s.src) {
		return s.fail(start+1, "unexpected end of input after '/' (a comment starts with // or /*)")
	}
	var body []byte
	switch s.src[start+1] {
	case '/':
		end := len(s.src)
		if k := bytes.IndexAny(s.src[start+2:], "\r\n"); k >= 0 {
			end = start + 2 + k
		}
		body, s.i = s.src[start+2:end], end
	case '*':
		k := bytes.Index(s.src[start+2:], []byte("*/"))
		if k < 0 {
			return s.fail(start, "unterminated block comment (missing */)")
		}
		body, s.i = s.src[start+2:start+2+k], start+2+k+2
	default:
		return s.fail(start+1, "expected '/' or '*' after '/' to start a comment, found %s", describe(s.src, start+1))
	}
	if bad := invalidUTF8(body); bad >= 0 {
		return s.fail(start+2+bad, "invalid UTF-8 byte 0x%02x in comment", body[bad])
	}
	return true
}
