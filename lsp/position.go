package lsp

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/fileuri"
	"github.com/lsp-hook/lsp-hook/internal/safefile"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// Units. An LSP Position is (line, character), both 0-based, where character
// counts code units of the negotiated encoding: UTF-16 code units by default
// (a character outside the Basic Multilingual Plane, such as most emoji,
// counts 2), bytes for "utf-8", code points for "utf-32" (LSP 3.17
// "Position", "PositionEncodingKind"). A diag.Diagnostic is 1-based in both
// line and column, with the column in Unicode code points. Column and
// Character convert between the two on the line's text (without the text, a
// UTF-16 offset cannot be turned into characters), through diag's one
// converter (diag.ToCodePoints, diag.FromCodePoints: its rules for an offset
// inside a character, past the end of the line, or on invalid UTF-8);
// columnUnit names the diag.ColumnUnit an encoding counts in.
//
// Lines are split at "\n"; a "\r" before it belongs to the line ending, as
// the specification says for "\r\n".

// lineIndex gives fast access to the lines of a document.
type lineIndex struct {
	text   []byte
	starts []int // byte offset of each line's first byte
}

func newLineIndex(text []byte) *lineIndex {
	starts := []int{0}
	for i, b := range text {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{text: text, starts: starts}
}

// line returns the text of 0-based line n without its line ending, and false
// when the document has no such line.
func (x *lineIndex) line(n int) ([]byte, bool) {
	if n < 0 || n >= len(x.starts) {
		return nil, false
	}
	end := len(x.text)
	if n+1 < len(x.starts) {
		end = x.starts[n+1] - 1
	}
	l := x.text[x.starts[n]:end]
	return bytes.TrimSuffix(l, []byte("\r")), true
}

// columnUnit is the diag.ColumnUnit that position encoding enc counts:
// bytes for "utf-8", code points for "utf-32", UTF-16 code units for
// "utf-16" and anything else (the client settles on one of the three at
// initialize).
func columnUnit(enc string) diag.ColumnUnit {
	switch enc {
	case EncodingUTF8:
		return diag.UnitBytes
	case EncodingUTF32:
		return diag.UnitCodePoints
	}
	return diag.UnitUTF16
}

// Column returns the 1-based code-point column, as a diag.Diagnostic counts
// columns, of the 0-based offset character counted in encoding enc on line
// (its text without the line ending). An offset inside a character (a UTF-8
// continuation byte, a low surrogate) is that character; an offset past the
// end of the line is one past its last character (diag.ToCodePoints).
func Column(line []byte, character uint32, enc string) int {
	// No encoding counts more units than the line has bytes: an offset
	// beyond that is past the end whatever it is, and int(character)+1
	// cannot overflow.
	units := len(line)
	if int64(character) < int64(units) {
		units = int(character)
	}
	return diag.ToCodePoints(string(line), units+1, columnUnit(enc))
}

// Character returns the 0-based offset, in encoding enc, of the 1-based
// code-point column col on line (its text without the line ending): the
// Position.Character a server that negotiated enc expects. It is the
// inverse of Column; a column past the end of the line counts one unit per
// extra column, a column below 1 is the start of the line
// (diag.FromCodePoints).
func Character(line []byte, col int, enc string) uint32 {
	if col < 1 {
		return 0
	}
	return uint32(diag.FromCodePoints(string(line), col, columnUnit(enc)) - 1)
}

// recode converts p, whose character counts units of encoding from, into
// encoding to, on this text. A line the text does not have is left as is.
func (x *lineIndex) recode(p Position, from, to string) Position {
	if from == to {
		return p
	}
	l, ok := x.line(int(p.Line))
	if !ok {
		return p
	}
	return Position{Line: p.Line, Character: Character(l, Column(l, p.Character, from), to)}
}

// convert turns an LSP position into a 1-based line and code-point column.
// When the line is not in the text (the document changed since), the column
// is taken as if every unit were one character.
func (x *lineIndex) convert(p Position, enc string) (line, col int) {
	l, ok := x.line(int(p.Line))
	if !ok {
		return int(p.Line) + 1, int(p.Character) + 1
	}
	return int(p.Line) + 1, Column(l, p.Character, enc)
}

// pathToURI turns an absolute file path into a file:// URI, percent-encoded
// with net/url, a Windows drive as VS Code writes it ("file:///c%3A/x"):
// internal/fileuri, LSP 3.17 "URI".
func pathToURI(path string) string { return fileuri.FromPath(path) }

// uriToPath turns a file:// URI back into a cleaned absolute path, taking
// any spelling of a Windows drive ("file:///C:/x", "file:///c%3A/x").
func uriToPath(uri string) (string, error) {
	p, err := fileuri.ToPath(uri)
	if err != nil {
		return "", fmt.Errorf("document URI: %w", err)
	}
	return p, nil
}

// canonicalURI is the URI pathToURI gives for the file uri names, so that a
// server's spelling of it ("file:///C:/x" from gopls, "file:///c%3A/x"
// from servers built on vscode-uri; '@' escaped or not) finds the document
// we opened; a URI of no local file is left as it is.
func canonicalURI(uri string) string {
	if p, err := uriToPath(uri); err == nil {
		return pathToURI(p)
	}
	return uri
}

// convert maps wire diagnostics to diag.Diagnostic, using the text the
// server was sent for an open document, else the file on disk, to turn
// positions into 1-based code-point columns.
func (c *Client) convert(path, uri string, ds []Diagnostic) []diag.Diagnostic {
	out := make([]diag.Diagnostic, 0, len(ds))
	if len(ds) == 0 {
		return out
	}
	c.mu.Lock()
	var text []byte
	if doc, ok := c.docs[uri]; ok {
		text = doc.text
	}
	c.mu.Unlock()
	if text == nil {
		text, _ = readBounded(path, maxConvertRead)
	}
	idx := newLineIndex(text)
	indexes := map[string]*lineIndex{uri: idx}
	for _, d := range ds {
		msg, err := messageString(d.Message)
		if err != nil {
			c.log.Warn("dropping diagnostic", "path", path, "err", err)
			continue
		}
		code, err := diagCode(d)
		if err != nil {
			c.log.Warn("diagnostic code", "path", path, "err", err)
		}
		sev := diag.Severity(d.Severity)
		if sev < diag.SeverityError || sev > diag.SeverityHint {
			sev = diag.SeverityError // LSP 3.17: if omitted, it is up to the client; we treat it as an error
		}
		line, col := idx.convert(d.Range.Start, c.encoding)
		endLine, endCol := idx.convert(d.Range.End, c.encoding)
		source := d.Source
		if source == "" {
			source = c.server.Name
		}
		if len(d.RelatedInformation) > 0 {
			msg += c.relatedSuffix(d.RelatedInformation[0], indexes)
		}
		out = append(out, diag.Diagnostic{
			Path: path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
			Severity: sev, Code: code, Source: source, Message: msg,
		})
	}
	return out
}

// relatedSuffix renders a diagnostic's first related location as
// " (see REL:LINE:COL: MESSAGE)": REL is the path relative to the server's
// root (absolute outside it), LINE:COL 1-based in code points as any
// position, MESSAGE its first line, cut at 160 bytes. indexes caches the
// line index of each document read, by URI. A location that is not a file
// renders as "" (left out).
func (c *Client) relatedSuffix(ri DiagnosticRelatedInformation, indexes map[string]*lineIndex) string {
	path, err := uriToPath(ri.Location.URI)
	if err != nil {
		return ""
	}
	idx, ok := indexes[ri.Location.URI]
	if !ok {
		c.mu.Lock()
		var text []byte
		if doc, ok := c.docs[ri.Location.URI]; ok {
			text = doc.text
		}
		c.mu.Unlock()
		if text == nil {
			text, _ = readBounded(path, maxConvertRead)
		}
		idx = newLineIndex(text)
		indexes[ri.Location.URI] = idx
	}
	line, col := idx.convert(ri.Location.Range.Start, c.encoding)
	name := path
	if rel, ok := ws.Rel(c.root, path); ok && rel != "." {
		name = rel
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(ri.Message), "\n")
	if len(msg) > 160 {
		msg = strings.ToValidUTF8(msg[:160], "") + "…"
	}
	if msg == "" {
		return fmt.Sprintf(" (see %s:%d:%d)", name, line, col)
	}
	return fmt.Sprintf(" (see %s:%d:%d: %s)", name, line, col, msg)
}

// maxConvertRead bounds how much of an unopened file is read to convert
// positions (16 MiB); past it, columns fall back to one unit per character.
const maxConvertRead = 16 << 20

// readBounded reads the regular file at path (symlinks followed), when it
// holds at most max bytes. It refuses, before opening, anything but a
// regular file (a FIFO's open would wait for a writer forever, with the
// caller's locks held), and, before reading, a file on a kernel
// pseudo-filesystem or over max (safefile.ReadFollow); it reads from the
// file it checked.
func readBounded(path string, max int64) ([]byte, error) {
	b, err := safefile.ReadFollow(path, max)
	if err != nil {
		return nil, fmt.Errorf("reading %s for positions: %w", path, err)
	}
	return b, nil
}
