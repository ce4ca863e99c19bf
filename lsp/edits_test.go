package lsp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestApplyEdits(t *testing.T) {
	edit := func(l1, c1, l2, c2 uint32, s string) TextEdit {
		return TextEdit{Range: Range{Start: Position{Line: l1, Character: c1}, End: Position{Line: l2, Character: c2}}, NewText: s}
	}
	for _, c := range []struct {
		name, text string
		enc        string
		edits      []TextEdit
		want       string
		err        string
	}{
		{"rename twice on a line", "a := f(x) + f(y)\n", EncodingUTF16, []TextEdit{edit(0, 12, 0, 13, "g"), edit(0, 5, 0, 6, "g")}, "a := g(x) + g(y)\n", ""},
		{"insert then replace at one place", "ab\n", EncodingUTF16, []TextEdit{edit(0, 1, 0, 1, "X"), edit(0, 1, 0, 2, "Y")}, "aXY\n", ""},
		{"emoji counts 2 in UTF-16", "s := \"😀\" + name\n", EncodingUTF16, []TextEdit{edit(0, 12, 0, 16, "who")}, "s := \"😀\" + who\n", ""},
		{"emoji counts 4 in UTF-8", "s := \"😀\" + name\n", EncodingUTF8, []TextEdit{edit(0, 14, 0, 18, "who")}, "s := \"😀\" + who\n", ""},
		{"emoji counts 1 in UTF-32", "s := \"😀\" + name\n", EncodingUTF32, []TextEdit{edit(0, 11, 0, 15, "who")}, "s := \"😀\" + who\n", ""},
		{"past the line's end is its end, before CRLF", "ab\r\ncd\r\n", EncodingUTF16, []TextEdit{edit(0, 99, 0, 99, "!")}, "ab!\r\ncd\r\n", ""},
		{"whole lines", "1\n2\n3\n", EncodingUTF16, []TextEdit{edit(1, 0, 2, 0, "")}, "1\n3\n", ""},
		{"append at the end", "x\n", EncodingUTF16, []TextEdit{edit(1, 0, 1, 0, "y\n")}, "x\ny\n", ""},
		{"line past the end", "x\n", EncodingUTF16, []TextEdit{edit(5, 0, 5, 0, "y")}, "", "past the last line"},
		{"overlap", "abcdef\n", EncodingUTF16, []TextEdit{edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 4, "y")}, "", "overlap"},
		{"end before start", "abc\n", EncodingUTF16, []TextEdit{edit(0, 2, 0, 1, "x")}, "", "before its start"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ApplyEdits([]byte(c.text), c.edits, c.enc)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("ApplyEdits = %q, %v; want an error with %q", got, err, c.err)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("ApplyEdits = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestDecodeWorkspaceEdit(t *testing.T) {
	for _, c := range []struct {
		name, raw string
		want      []string // kind uri [newUri] edits
		err       string
	}{
		{"null", `null`, nil, ""},
		{"changes sorted by URI", `{"changes":{"file:///b":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"x"}],"file:///a":[]}}`,
			[]string{"edit file:///a 0", "edit file:///b 1"}, ""},
		{"documentChanges win, in order", `{"changes":{"file:///z":[]},"documentChanges":[
			{"textDocument":{"uri":"file:///a","version":3},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"x","annotationId":"n"}]},
			{"kind":"rename","oldUri":"file:///a","newUri":"file:///b","options":{"overwrite":true}},
			{"kind":"create","uri":"file:///c"},{"kind":"delete","uri":"file:///d","options":{"recursive":true}}]}`,
			[]string{"edit file:///a 1", "rename file:///a file:///b 0", "create file:///c 0", "delete file:///d 0"}, ""},
		{"snippet edit", `{"documentChanges":[{"textDocument":{"uri":"file:///a"},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"snippet":{"kind":"snippet","value":"$0"}}]}]}`, nil, "not a TextEdit"},
		{"unknown kind", `{"documentChanges":[{"kind":"chmod","uri":"file:///a"}]}`, nil, "unknown kind"},
		{"item of no shape", `{"documentChanges":[{"uri":"file:///a"}]}`, nil, "neither"},
		{"not an object", `[1]`, nil, "decoding WorkspaceEdit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeWorkspaceEdit(json.RawMessage(c.raw))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("DecodeWorkspaceEdit = %v, %v; want an error with %q", got, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var s []string
			for _, fc := range got {
				d := fc.Kind + " " + fc.URI
				if fc.NewURI != "" {
					d += " " + fc.NewURI
				}
				s = append(s, d+" "+string(rune('0'+len(fc.Edits))))
			}
			if strings.Join(s, "|") != strings.Join(c.want, "|") {
				t.Fatalf("DecodeWorkspaceEdit = %v, want %v", s, c.want)
			}
		})
	}
}

// FuzzWorkspaceEdit: any WorkspaceEdit a server sends either decodes or
// fails with an error, and any decoded edit applies to any text or fails
// with an error: nothing panics, and an applied edit keeps the text outside
// its ranges.
func FuzzWorkspaceEdit(f *testing.F) {
	f.Add([]byte(`{"changes":{"file:///a":[{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}},"newText":"x"}]}}`), []byte("abc\n"), uint8(1))
	f.Add([]byte(`{"documentChanges":[{"textDocument":{"uri":"file:///a"},"edits":[{"range":{"start":{"line":1,"character":0},"end":{"line":0,"character":9}},"newText":""}]}]}`), []byte("a\r\nb😀\n"), uint8(0))
	f.Add([]byte(`{"documentChanges":[{"kind":"rename","oldUri":"file:///a","newUri":"file:///b"}]}`), []byte(""), uint8(2))
	f.Fuzz(func(t *testing.T, raw, text []byte, e uint8) {
		changes, err := DecodeWorkspaceEdit(raw)
		if err != nil {
			return
		}
		enc := []string{EncodingUTF8, EncodingUTF16, EncodingUTF32}[int(e)%3]
		for _, c := range changes {
			out, err := ApplyEdits(text, c.Edits, enc)
			if err != nil {
				if errors.Is(err, ErrOverlappingEdits) || strings.Contains(err.Error(), "position") || strings.Contains(err.Error(), "range end") {
					continue
				}
				t.Fatalf("ApplyEdits: unexpected error %v", err)
			}
			if len(c.Edits) == 0 && string(out) != string(text) {
				t.Fatalf("no edits changed %q into %q", text, out)
			}
		}
	})
}
