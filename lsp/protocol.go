package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// This file holds the subset of LSP 3.17 wire types lsp-hook uses. Field
// names and shapes follow the specification
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/).

// Position is a zero-based line and a zero-based character offset counted in
// the units of the negotiated PositionEncodingKind (LSP 3.17 "Position").
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a half-open [Start, End) span (LSP 3.17 "Range").
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Diagnostic is LSP 3.17 "Diagnostic". Code is number | string and Message is
// string (or, from some servers, MarkupContent): both are kept raw and decoded
// by codeString and messageString.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  json.RawMessage `json:"message"`
	Tags     []int           `json:"tags,omitempty"`
	// RelatedInformation points at other places that explain the problem
	// ("other declaration of x"); LSP 3.17 "DiagnosticRelatedInformation".
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
	// Data is kept as the server sent it, to be sent back in a code
	// action request's context (commands.go): gopls carries its fixes in it.
	Data json.RawMessage `json:"data,omitempty"`
}

// Location is a range in a document (LSP 3.17 "Location").
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// DiagnosticRelatedInformation is LSP 3.17 "DiagnosticRelatedInformation":
// a location and a message about it.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// PublishDiagnosticsParams is the textDocument/publishDiagnostics payload;
// Version is absent (nil) when the server does not tie the push to a
// document version (LSP 3.17 "PublishDiagnostics Notification").
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// codeString decodes Diagnostic.code: integer | string, or absent. Any other
// shape is an error.
func codeString(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("decoding diagnostic code %s: want integer or string", raw)
}

// tsSource is the source typescript-language-server gives the diagnostics
// it relays from tsserver (lib/cli.mjs toDiagnostic: diagnostic.source ||
// 'typescript'), and tsserver.go gives the ones it pulls.
const tsSource = "typescript"

// diagCode returns d's code for display: codeString's, except that a
// TypeScript error number (a numeric code from source "typescript") is
// written "ts2322", as tsc's own "error TS2322" names it and DESIGN.md's
// lint block shows it, whether it was pushed or pulled from tsserver.
func diagCode(d Diagnostic) (string, error) {
	code, err := codeString(d.Code)
	if err != nil || code == "" || d.Source != tsSource {
		return code, err
	}
	if raw := bytes.TrimSpace(d.Code); raw[0] != '"' { // a number, not a string
		return "ts" + code, nil
	}
	return code, nil
}

// messageString decodes Diagnostic.message: a string, or a MarkupContent
// object {kind, value} as some servers send. Any other shape is an error.
func messageString(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var mc struct {
		Kind  string  `json:"kind"`
		Value *string `json:"value"`
	}
	if err := json.Unmarshal(raw, &mc); err == nil && mc.Value != nil {
		return *mc.Value, nil
	}
	return "", fmt.Errorf("decoding diagnostic message %.80s: want string or MarkupContent", raw)
}

// TextDocumentItem is LSP 3.17 "TextDocumentItem", sent in didOpen.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int32  `json:"version"`
	Text       string `json:"text"`
}

// VersionedTextDocumentIdentifier names a document at a version.
type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

type didOpenParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// fullChange is a TextDocumentContentChangeEvent without a range: the whole
// new text (we always send full text; LSP 3.17 allows it for any sync kind
// other than None).
type fullChange struct {
	Text string `json:"text"`
}

type didChangeParams struct {
	TextDocument   VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []fullChange                    `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

type didCloseParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// WorkspaceFolder is LSP 3.17 "WorkspaceFolder".
type WorkspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// Position encodings (LSP 3.17 "PositionEncodingKind").
const (
	EncodingUTF8  = "utf-8"
	EncodingUTF16 = "utf-16"
	EncodingUTF32 = "utf-32"
)

// serverCapabilities is the part of InitializeResult.capabilities we read.
// TextDocumentSync is TextDocumentSyncKind | TextDocumentSyncOptions;
// ExecuteCommandProvider is ExecuteCommandOptions {commands: string[]}
// (LSP 3.17 "Execute a command"), read to find tsserver.go's pull.
type serverCapabilities struct {
	PositionEncoding       string          `json:"positionEncoding"`
	TextDocumentSync       json.RawMessage `json:"textDocumentSync"`
	DiagnosticProvider     json.RawMessage `json:"diagnosticProvider"`
	ExecuteCommandProvider *struct {
		Commands []string `json:"commands"`
	} `json:"executeCommandProvider"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
}

// syncOptions decodes textDocumentSync: a bare TextDocumentSyncKind number
// (0 none, 1 full, 2 incremental), or TextDocumentSyncOptions. It reports
// whether the server wants didOpen/didClose, didChange, and didSave (with
// text or not).
func (c serverCapabilities) syncOptions() (openClose, change, save, saveText bool, err error) {
	raw := c.TextDocumentSync
	if len(raw) == 0 || string(raw) == "null" {
		return false, false, false, false, nil
	}
	var kind int
	if json.Unmarshal(raw, &kind) == nil {
		return kind > 0, kind > 0, false, false, nil
	}
	var o struct {
		OpenClose bool            `json:"openClose"`
		Change    int             `json:"change"`
		Save      json.RawMessage `json:"save"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return false, false, false, false, fmt.Errorf("decoding textDocumentSync %.80s: %w", raw, err)
	}
	switch s := string(o.Save); {
	case s == "" || s == "null" || s == "false":
	case s == "true":
		save = true
	default:
		var so struct {
			IncludeText bool `json:"includeText"`
		}
		if err := json.Unmarshal(o.Save, &so); err != nil {
			return false, false, false, false, fmt.Errorf("decoding textDocumentSync.save %.80s: %w", o.Save, err)
		}
		save, saveText = true, so.IncludeText
	}
	return o.OpenClose, o.Change > 0, save, saveText, nil
}

// fileEventWire is LSP 3.17 "FileEvent": a changed file's URI and its
// FileChangeType.
type fileEventWire struct {
	URI  string         `json:"uri"`
	Type FileChangeType `json:"type"`
}

// didChangeWatchedFilesParams is LSP 3.17 "DidChangeWatchedFilesParams".
type didChangeWatchedFilesParams struct {
	Changes []fileEventWire `json:"changes"`
}
