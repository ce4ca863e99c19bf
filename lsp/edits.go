package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
)

// This file decodes the edits a server proposes (a rename, a code action,
// a file rename's follow-ups: LSP 3.17 "WorkspaceEdit") and applies text
// edits to a document's text. Nothing here writes a file: the caller
// (`lsp-hook mcp`) shows the edits as a diff or writes them itself, through
// the same path as an agent's edit. Positions in a TextEdit are 0-based
// lines and characters counted in the server's negotiated encoding; they
// are turned into byte offsets of the text with Column and
// diag.FromCodePoints, the one converter.

// TextEdit is LSP 3.17 "TextEdit": replace Range (0-based, characters in
// the server's encoding) with NewText. An AnnotatedTextEdit's
// annotationId is accepted and ignored.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// FileChange kinds: the text edits of one document, or a resource
// operation (LSP 3.17 "CreateFile", "RenameFile", "DeleteFile").
const (
	ChangeEdit   = "edit"
	ChangeCreate = "create"
	ChangeRename = "rename"
	ChangeDelete = "delete"
)

// FileChange is one step of a WorkspaceEdit, applied in order: Kind is
// ChangeEdit (Edits for the document URI), ChangeCreate, ChangeDelete (URI)
// or ChangeRename (URI to NewURI). Overwrite and IgnoreIfExists are the
// create and rename options; IgnoreIfNotExists and Recursive the delete
// options.
type FileChange struct {
	Kind   string
	URI    string
	NewURI string
	Edits  []TextEdit
	// Options of a resource operation (LSP 3.17 "CreateFileOptions",
	// "RenameFileOptions", "DeleteFileOptions").
	Overwrite, IgnoreIfExists, IgnoreIfNotExists, Recursive bool
}

// DecodeWorkspaceEdit decodes LSP 3.17 "WorkspaceEdit": null (no edit), or
// an object with documentChanges (an array of TextDocumentEdit, CreateFile,
// RenameFile and DeleteFile, kept in order) or, without it, changes (a map
// of URI to TextEdit[], returned sorted by URI). documentChanges wins when
// both are there, as the specification says for a client that supports it.
// An item of another shape (a snippet edit, an unknown kind) is an error
// naming it: an edit half understood must not be half applied.
func DecodeWorkspaceEdit(raw json.RawMessage) ([]FileChange, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return nil, nil
	}
	var we struct {
		Changes         map[string]json.RawMessage `json:"changes"`
		DocumentChanges json.RawMessage            `json:"documentChanges"`
	}
	if err := json.Unmarshal(raw, &we); err != nil {
		return nil, fmt.Errorf("decoding WorkspaceEdit %.200s: %w", raw, err)
	}
	if s := strings.TrimSpace(string(we.DocumentChanges)); s != "" && s != "null" {
		var items []json.RawMessage
		if err := json.Unmarshal(we.DocumentChanges, &items); err != nil {
			return nil, fmt.Errorf("decoding WorkspaceEdit.documentChanges %.200s: %w", s, err)
		}
		out := make([]FileChange, 0, len(items))
		for _, it := range items {
			fc, err := decodeDocumentChange(it)
			if err != nil {
				return nil, err
			}
			out = append(out, fc)
		}
		return out, nil
	}
	uris := make([]string, 0, len(we.Changes))
	for u := range we.Changes {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	out := make([]FileChange, 0, len(uris))
	for _, u := range uris {
		edits, err := decodeTextEdits(we.Changes[u])
		if err != nil {
			return nil, fmt.Errorf("decoding WorkspaceEdit.changes[%s]: %w", u, err)
		}
		out = append(out, FileChange{Kind: ChangeEdit, URI: u, Edits: edits})
	}
	return out, nil
}

// decodeDocumentChange decodes one documentChanges item: a resource
// operation when it has "kind", else a TextDocumentEdit.
func decodeDocumentChange(raw json.RawMessage) (FileChange, error) {
	var it struct {
		Kind         *string `json:"kind"`
		URI          string  `json:"uri"`
		OldURI       string  `json:"oldUri"`
		NewURI       string  `json:"newUri"`
		TextDocument *struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Edits   json.RawMessage `json:"edits"`
		Options struct {
			Overwrite         bool `json:"overwrite"`
			IgnoreIfExists    bool `json:"ignoreIfExists"`
			IgnoreIfNotExists bool `json:"ignoreIfNotExists"`
			Recursive         bool `json:"recursive"`
		} `json:"options"`
	}
	if err := json.Unmarshal(raw, &it); err != nil {
		return FileChange{}, fmt.Errorf("decoding documentChanges item %.200s: %w", raw, err)
	}
	o := it.Options
	if it.Kind == nil {
		if it.TextDocument == nil || it.TextDocument.URI == "" {
			return FileChange{}, fmt.Errorf("documentChanges item %.200s is neither a TextDocumentEdit nor a resource operation", raw)
		}
		edits, err := decodeTextEdits(it.Edits)
		if err != nil {
			return FileChange{}, fmt.Errorf("decoding the edits of %s: %w", it.TextDocument.URI, err)
		}
		return FileChange{Kind: ChangeEdit, URI: it.TextDocument.URI, Edits: edits}, nil
	}
	fc := FileChange{Kind: *it.Kind, URI: it.URI, Overwrite: o.Overwrite, IgnoreIfExists: o.IgnoreIfExists,
		IgnoreIfNotExists: o.IgnoreIfNotExists, Recursive: o.Recursive}
	switch *it.Kind {
	case ChangeCreate, ChangeDelete:
		if it.URI == "" {
			return FileChange{}, fmt.Errorf("%s operation %.200s has no uri", *it.Kind, raw)
		}
	case ChangeRename:
		if it.OldURI == "" || it.NewURI == "" {
			return FileChange{}, fmt.Errorf("rename operation %.200s lacks oldUri or newUri", raw)
		}
		fc.URI, fc.NewURI = it.OldURI, it.NewURI
	default:
		return FileChange{}, fmt.Errorf("documentChanges item of unknown kind %q", *it.Kind)
	}
	return fc, nil
}

// decodeTextEdits decodes TextEdit[] (AnnotatedTextEdit included); a
// snippet edit or an item without range or newText is an error.
func decodeTextEdits(raw json.RawMessage) ([]TextEdit, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("decoding TextEdit[] %.200s: %w", raw, err)
	}
	out := make([]TextEdit, 0, len(items))
	for _, it := range items {
		if it["range"] == nil || it["newText"] == nil {
			b, _ := json.Marshal(it)
			return nil, fmt.Errorf("edit %.200s is not a TextEdit (a snippet edit, or range or newText missing)", b)
		}
		var e TextEdit
		if err := json.Unmarshal(it["range"], &e.Range); err != nil {
			return nil, fmt.Errorf("decoding a TextEdit's range %.200s: %w", it["range"], err)
		}
		if err := json.Unmarshal(it["newText"], &e.NewText); err != nil {
			return nil, fmt.Errorf("decoding a TextEdit's newText %.200s: %w", it["newText"], err)
		}
		out = append(out, e)
	}
	return out, nil
}

// ErrOverlappingEdits is ApplyEdits' refusal of two edits whose ranges
// overlap (LSP 3.17 "TextEdit": "text edits ranges must never overlap").
var ErrOverlappingEdits = errors.New("text edits overlap")

// ApplyEdits returns text with edits applied. Each range is in text as it
// is (before any edit), its characters counted in encoding enc; a
// character past the end of its line means the line's end, as LSP 3.17
// "Position" says. Edits at the same position apply in the order given.
// A line past the text's last line is an error naming it, and so are
// overlapping ranges (ErrOverlappingEdits) and a range whose end is before
// its start.
func ApplyEdits(text []byte, edits []TextEdit, enc string) ([]byte, error) {
	x := newLineIndex(text)
	type span struct {
		start, end int
		text       string
		order      int
	}
	spans := make([]span, 0, len(edits))
	for i, e := range edits {
		s, err := x.offset(e.Range.Start, enc)
		if err != nil {
			return nil, err
		}
		end, err := x.offset(e.Range.End, enc)
		if err != nil {
			return nil, err
		}
		if end < s {
			return nil, fmt.Errorf("edit %d: range end %d:%d is before its start %d:%d", i,
				e.Range.End.Line, e.Range.End.Character, e.Range.Start.Line, e.Range.Start.Character)
		}
		spans = append(spans, span{s, end, e.NewText, i})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
	var b bytes.Buffer
	at := 0
	for i, s := range spans {
		if s.start < at {
			return nil, fmt.Errorf("%w: edit %d starts inside edit %d", ErrOverlappingEdits, s.order, spans[i-1].order)
		}
		b.Write(text[at:s.start])
		b.WriteString(s.text)
		at = s.end
	}
	b.Write(text[at:])
	return b.Bytes(), nil
}

// offset returns the byte offset in the text of LSP position p, whose
// character counts units of enc; a character past the end of the line is
// the line's end (before "\r\n").
func (x *lineIndex) offset(p Position, enc string) (int, error) {
	l, ok := x.line(int(p.Line))
	if !ok {
		return 0, fmt.Errorf("position %d:%d is past the last line (%d lines)", p.Line, p.Character, len(x.starts))
	}
	col := Column(l, p.Character, enc)
	return x.starts[p.Line] + diag.FromCodePoints(string(l), col, diag.UnitBytes) - 1, nil
}
