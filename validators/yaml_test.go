package validators

import (
	"strings"
	"testing"
)

func TestYAML(t *testing.T) {
	runCases(t, YAML{}, "yaml", []validatorCase{
		{name: "mapping", src: "name: x\nlist:\n  - 1\n  - {a: 1, b: [2, 3]}\nnested:\n  key: \"value\"\n"},
		{name: "empty", src: ""},
		{name: "comments only", src: "# nothing\n"},
		{name: "multi document", src: "---\na: 1\n---\na: 2\n...\n---\n- x\n"},
		{name: "anchors", src: "base: &b {x: 1}\nuse:\n  <<: *b\n  <<: *b\n  y: 2\n"},
		{name: "tab as separation", src: "key:\tvalue\t# c\nlist: [a,\tb]\n"},
		{name: "tab in block scalar", src: "s: |\n  line\n  \tindented\n\n  \t\nt: >-\n    a\n"},
		{name: "tab in flow continuation", src: "a: [1,\n\t2]\nb: {x: 1,\n\t y: 2}\n"},
		{name: "tab in quoted continuation", src: "a: \"x\n\ty\"\nb: 'p\n\tq'\n"},
		{name: "top-level plain scalar continued after a tab", src: "first\n\tsecond\n!third\n"},
		{name: "plain scalar continued after spaces and a tab", src: "a: b\n  \tc\n"},
		{name: "tab comment after top-level scalar", src: "x\n\t# c\n"},
		{name: "string and int keys differ", src: "1: a\n'1': b\n"},
		{name: "bom", src: "\ufeffa: 1\n"},
		{name: "crlf", src: "a: 1\r\nb:\r\n  - c\r\n"},
		{name: "syntax error", src: "a: 1\nb: c: d\n", want: []want{errAt(2, 1, "mapping values are not allowed in this context")}},
		{name: "syntax error crlf", src: "a: 1\r\nb: c: d\r\n", want: []want{errAt(2, 1, "mapping values are not allowed")}},
		{name: "syntax error after cjk", src: "名前: 1\n  b: 2\n", want: []want{errAt(2, 1, "mapping values are not allowed")}},
		{name: "bad indentation", src: "a:\n  b: 1\n c: 2\n", want: []want{errAt(2, 1, "did not find expected key")}},
		{name: "error in second document", src: "a: 1\n---\nb: 2\nc: d: e\n", want: []want{errAt(4, 1, "mapping values are not allowed")}},
		{name: "unclosed flow in second document", src: "a: 1\n---\nb: [\n", want: []want{errAt(3, 1, "did not find expected node content")}},
		{name: "unknown anchor", src: "a: &x 1\nb: [1, *y]\n", want: []want{errAt(2, 8, "unknown anchor 'y' referenced")}},
		{name: "duplicate key", src: "a: 1\nb: 2\na: 3\n", want: []want{errAt(3, 1, `duplicate key "a" (first at 1:1)`)}},
		{name: "duplicate quoted", src: "a: 1\n\"a\": 2\n", want: []want{errAt(2, 1, `duplicate key "a" (first at 1:1)`)}},
		{name: "duplicate cjk nested", src: "x:\n  名前: 1\n  名前: 2\n", want: []want{errAt(3, 3, `duplicate key "名前" (first at 2:3)`)}},
		{name: "duplicate in flow after cjk", src: "'日本': {x: 1, x: 2}\n", want: []want{errAt(1, 14, `duplicate key "x" (first at 1:8)`)}},
		{name: "duplicate in second document", src: "a: 1\n---\nb: 1\nb: 2\n", want: []want{errAt(4, 1, `duplicate key "b" (first at 3:1)`)}},
		{name: "same key in two documents", src: "a: 1\n---\na: 2\n"},
		{name: "duplicate then syntax error", src: "a: 1\na: 2\n---\n[\n", want: []want{errAt(2, 1, `duplicate key "a"`), errAt(4, 1, "did not find expected")}},
		{name: "duplicate crlf", src: "a: 1\r\na: 2\r\n", want: []want{errAt(2, 1, `duplicate key "a" (first at 1:1)`)}},
		{name: "tab indentation", src: "a:\n\tb: 1\n", want: []want{errAt(2, 1, "tab character used for indentation")}},
		{name: "tab after spaces", src: "a:\n  b: 1\n  \tc: 2\n", want: []want{errAt(3, 3, "tab character used for indentation")}},
		{name: "tab indented sequence", src: "x:\n\t- 1\n\t- 2\n", want: []want{errAt(2, 1, "tab character"), errAt(3, 1, "tab character")}},
		{name: "tab continuing plain scalar", src: "key: word\n\tmore\n", want: []want{errAt(2, 1, "tab character used for indentation")}},
		{name: "tab continuing nested plain scalar", src: "a:\n  b\n\tc\n", want: []want{errAt(3, 1, "tab character used for indentation")}},
		{name: "tab in second document", src: "a: 1\n---\nb:\n\tc: 1\n", want: []want{errAt(4, 1, "tab character used for indentation")}},
		{name: "tab after block scalar", src: "s: |\n  a\n\tb: 1\n", want: []want{errAt(3, 1, "tab character used for indentation")}},
		{name: "tab before comment", src: "a: 1\n\t# c\nb: 2\n", want: []want{errAt(2, 1, "tab character used for indentation")}},
		{name: "tab crlf", src: "a:\r\n\tb: 1\r\n", want: []want{errAt(2, 1, "tab character used for indentation")}},
		{name: "control character", src: "a: \x07\n", want: []want{errAt(1, 4, "control character U+0007 is not allowed in YAML")}},
		{name: "invalid utf8", src: "日本: \xff\n", want: []want{errAt(1, 5, "invalid UTF-8 byte 0xff")}},
		{name: "binary", src: "\x00\x01", want: []want{errAt(1, 1, "control character U+0000")}},
	})
}

func TestYAMLCaps(t *testing.T) {
	var b strings.Builder
	for range maxRepeated + 20 {
		b.WriteString("k: 1\n")
	}
	ds := YAML{}.Validate("/w/f", []byte(b.String()))
	if len(ds) != maxRepeated+1 || ds[maxRepeated].Message != "19 more duplicate key(s) not reported" {
		t.Errorf("duplicates: got %d, last %q", len(ds), ds[len(ds)-1].Message)
	}
	b.Reset()
	b.WriteString("a:\n")
	for range maxRepeated + 5 {
		b.WriteString("\tb: 1\n")
	}
	ds = YAML{}.Validate("/w/f", []byte(b.String()))
	if len(ds) != maxRepeated+1 || ds[maxRepeated].Message != "5 more line(s) indented with tabs not reported" {
		t.Errorf("tabs: got %d, last %q", len(ds), ds[len(ds)-1].Message)
	}
}
