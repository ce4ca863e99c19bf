package validators

import "testing"

func TestTOML(t *testing.T) {
	runCases(t, TOML{}, "toml", []validatorCase{
		{name: "document", src: "title = \"x\"\n[owner]\nname = \"日本\"\ndob = 1979-05-27T07:32:00-08:00\n[[items]]\nn = 1\n[[items]]\nn = 2\ninline = {a = 1, b = [1, 2]}\ns = \"\"\"\nmulti\tline\n\"\"\"\n"},
		{name: "empty", src: ""},
		{name: "crlf", src: "a = 1\r\n[t]\r\nb = 'x'\r\n"},
		{name: "bom", src: "\ufeffa = 1\n"},
		{name: "dotted keys", src: "a.b = 1\na.c = 2\n"},
		{name: "duplicate key", src: "a = 1\na = 2\n", want: []want{errAt(2, 1, "key 'a' has already been defined")}},
		{name: "duplicate table", src: "[t]\nx = 1\n[t]\n", want: []want{errAt(3, 2, "key 't' has already been defined")}},
		{name: "table redefined by array", src: "[[a]]\n[a]\n", want: []want{errAt(2, 2, "already been defined")}},
		{name: "cjk before error", src: "a = \"日本\" x\n", want: []want{errAt(1, 10, "but got 'x' instead")}},
		{name: "emoji before error", src: "[t]\ns = \"😀😀\" = 1\n", want: []want{errAt(2, 10, "but got '=' instead")}},
		{name: "crlf error", src: "a = 1\r\nb = = 2\r\n", want: []want{errAt(2, 5, "expected value but found '='")}},
		{name: "unterminated table", src: "a = 1\n[b\n", want: []want{errAt(2, 3, "to end table name")}},
		{name: "missing value", src: "a = ", want: []want{errAt(1, 5, "unexpected EOF")}},
		{name: "bad escape", src: "a = \"日\\q\"\n", want: []want{errAt(1, 8, "invalid escape in string")}},
		{name: "newline in string", src: "a = 'x\n", want: []want{errAt(1, 7, "strings cannot contain newlines")}},
		{name: "double comma", src: "x = [1,\n2,,]\n", want: []want{errAt(2, 3, "unexpected comma")}},
		{name: "cjk key", src: "日本 = 1\n", want: []want{errAt(1, 1, "expected '.' or '=', but got '日' instead")}},
		{name: "control character", src: "a = \"x\x07\"\n", want: []want{errAt(1, 7, "control character U+0007 is not allowed in TOML")}},
		{name: "lone carriage return", src: "a = 1\rb = 2\n", want: []want{errAt(1, 6, "a carriage return must be followed by a newline")}},
		{name: "invalid utf8", src: "# 日本\xff\n", want: []want{errAt(1, 5, "invalid UTF-8 byte 0xff")}},
		{name: "binary", src: "\x00\x01", want: []want{errAt(1, 1, "control character U+0000")}},
	})
}

func TestTOMLMessage(t *testing.T) {
	for in, want := range map[string]string{
		"Key 'a' has already been defined.": "key 'a' has already been defined",
		"TOML files cannot contain x":       "TOML files cannot contain x",
		"unexpected comma":                  "unexpected comma",
		"":                                  "",
	} {
		if got := tomlMessage(in); got != want {
			t.Errorf("tomlMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTOMLMoreErrors(t *testing.T) {
	runCases(t, TOML{}, "toml", []validatorCase{
		{name: "bad unicode escape", src: "s = \"日\\u12x4\"\n", want: []want{errAt(1, 11, "four hexadecimal digits")}},
		{name: "bad hex number", src: "n = 0x1g\n", want: []want{errAt(1, 8, "")}},
		{name: "leading zero", src: "n = 0123\n", want: []want{errAt(1, 5, "leading zeroes")}},
		{name: "bad date", src: "d = 1979-13-45\n", want: []want{errAt(1, 5, "invalid datetime")}},
		{name: "array table over key", src: "a = 1\n[[a]]\n", want: []want{errAt(2, 3, "")}},
		{name: "toml 1.1 inline table newline", src: "t = {a = 1,\nb = 2,}\n"}, // the library implements TOML 1.1.0
		{name: "unterminated multi-line string", src: "s = \"\"\"\nabc", want: []want{errAt(2, 4, "unexpected EOF")}},
		{name: "blank key", src: " = 1\n", want: []want{errAt(1, 2, "key name appears blank")}},
	})
}
