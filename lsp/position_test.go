package lsp

import "testing"

func TestToColumn(t *testing.T) {
	tests := []struct {
		name string
		line string
		char uint32
		enc  string
		want int
	}{
		{"ascii utf16", "abc", 2, EncodingUTF16, 3},
		{"start", "abc", 0, EncodingUTF16, 1},
		{"cjk utf16", "日本語x", 3, EncodingUTF16, 4},
		{"cjk utf8", "日本語x", 9, EncodingUTF8, 4},
		{"emoji utf16 counts two", "😀x", 2, EncodingUTF16, 2},
		{"emoji utf8 counts four", "😀x", 4, EncodingUTF8, 2},
		{"emoji utf32 counts one", "😀x", 1, EncodingUTF32, 2},
		{"past end clamps", "ab", 10, EncodingUTF16, 3},
		{"invalid utf8 byte", "\xffx", 1, EncodingUTF16, 2},
		{"mixed", "a日😀b", 4, EncodingUTF16, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toColumn([]byte(tt.line), tt.char, tt.enc); got != tt.want {
				t.Errorf("toColumn(%q, %d, %s) = %d, want %d", tt.line, tt.char, tt.enc, got, tt.want)
			}
		})
	}
}

func TestLineIndexCRLF(t *testing.T) {
	x := newLineIndex([]byte("a\r\nbé\r\nc"))
	if l, _ := x.line(1); string(l) != "bé" {
		t.Errorf("line 1 = %q", l)
	}
	if line, col := x.convert(Position{Line: 1, Character: 2}, EncodingUTF16); line != 2 || col != 3 {
		t.Errorf("convert = %d:%d, want 2:3", line, col)
	}
	if _, ok := x.line(3); ok {
		t.Errorf("line 3 should not exist")
	}
}

func TestURIRoundTrip(t *testing.T) {
	for _, p := range []string{"/tmp/a b/c%d#e.go", "/home/ü/x.go", "/a/b.go"} {
		uri := pathToURI(p)
		got, err := uriToPath(uri)
		if err != nil || got != p {
			t.Errorf("round trip %q → %q → %q, %v", p, uri, got, err)
		}
	}
	if _, err := uriToPath("untitled:foo"); err == nil {
		t.Errorf("non-file URI accepted")
	}
}
