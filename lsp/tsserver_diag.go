package lsp

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file turns tsserver's diagnostics (TypeScript
// src/server/protocol.ts "Diagnostic", as semanticDiagnosticsSync and its
// siblings return them without includeLinePosition) into LSP 3.17
// Diagnostics, as typescript-language-server's own toDiagnostic does
// (lib/cli.mjs), so that pulled and pushed diagnostics read alike:
//
//   - Positions: tsserver's {line, offset} are 1-based, offset in UTF-16
//     code units; the LSP Position is {line-1, offset-1} in UTF-16, recoded
//     into the negotiated encoding when the server chose another one.
//   - Severity by category: "error" 1, "warning" 2, "message" 3 (where
//     typescript-language-server says error), "suggestion" 4 (hint).
//   - Code: tsserver's error number, kept a number; source: tsserver's own
//     (a plugin's name) or "typescript", so diagCode shows it as "ts2322".
//   - Tags: reportsUnnecessary → Unnecessary (1), reportsDeprecated →
//     Deprecated (2).
//   - relatedInformation: the items with a span become
//     DiagnosticRelatedInformation {location: {uri, range}, message}.

// tsLocation is protocol.ts "Location": 1-based line, and 1-based offset in
// UTF-16 code units.
type tsLocation struct {
	Line   int `json:"line"`
	Offset int `json:"offset"`
}

// tsDiagnostic is protocol.ts "Diagnostic". start, end and text are
// required; reportsUnnecessary and reportsDeprecated are declared `{}` and
// sent as true.
type tsDiagnostic struct {
	Start              *tsLocation     `json:"start"`
	End                *tsLocation     `json:"end"`
	Text               *string         `json:"text"`
	Code               json.RawMessage `json:"code"`
	Category           string          `json:"category"`
	Source             string          `json:"source"`
	ReportsUnnecessary json.RawMessage `json:"reportsUnnecessary"`
	ReportsDeprecated  json.RawMessage `json:"reportsDeprecated"`
	RelatedInformation []struct {
		Message string `json:"message"`
		Span    *struct {
			File  string     `json:"file"`
			Start tsLocation `json:"start"`
			End   tsLocation `json:"end"`
		} `json:"span"`
	} `json:"relatedInformation"`
}

// tsSeverity maps a tsserver category (protocol.ts Diagnostic.category, the
// lower-cased name of TypeScript's DiagnosticCategory) to an LSP
// DiagnosticSeverity.
var tsSeverity = map[string]int{"error": 1, "warning": 2, "message": 3, "suggestion": 4}

// tsPosition converts a tsserver location to an LSP position in UTF-16. A
// line or offset an LSP Position cannot hold (over 2^32) is an error, not
// a position wrapped around to the top of the file.
func tsPosition(l tsLocation) (Position, error) {
	if l.Line < 1 || l.Offset < 1 || uint64(l.Line-1) > math.MaxUint32 || uint64(l.Offset-1) > math.MaxUint32 {
		return Position{}, fmt.Errorf("tsserver location %d:%d: want 1-based line and offset below 2^32", l.Line, l.Offset)
	}
	return Position{Line: uint32(l.Line - 1), Character: uint32(l.Offset - 1)}, nil
}

// tsRange converts a tsserver span into an LSP range in the client's
// encoding; idx indexes the text of the span's file, nil when nothing is to
// be recoded (the encoding is UTF-16, or the text is not at hand).
func (c *Client) tsRange(start, end tsLocation, idx *lineIndex) (Range, error) {
	s, err := tsPosition(start)
	if err != nil {
		return Range{}, err
	}
	e, err := tsPosition(end)
	if err != nil {
		return Range{}, err
	}
	if idx != nil {
		s, e = idx.recode(s, EncodingUTF16, c.encoding), idx.recode(e, EncodingUTF16, c.encoding)
	}
	return Range{Start: s, End: e}, nil
}

// tsToLSP converts the tsserver diagnostics of the document at path into
// LSP form. A diagnostic of a shape not described above is an error
// wrapping errTSUnsupported.
func (c *Client) tsToLSP(path string, ds []tsDiagnostic) ([]Diagnostic, error) {
	out := make([]Diagnostic, 0, len(ds))
	// Recoding needs each file's text: the text sent for an open document,
	// else the file on disk, read only inside the root.
	indexes := make(map[string]*lineIndex)
	index := func(p string) *lineIndex {
		if c.encoding == EncodingUTF16 {
			return nil
		}
		if rel, inside := ws.Rel(c.root, p); !inside || rel == "." {
			return nil
		}
		if idx, ok := indexes[p]; ok {
			return idx
		}
		text := c.docText(pathToURI(p))
		if text == nil {
			text, _ = readBounded(p, maxConvertRead)
		}
		indexes[p] = newLineIndex(text)
		return indexes[p]
	}
	for i, d := range ds {
		sev, ok := tsSeverity[d.Category]
		if d.Start == nil || d.End == nil || d.Text == nil || !ok {
			return nil, fmt.Errorf("%w: tsserver diagnostic %d of %s: want start, end, text and a known category, got category %q",
				errTSUnsupported, i, path, d.Category)
		}
		if _, err := codeString(d.Code); err != nil {
			return nil, fmt.Errorf("%w: tsserver diagnostic %d of %s: %v", errTSUnsupported, i, path, err)
		}
		r, err := c.tsRange(*d.Start, *d.End, index(path))
		if err != nil {
			return nil, fmt.Errorf("%w: tsserver diagnostic %d of %s: %v", errTSUnsupported, i, path, err)
		}
		msg, _ := json.Marshal(*d.Text)
		w := Diagnostic{Range: r, Severity: sev, Code: d.Code, Source: d.Source, Message: msg}
		if w.Source == "" {
			w.Source = tsSource
		}
		if present(d.ReportsUnnecessary) {
			w.Tags = append(w.Tags, 1)
		}
		if present(d.ReportsDeprecated) {
			w.Tags = append(w.Tags, 2)
		}
		for _, ri := range d.RelatedInformation {
			if ri.Span == nil || !filepath.IsAbs(ri.Span.File) {
				continue
			}
			rr, err := c.tsRange(ri.Span.Start, ri.Span.End, index(ri.Span.File))
			if err != nil {
				continue // a related location is an aside: drop it, keep the diagnostic
			}
			w.RelatedInformation = append(w.RelatedInformation, DiagnosticRelatedInformation{
				Location: Location{URI: pathToURI(ri.Span.File), Range: rr}, Message: ri.Message,
			})
		}
		out = append(out, w)
	}
	return out, nil
}

// present reports whether an optional JSON flag is set: present and
// neither false nor null.
func present(raw json.RawMessage) bool {
	s := string(raw)
	return s != "" && s != "false" && s != "null"
}

// docText returns the text last sent for the open document uri, or nil.
func (c *Client) docText(uri string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.docs[uri]; ok {
		return d.text
	}
	return nil
}
