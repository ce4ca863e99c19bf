package validators

import "testing"

func TestJSONC(t *testing.T) {
	runCases(t, JSONC{}, "jsonc", []validatorCase{
		{name: "comments and trailing commas", src: "// settings\n{\n  /* block\n     comment */ \"a\": 1, // note\n  \"b\": [1, 2,],\n}\n"},
		{name: "line comment at end of file", src: "{} // no newline"},
		{name: "comment with cjk", src: "/* 日本語 😀 */ {\"a\": 1}"},
		{name: "crlf comments", src: "{\r\n  // c\r\n  \"a\": 1,\r\n}\r\n"},
		{name: "plain json", src: `{"a": [true, null]}`},
		{name: "error after cjk comment", src: "/* 日本語 */ {\"a\": x}", want: []want{errAt(1, 17, "expected a value, found 'x'")}},
		{name: "error after multi-line comment", src: "/*\n 日本\n*/ [1,,]", want: []want{errAt(3, 7, "expected a value, found ','")}},
		{name: "error after line comment", src: "{\n  \"a\": 1, // 日本語\n  \"b\" 2\n}", want: []want{errAt(3, 7, "expected ':' after object key, found '2'")}},
		{name: "error on crlf line", src: "{\r\n  // c\r\n  \"a\": 1\r\n  \"b\": 2\r\n}", want: []want{errAt(4, 3, "expected ',' or '}' after object member")}},
		{name: "unterminated block comment", src: "{\n  \"a\": 1 /* open\n}\n", want: []want{errAt(2, 10, "unterminated block comment")}},
		{name: "stray slash", src: "[1, /x]", want: []want{errAt(1, 6, "expected '/' or '*' after '/' to start a comment, found 'x'")}},
		{name: "slash at end", src: "[1] /", want: []want{errAt(1, 6, "unexpected end of input after '/'")}},
		{name: "comma only array", src: "[,]", want: []want{errAt(1, 2, "expected a value, found ','")}},
		{name: "comma only object", src: "{,}", want: []want{errAt(1, 2, "expected a string object key, found ','")}},
		{name: "double trailing comma", src: "[1,,]", want: []want{errAt(1, 4, "expected a value, found ','")}},
		{name: "empty", src: "", want: []want{errAt(1, 1, "empty JSONC document")}},
		{name: "only comments", src: "// nothing\n/* here */\n", want: []want{errAt(1, 1, "empty JSONC document")}},
		{name: "invalid utf8 in comment", src: "// 日\xff\n{}", want: []want{errAt(1, 5, "invalid UTF-8 byte 0xff in comment")}},
		{name: "trailing data", src: "{} // c\n[]", want: []want{errAt(2, 1, "unexpected '[' after the top-level value")}},
		{name: "duplicate key", src: "{\n  // first\n  \"a\": 1,\n  /* dup */ \"a\": 2,\n}",
			want: []want{warnAt(4, 13, `duplicate key "a" (first at 3:3)`)}},
	})
}
