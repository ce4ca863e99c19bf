package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatCargo is the cargo format (registry, parser.go).
var formatCargo = Format{
	Name:     "cargo",
	Aliases:  []string{"clippy"},
	Doc:      "cargo check --message-format=json (or cargo clippy, cargo build, cargo test --no-run)",
	Unit:     diag.UnitCodePoints,
	Parser:   ParserFunc(ParseCargo),
	Detect:   detectCargo,
	Priority: 50,
}

// cargoLine is what ParseCargo first reads of a line of cargo's JSON
// messages (https://doc.rust-lang.org/cargo/reference/external-tools.html#json-messages).
// Only reason "compiler-message" carries a diagnostic, in its message;
// compiler-artifact, build-script-executed, build-finished and any reason
// cargo adds later are skipped. A line straight from rustc
// --error-format=json has no reason but "$message_type": "diagnostic", and
// is the diagnostic itself.
type cargoLine struct {
	Reason      string `json:"reason"`
	MessageType string `json:"$message_type"`
}

// cargoCompilerMessage is a line with reason "compiler-message".
type cargoCompilerMessage struct {
	Message *rustcDiagnostic `json:"message"`
}

// rustcDiagnostic is rustc's JSON diagnostic
// (https://doc.rust-lang.org/rustc/json.html); children and rendered text
// are not decoded.
type rustcDiagnostic struct {
	Message string      `json:"message"`
	Code    *rustcCode  `json:"code"`
	Level   string      `json:"level"`
	Spans   []rustcSpan `json:"spans"`
}

type rustcCode struct {
	Code string `json:"code"`
}

// rustcSpan is one span of a rustc diagnostic. file_name is relative to the
// workspace root cargo ran rustc in, or absolute for files outside it (the
// standard library's are under /rustc/<hash>/). Lines and columns are
// 1-based; columns count characters (rustc's CharPos), the end exclusive.
type rustcSpan struct {
	FileName    string          `json:"file_name"`
	LineStart   int             `json:"line_start"`
	LineEnd     int             `json:"line_end"`
	ColumnStart int             `json:"column_start"`
	ColumnEnd   int             `json:"column_end"`
	IsPrimary   bool            `json:"is_primary"`
	Label       *string         `json:"label"`
	Expansion   *rustcExpansion `json:"expansion"`
}

// rustcExpansion says which macro call a span came from: Span is the call
// site.
type rustcExpansion struct {
	Span rustcSpan `json:"span"`
}

// rustcSummary matches the span-less messages rustc ends a crate with.
var rustcSummary = lazyre.New(`^(aborting due to |\d+ warnings? emitted$|For more information about)`)

// ParseCargo reads cargo's `--message-format=json` output (cargo check,
// clippy, build, test --no-run): JSON lines, of which those with reason
// "compiler-message" hold a rustc diagnostic; lines straight from `rustc
// --error-format=json` are read too. Lines that are not JSON (cargo's
// "Checking …" progress when stderr is mixed in) are skipped, but output
// with text and no JSON line, or a JSON line that does not decode, is an
// error.
//
// Each diagnostic is placed at its primary span (the first span when none is
// primary); a span inside a macro from outside the workspace (the standard
// library, "<…>" pseudo-files) is followed out to the macro's call site. Path
// is the span's file_name as printed: relative to the workspace root, not to
// the directory cargo ran in. Positions are 1-based, columns in characters
// (diag.UnitCodePoints; checked with rustc 1.95 on a line with non-ASCII
// text), end exclusive. The message is rustc's, followed by ": " and the
// primary span's label when it has one ("mismatched types: expected `i32`,
// found `&str`"), as --message-format=short prints it. Code is
// message.code.code ("E0308", "clippy::needless_return",
// "unused_variables").
//
// Level "error" (and "error: internal compiler error") maps to error,
// "warning" to warning, "note" to info and "help" to hint; an unknown level
// is an error. "failure-note" messages and span-less summaries ("aborting
// due to 2 previous errors", "3 warnings emitted") are skipped; another
// span-less message (a linker error) is kept with an empty Path and line 0.
// Cargo compiles a crate once per target (lib, lib test, bins), so the same
// diagnostic is printed more than once: identical diagnostics are kept once,
// in first-seen order. Empty output is no diagnostics.
func ParseCargo(r io.Reader) ([]diag.Diagnostic, error) {
	seen := map[diag.Diagnostic]bool{}
	return parseToolLines(r, "cargo", func(line []byte) ([]diag.Diagnostic, bool, error) {
		if !bytes.HasPrefix(line, []byte("{")) {
			return nil, false, nil
		}
		var cl cargoLine
		if err := json.Unmarshal(line, &cl); err != nil {
			return nil, false, err
		}
		rd, err := cl.rustc(line)
		if err != nil {
			return nil, false, err
		}
		if rd == nil {
			return nil, true, nil // an artifact, build-finished, …
		}
		d, ok, err := rd.diagnostic()
		if err != nil || !ok || seen[d] {
			return nil, true, err
		}
		seen[d] = true
		return []diag.Diagnostic{d}, true, nil
	})
}

// rustc decodes the rustc diagnostic line holds, or returns nil for a
// message without one (an artifact, build-finished).
func (cl cargoLine) rustc(line []byte) (*rustcDiagnostic, error) {
	switch {
	case cl.Reason == "compiler-message":
		var cm cargoCompilerMessage
		if err := json.Unmarshal(line, &cm); err != nil {
			return nil, err
		}
		if cm.Message == nil {
			return nil, fmt.Errorf("compiler-message without a message")
		}
		return cm.Message, nil
	case cl.Reason == "" && cl.MessageType == "diagnostic":
		rd := new(rustcDiagnostic)
		if err := json.Unmarshal(line, rd); err != nil {
			return nil, err
		}
		return rd, nil
	case cl.Reason != "" || cl.MessageType != "":
		return nil, nil
	}
	return nil, fmt.Errorf("JSON line has neither reason nor $message_type")
}

// diagnostic converts a rustc diagnostic (see ParseCargo); it reports false
// for the ones ParseCargo skips.
func (rd *rustcDiagnostic) diagnostic() (diag.Diagnostic, bool, error) {
	d := diag.Diagnostic{Message: rd.Message}
	switch {
	case rd.Level == "failure-note":
		return d, false, nil
	case rd.Level == "error" || strings.HasPrefix(rd.Level, "error:"):
		d.Severity = diag.SeverityError
	case rd.Level == "warning":
		d.Severity = diag.SeverityWarning
	case rd.Level == "note":
		d.Severity = diag.SeverityInfo
	case rd.Level == "help":
		d.Severity = diag.SeverityHint
	default:
		return d, false, fmt.Errorf("unknown level %q for %q", rd.Level, rd.Message)
	}
	if rd.Code != nil {
		d.Code = rd.Code.Code
	}
	if len(rd.Spans) == 0 {
		return d, !rustcSummary().MatchString(rd.Message), nil
	}
	sp := rd.Spans[0]
	for _, s := range rd.Spans {
		if s.IsPrimary {
			sp = s
			break
		}
	}
	if sp.Label != nil && *sp.Label != "" {
		d.Message += ": " + *sp.Label
	}
	for sp.Expansion != nil && rustcOutsideWorkspace(sp.FileName) {
		sp = sp.Expansion.Span
	}
	d.Path = sp.FileName
	d.Line, d.Column = sp.LineStart, sp.ColumnStart
	d.EndLine, d.EndColumn = sp.LineEnd, sp.ColumnEnd
	return d, true, nil
}

// rustcOutsideWorkspace reports whether a span's file is not the user's: a
// macro's pseudo-file ("<println macros>") or the standard library's source.
func rustcOutsideWorkspace(file string) bool {
	return strings.HasPrefix(file, "<") || strings.HasPrefix(file, "/rustc/")
}

// cargoSniff finds a cargo JSON message, or a rustc JSON diagnostic, at the
// start of a line in a sample.
var cargoSniff = lazyre.New(`(?m)^\{"(?:reason":"(?:compiler-message|compiler-artifact|build-script-executed|build-finished)"|\$message_type":"diagnostic")`)

// detectCargo accepts a sample with a line starting {"reason":"compiler-…"
// or the like (see cargoSniff).
func detectCargo(sample []byte) bool {
	return cargoSniff().Match(sample)
}
