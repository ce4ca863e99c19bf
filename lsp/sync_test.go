package lsp

import (
	"path/filepath"
	"testing"
)

// TestRelatedInformation: the first related location is appended to the
// message as " (see REL:LINE:COL: MESSAGE)", its column converted from
// UTF-16 with the related file's own text (CJK and an emoji before it).
func TestRelatedInformation(t *testing.T) {
	_, c := newPeer(t, map[string]any{"textDocumentSync": 1}, nil)
	c.encoding = EncodingUTF16
	other := writeDoc(t, c, "other.x", "// 日本😀 x\n") // x: UTF-16 offset 8, code-point column 8
	path := writeDoc(t, c, "a.x", "x redeclared\n")
	raw := []Diagnostic{{
		Range: Range{}, Severity: 1, Message: []byte(`"x redeclared in this block"`),
		RelatedInformation: []DiagnosticRelatedInformation{
			{Location: Location{URI: pathToURI(other), Range: Range{Start: Position{Line: 0, Character: 8}}}, Message: "other declaration of x\nsecond line"},
			{Location: Location{URI: pathToURI(path)}, Message: "ignored: only the first is shown"},
		},
	}, {
		Range: Range{}, Severity: 1, Message: []byte(`"not a file"`),
		RelatedInformation: []DiagnosticRelatedInformation{{Location: Location{URI: "untitled:1"}, Message: "m"}},
	}}
	ds := c.convert(path, pathToURI(path), raw)
	want := "x redeclared in this block (see " + filepath.Base(other) + ":1:8: other declaration of x)"
	if len(ds) != 2 || ds[0].Message != want || ds[1].Message != "not a file" {
		t.Fatalf("messages = %q, want %q", messages(ds), want)
	}
}
