package parsers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/fileuri"
)

// formatLsp is the lsp format (formats, parser.go).
var formatLsp = Format{
	Name:     "lsp",
	Doc:      "LSP 3.17 Diagnostic[] arrays, PublishDiagnosticsParams objects or publishDiagnostics notifications (a language server trace)",
	Unit:     diag.UnitUTF16,
	Parser:   ParserFunc(ParseLSP),
	Detect:   detectLSP,
	Priority: 55,
}

// ParseLSP reads diagnostics as language servers send them (LSP 3.17). The
// input is a sequence of JSON values (one, or one per line), each one of:
//
//   - a Diagnostic[] array (§3.17 "Diagnostic"), whose diagnostics have no
//     path;
//   - a PublishDiagnosticsParams object {uri, diagnostics}, or an array of
//     them;
//   - a JSON-RPC message: a "textDocument/publishDiagnostics" notification
//     contributes its params; any other message is skipped, so a recorded
//     trace can be read as it is;
//   - a full DocumentDiagnosticReport {kind: "full", items} (a pull
//     result), whose diagnostics have no path.
//
// A uri must be a file:// URI; Path is its path, decoded with net/url.
// range.start and range.end are 0-based lines and characters; they become
// 1-based Line/Column and EndLine/EndColumn (the end exclusive, as in LSP).
// Columns count UTF-16 code units, LSP's default position encoding.
// severity 1–4 maps to error…hint; an absent severity means error (LSP
// leaves it to the client; lsp-hook's own client does the same). code is a
// string or an integer; message a string or a MarkupContent {kind, value}.
// relatedInformation, tags and data are not read. Any other shape is an
// error naming what was found.
func ParseLSP(r io.Reader) ([]diag.Diagnostic, error) {
	dec := json.NewDecoder(r)
	var out []diag.Diagnostic
	for n := 1; ; n++ {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("parsing LSP JSON value %d: %w", n, err)
		}
		ds, err := lspValue(v)
		if err != nil {
			return nil, fmt.Errorf("parsing LSP JSON value %d: %w", n, err)
		}
		out = append(out, ds...)
	}
}

// lspValue converts one top-level JSON value (see ParseLSP).
func lspValue(v json.RawMessage) ([]diag.Diagnostic, error) {
	v = bytes.TrimSpace(v)
	if len(v) > 0 && v[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			return nil, err
		}
		var out []diag.Diagnostic
		for i, it := range items {
			ds, err := lspObject(it, false)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out = append(out, ds...)
		}
		return out, nil
	}
	return lspObject(v, true)
}

// lspMember is the union of the objects ParseLSP accepts, to tell them
// apart by the members present.
type lspMember struct {
	// Diagnostic
	Range *json.RawMessage `json:"range"`
	// PublishDiagnosticsParams
	URI         *string          `json:"uri"`
	Diagnostics *json.RawMessage `json:"diagnostics"`
	// JSON-RPC message
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	// DocumentDiagnosticReport
	Kind  string           `json:"kind"`
	Items *json.RawMessage `json:"items"`
}

// lspObject converts one object; top says it is a top-level value, where
// JSON-RPC messages and reports may appear.
func lspObject(v json.RawMessage, top bool) ([]diag.Diagnostic, error) {
	var m lspMember
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, fmt.Errorf("want an object: %w", err)
	}
	switch {
	case m.Range != nil:
		d, err := lspDiagnostic(v, "")
		if err != nil {
			return nil, err
		}
		return []diag.Diagnostic{d}, nil
	case m.URI != nil && m.Diagnostics != nil:
		return lspPublish(*m.URI, *m.Diagnostics)
	case top && m.JSONRPC != "":
		if m.Method != "textDocument/publishDiagnostics" {
			return nil, nil // another message of a trace
		}
		return lspObject(m.Params, false)
	case top && m.Kind == "full" && m.Items != nil:
		return lspDiagnostics(*m.Items, "")
	}
	return nil, errors.New("not an LSP Diagnostic, PublishDiagnosticsParams, publishDiagnostics notification or full diagnostic report")
}

// lspPublish converts PublishDiagnosticsParams.
func lspPublish(uri string, diagnostics json.RawMessage) ([]diag.Diagnostic, error) {
	if _, err := url.Parse(uri); err != nil {
		return nil, fmt.Errorf("parsing uri %q: %w", uri, err)
	}
	path, err := fileuri.ToPath(uri)
	if err != nil {
		return nil, fmt.Errorf("uri %q is not a file:// URI of a local file: %w", uri, err)
	}
	ds, err := lspDiagnostics(diagnostics, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", uri, err)
	}
	return ds, nil
}

// lspDiagnostics converts a Diagnostic[] of the file at path.
func lspDiagnostics(raw json.RawMessage, path string) ([]diag.Diagnostic, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("diagnostics: want an array: %w", err)
	}
	out := make([]diag.Diagnostic, 0, len(items))
	for i, it := range items {
		d, err := lspDiagnostic(it, path)
		if err != nil {
			return nil, fmt.Errorf("diagnostic %d: %w", i, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// lspWireDiagnostic is LSP 3.17 Diagnostic as far as ParseLSP reads it.
type lspWireDiagnostic struct {
	Range *struct {
		Start *lspPosition `json:"start"`
		End   *lspPosition `json:"end"`
	} `json:"range"`
	Severity *int            `json:"severity"`
	Code     json.RawMessage `json:"code"`
	Source   string          `json:"source"`
	Message  json.RawMessage `json:"message"`
}

// lspPosition is LSP Position: 0-based line and character (uinteger).
type lspPosition struct {
	Line      *uint32 `json:"line"`
	Character *uint32 `json:"character"`
}

// lspDiagnostic converts one Diagnostic of the file at path.
func lspDiagnostic(raw json.RawMessage, path string) (diag.Diagnostic, error) {
	var w lspWireDiagnostic
	d := diag.Diagnostic{Path: path, Severity: diag.SeverityError}
	if err := json.Unmarshal(raw, &w); err != nil {
		return d, err
	}
	if w.Range == nil || !w.Range.Start.valid() || !w.Range.End.valid() {
		return d, errors.New("range needs start and end, each with line and character")
	}
	d.Line, d.Column = int(*w.Range.Start.Line)+1, int(*w.Range.Start.Character)+1
	d.EndLine, d.EndColumn = int(*w.Range.End.Line)+1, int(*w.Range.End.Character)+1
	if w.Severity != nil {
		if *w.Severity < 1 || *w.Severity > 4 {
			return d, fmt.Errorf("severity %d is not 1–4", *w.Severity)
		}
		d.Severity = diag.Severity(*w.Severity)
	}
	d.Source = w.Source
	var err error
	if d.Code, err = lspCode(w.Code); err != nil {
		return d, err
	}
	d.Message, err = lspMessage(w.Message)
	return d, err
}

func (p *lspPosition) valid() bool { return p != nil && p.Line != nil && p.Character != nil }

// lspCode decodes Diagnostic.code: integer | string, or absent.
func lspCode(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		if _, err := n.Int64(); err == nil {
			return n.String(), nil
		}
	}
	return "", fmt.Errorf("code %s: want an integer or a string", raw)
}

// lspMessage decodes Diagnostic.message: a string, or a MarkupContent
// {kind, value} as some servers send.
func lspMessage(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var mc struct {
		Value *string `json:"value"`
	}
	if err := json.Unmarshal(raw, &mc); err == nil && mc.Value != nil {
		return *mc.Value, nil
	}
	return "", fmt.Errorf("message %.80s: want a string or a MarkupContent", raw)
}

// detectLSP accepts an array whose first element has "range" (an LSP
// Diagnostic, however much of it the sample holds) or "uri" and
// "diagnostics"; an object with "uri" and "diagnostics" or with "range" and
// "message"; and a JSON-RPC message (a trace).
func detectLSP(sample []byte) bool {
	open, keys := interchangeKeys(sample)
	switch open {
	case '[':
		return keys["range"] || keys["uri"] && keys["diagnostics"]
	case '{':
		return keys["uri"] && keys["diagnostics"] || keys["jsonrpc"] && (keys["method"] || keys["id"]) ||
			keys["range"] && keys["message"]
	}
	return false
}
