package lsp

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestColumn: a server's offset, in each encoding, becomes a code-point
// column (the cases of every unit are diag's TestColumns).
func TestColumn(t *testing.T) {
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
		{"inside a surrogate pair is the emoji", "a😀b", 2, EncodingUTF16, 2},
		{"inside a utf8 sequence is the emoji", "a😀b", 3, EncodingUTF8, 2},
		{"past the end of an astral line clamps", "a😀b", 5, EncodingUTF16, 4},
		{"largest offset clamps", "a😀b", ^uint32(0), EncodingUTF8, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Column([]byte(tt.line), tt.char, tt.enc); got != tt.want {
				t.Errorf("Column(%q, %d, %s) = %d, want %d", tt.line, tt.char, tt.enc, got, tt.want)
			}
		})
	}
}

// TestRecode: a position moves between encodings through its code-point
// column, and Character inverts Column.
func TestRecode(t *testing.T) {
	x := newLineIndex([]byte("a日😀b\r\nx"))
	tests := []struct {
		from     string
		char     uint32
		to       string
		wantChar uint32
	}{
		{EncodingUTF16, 4, EncodingUTF8, 8},  // before b: 1 + 3 + 4 bytes
		{EncodingUTF8, 8, EncodingUTF16, 4},  // and back
		{EncodingUTF16, 4, EncodingUTF32, 3}, // the emoji is one code point
		{EncodingUTF16, 2, EncodingUTF16, 2}, // same encoding: unchanged
		{EncodingUTF16, 9, EncodingUTF8, 9},  // past the end: clamped, and counted from it
	}
	for _, tt := range tests {
		if got := x.recode(Position{Line: 0, Character: tt.char}, tt.from, tt.to); got != (Position{0, tt.wantChar}) {
			t.Errorf("recode(0:%d, %s → %s) = %+v, want 0:%d", tt.char, tt.from, tt.to, got, tt.wantChar)
		}
	}
	if got := x.recode(Position{Line: 5, Character: 3}, EncodingUTF16, EncodingUTF8); got != (Position{5, 3}) {
		t.Errorf("recode of a line the text lacks = %+v, want it unchanged", got)
	}
	for _, enc := range []string{EncodingUTF8, EncodingUTF16, EncodingUTF32} {
		line := []byte("a日😀b")
		for col := 1; col <= 5; col++ {
			if got := Column(line, Character(line, col, enc), enc); got != col {
				t.Errorf("%s: Column(Character(%d)) = %d", enc, col, got)
			}
		}
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
	paths := []string{"/tmp/a b/c%d#e.go", "/home/ü/x.go", "/a/b.go"}
	if runtime.GOOS == "windows" {
		paths = []string{`C:\tmp\a b\c%d#e.go`, `D:\home\ü\x.go`, `\\server\share\b.go`}
	}
	for _, p := range paths {
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

// TestCanonicalURI: a server's spelling of a document's URI finds the one
// we opened it under; one of no local file is kept as sent.
func TestCanonicalURI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths; internal/fileuri's tests spell Windows drives")
	}
	ours := pathToURI("/home/u/a@b c.go")
	for _, uri := range []string{ours, "file:///home/u/a%40b%20c.go", "file://localhost/home/u/./a@b%20c.go"} {
		if got := canonicalURI(uri); got != ours {
			t.Errorf("canonicalURI(%q) = %q, want %q", uri, got, ours)
		}
	}
	for _, uri := range []string{"untitled:Untitled-1", "file://server/a.go"} {
		if got := canonicalURI(uri); got != uri {
			t.Errorf("canonicalURI(%q) = %q, want it unchanged", uri, got)
		}
	}
}

// TestEncodingRealServers: CJK and an emoji before the error column, with
// real servers that negotiate UTF-16 (gopls here; pyright always): the
// column is the 1-based code-point column, not the UTF-16 offset + 1 (one
// more, the emoji being two units) nor the byte offset + 1.
func TestEncodingRealServers(t *testing.T) {
	tests := []struct {
		server config.Server
		files  map[string]string
		file   string
		line   string // the line with the error; the error is at the last "x"
		msg    string
	}{
		{
			server: config.Default().LSP.Servers["gopls"],
			files:  map[string]string{"go.mod": "module example.com/enc\n\ngo 1.22\n"},
			file:   "main.go",
			line:   "\tx := \"日本語😀\"; var n int = x; _ = n",
			msg:    "cannot use x",
		},
		{
			server: config.Default().LSP.Servers["pyright"],
			files:  map[string]string{"pyproject.toml": ""},
			file:   "main.py",
			line:   "x = \"日本語😀\"; n: int = x",
			msg:    "not assignable",
		},
	}
	for _, tt := range tests {
		t.Run(tt.server.Name, func(t *testing.T) {
			requireServer(t, tt.server.Command[0])
			text := tt.line + "\n"
			if tt.file == "main.go" {
				text = "package main\n\nfunc main() {\n" + tt.line + "\n}\n"
			}
			tt.files[tt.file] = text
			dir := workspace(t, tt.files)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			c := startClient(ctx, t, tt.server, dir)
			path := filepath.Join(dir, tt.file)
			o := c.Update(ctx, []Doc{{Path: path}}, DefaultSettle)
			if o.Freshness != Fresh {
				t.Fatalf("outcome %+v", o)
			}
			prefix := tt.line[:strings.LastIndex(tt.line, "x")]
			wantCol := utf8.RuneCountInString(prefix) + 1
			wantLine := strings.Count(text[:strings.Index(text, tt.line)], "\n") + 1
			var found bool
			for _, d := range o.Files[path] {
				if strings.Contains(d.Message, tt.msg) {
					found = true
					if d.Line != wantLine || d.Column != wantCol {
						t.Errorf("%s: %d:%d, want %d:%d (UTF-16 would give %d, bytes %d); encoding %s",
							d.Message, d.Line, d.Column, wantLine, wantCol, wantCol+1, len(prefix)+1, c.encoding)
					}
				}
			}
			if !found {
				t.Fatalf("no diagnostic containing %q in %+v", tt.msg, o.Files[path])
			}
			t.Logf("%s negotiated %s; column %d", tt.server.Name, c.encoding, wantCol)
		})
	}
}
