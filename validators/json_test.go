package validators

import (
	"fmt"
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	runCases(t, JSON{}, "json", []validatorCase{
		{name: "object", src: `{"a": [1, 2.5e-3, -0, 1E+2, true, false, null, "x\u00e9\n\"", {}], "b": {"c": []}}`},
		{name: "scalar", src: "  \"just a string\"\n"},
		{name: "number", src: "\t-12.5e10\r\n"},
		{name: "bom", src: "\ufeff{\"a\": 1}"},
		{name: "same key in sibling objects", src: `[{"a": 1}, {"a": 2}, {"b": {"a": 3}}]`},
		{name: "empty", src: "", want: []want{errAt(1, 1, "empty JSON document")}},
		{name: "blank", src: "  \n\n", want: []want{errAt(1, 1, "empty JSON document")}},
		{name: "trailing comma object", src: `{"a": 1,}`,
			want: []want{errAt(1, 9, "expected a string object key, found '}' (trailing commas are not allowed in JSON)")}},
		{name: "trailing comma array", src: "[\n  1,\n]",
			want: []want{errAt(3, 1, "expected a value, found ']' (trailing commas are not allowed in JSON)")}},
		{name: "missing comma", src: `{"a": 1 "b": 2}`,
			want: []want{errAt(1, 9, `expected ',' or '}' after object member, found '"'`)}},
		{name: "missing colon", src: `{"a" 1}`, want: []want{errAt(1, 6, "expected ':' after object key, found '1'")}},
		{name: "array separator", src: "[1 2]", want: []want{errAt(1, 4, "expected ',' or ']' after array element, found '2'")}},
		{name: "cjk before error", src: `{"名前": "値", "x": }`, want: []want{errAt(1, 18, "expected a value, found '}'")}},
		{name: "emoji before error", src: `["😀😀", oops]`, want: []want{errAt(1, 8, "expected a value, found 'o'")}},
		{name: "crlf", src: "{\r\n  \"a\": 1,\r\n  \"b\": x\r\n}\r\n", want: []want{errAt(3, 8, "expected a value, found 'x'")}},
		{name: "unexpected end", src: "{\n  \"a\": 1\n", want: []want{errAt(3, 1, "unexpected end of input, expected ',' or '}'")}},
		{name: "unexpected end in array", src: "[1,", want: []want{errAt(1, 4, "unexpected end of input, expected a value")}},
		{name: "unterminated string", src: `{"a": "abc`, want: []want{errAt(1, 11, "unexpected end of input in string")}},
		{name: "trailing data", src: "{} {}", want: []want{errAt(1, 4, "unexpected '{' after the top-level value")}},
		{name: "line comment", src: "{\n  // c\n  \"a\": 1\n}", want: []want{errAt(2, 3, "comments are not allowed in JSON")}},
		{name: "comment after value", src: "[1 /* c */]", want: []want{errAt(1, 4, "comments are not allowed in JSON")}},
		{name: "single quotes", src: `{'a': 1}`, want: []want{errAt(1, 2, "strings must use double quotes")}},
		{name: "bare key", src: `{a: 1}`, want: []want{errAt(1, 2, "object keys must be double-quoted strings")}},
		{name: "newline in string", src: "[\"a\nb\"]", want: []want{errAt(1, 4, `invalid control character U+000A in string (write it as \n)`)}},
		{name: "tab in string", src: "\"a\tb\"", want: []want{errAt(1, 3, `write it as \t`)}},
		{name: "bad escape", src: `"日\x"`, want: []want{errAt(1, 4, "invalid escape character 'x' in string")}},
		{name: "bad unicode escape", src: `"\u12g4"`, want: []want{errAt(1, 6, `invalid \u escape: expected a hex digit, found 'g'`)}},
		{name: "leading zero", src: "[01]", want: []want{errAt(1, 3, "leading zeros are not allowed")}},
		{name: "lone minus", src: "[-]", want: []want{errAt(1, 3, "expected a digit after '-', found ']'")}},
		{name: "bare fraction", src: "1.", want: []want{errAt(1, 3, "expected a digit after '.', found end of input")}},
		{name: "empty exponent", src: "1e+x", want: []want{errAt(1, 4, "expected a digit in the exponent, found 'x'")}},
		{name: "plus sign", src: "+1", want: []want{errAt(1, 1, "expected a value, found '+'")}},
		{name: "bad literal", src: "[tru]", want: []want{errAt(1, 5, `invalid literal: expected "true", found ']'`)}},
		{name: "capital literal", src: "True", want: []want{errAt(1, 1, "expected a value, found 'T'")}},
		{name: "nan", src: "NaN", want: []want{errAt(1, 1, "expected a value, found 'N'")}},
		{name: "invalid utf8 in string", src: "[\"日本\xff\"]", want: []want{errAt(1, 5, "invalid UTF-8 byte 0xff in string")}},
		{name: "invalid utf8 outside", src: "[\"日\", \xfe]", want: []want{errAt(1, 7, "invalid UTF-8 byte 0xfe")}},
		{name: "binary", src: "\x00\x01\x02", want: []want{errAt(1, 1, `found '\x00'`)}},
		{name: "duplicate key", src: "{\n  \"name\": 1,\n  \"name\": 2\n}",
			want: []want{warnAt(3, 3, `duplicate key "name" (first at 2:3)`)}},
		{name: "duplicate nested and escaped", src: "{\"a\": {\"b\": 1, \"b\": 2}, \"\\u0061\": 3}",
			want: []want{warnAt(1, 16, `duplicate key "b" (first at 1:8)`), warnAt(1, 25, `duplicate key "a" (first at 1:2)`)}},
		{name: "duplicate cjk", src: "{\"名\": 1, \"名\": 2}", want: []want{warnAt(1, 10, `duplicate key "名" (first at 1:2)`)}},
		{name: "duplicate then error", src: "{\"a\": 1, \"a\": 2, }",
			want: []want{warnAt(1, 10, `duplicate key "a"`), errAt(1, 18, "trailing commas")}},
		{name: "deep nesting unclosed", src: strings.Repeat("[", 100000), want: []want{errAt(1, 100001, "unexpected end of input")}},
		{name: "deep nesting", src: strings.Repeat("[", 100000) + strings.Repeat("]", 100000)},
	})
}

func TestJSONDuplicateCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range maxRepeated + 50 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n\"k\": 1")
	}
	b.WriteString("\n}")
	ds := JSON{}.Validate("/w/f", []byte(b.String()))
	if len(ds) != maxRepeated+1 {
		t.Fatalf("got %d diagnostics, want %d", len(ds), maxRepeated+1)
	}
	last := ds[len(ds)-1]
	if last.Line != maxRepeated+3 || last.Message != "49 more duplicate key(s) not reported" {
		t.Errorf("summary = %d:%d %q", last.Line, last.Column, last.Message)
	}
}

func TestJSONDuplicateRange(t *testing.T) {
	ds := JSON{}.Validate("/w/f", []byte(`{"日本": 1, "日本": 2}`))
	if len(ds) != 1 || ds[0].Line != 1 || ds[0].Column != 11 || ds[0].EndLine != 1 || ds[0].EndColumn != 15 {
		t.Errorf("got %+v, want range 1:11-1:15", ds)
	}
}

func TestJSONManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 3 * smallObject {
		fmt.Fprintf(&b, "%q: %d, ", fmt.Sprint("k", i), i)
	}
	b.WriteString("\"k3\": 0, \"k40\": 0, \"\\u006b1\": 0, \"new\": {\"k3\": 1}}")
	ds := JSON{}.Validate("/w/f", []byte(b.String()))
	want := []string{`duplicate key "k3"`, `duplicate key "k40"`, `duplicate key "k1"`}
	if len(ds) != len(want) {
		t.Fatalf("got:\n%s", dump(ds))
	}
	for i, w := range want {
		if !strings.HasPrefix(ds[i].Message, w) {
			t.Errorf("diagnostic %d = %q, want %s…", i, ds[i].Message, w)
		}
	}
}
