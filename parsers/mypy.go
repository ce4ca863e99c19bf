package parsers

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatMypy is the mypy format (formats, parser.go).
var formatMypy = Format{
	Name:     "mypy",
	Doc:      "mypy [--show-column-numbers [--show-error-end]] or mypy --output json",
	Unit:     diag.UnitBytes,
	Parser:   ParserFunc(ParseMypy),
	Detect:   detectMypy,
	Priority: 40,
}

// mypyTextLine matches one message of mypy's text output:
//
//	file:line: severity: message  [code]
//	file:line:col: …                       (--show-column-numbers)
//	file:line:col:endline:endcol: …        (--show-error-end)
//	file: severity: message                (no line: about the whole file)
//
// Groups: 1 file, 2 line, 3 column, 4 end line, 5 end column, 6 severity,
// 7 message, 8 code.
var mypyTextLine = lazyre.New(`^(.+?)(?::(\d+)(?::(\d+))?(?::(\d+):(\d+))?)?: (error|note): (.*?)(?:  \[([a-z][a-z0-9-]*)\])?$`)

// mypySummary matches the lines mypy ends its text output with.
var mypySummary = lazyre.New(`^(Found \d+ errors? in \d+ files?|Success: no issues found)`)

// mypyJSONLine is one line of `mypy --output json` (mypy ≥ 1.11,
// mypy/error_formatter.py JSONFormatter): line 1-based (-1 when unknown),
// column 0-based (-1 when unknown), end_line and end_column (0-based,
// exclusive; added after 1.11, absent before). A note attached to an error
// is folded into the error's hint.
type mypyJSONLine struct {
	File      string  `json:"file"`
	Line      int     `json:"line"`
	Column    int     `json:"column"`
	EndLine   *int    `json:"end_line"`
	EndColumn *int    `json:"end_column"`
	Message   string  `json:"message"`
	Hint      *string `json:"hint"`
	Code      *string `json:"code"`
	Severity  string  `json:"severity"`
}

// ParseMypy reads mypy's output, text or JSON lines, in any mix:
//
//   - text (the default): "file:line[:col[:endline:endcol]]: error|note:
//     message  [code]". Columns appear with --show-column-numbers and are
//     1-based; the end appears with --show-error-end and is inclusive, so
//     this parser adds 1 to make it exclusive. A note without a line (the
//     --show-error-context "In function" lines) is skipped; the "Found N
//     errors" and "Success" summaries are recognised and skipped.
//   - --output json (mypy ≥ 1.11): one JSON object per line, see
//     mypyJSONLine. Columns are 0-based and this parser adds 1; a hint is
//     appended to the message on a new line.
//
// mypy's columns are Python's ast col_offset: UTF-8 bytes, not characters
// (checked with mypy 1.0.1 on a line with non-ASCII text before the column),
// so the format's unit is diag.UnitBytes. Syntax errors ([syntax]) are the
// exception: mypy passes Python's SyntaxError offset through, which is in
// characters and one too high, so their column is dropped (reported as 0)
// rather than reported wrong.
//
// error maps to error and note to info. A message without a line concerns
// the whole file and is reported at line 1 with no column. Lines of another
// shape are skipped, but output with text and not one mypy line is an error,
// as is a malformed JSON line. Empty output is no diagnostics.
func ParseMypy(r io.Reader) ([]diag.Diagnostic, error) {
	return parseToolLines(r, "mypy", func(line []byte) ([]diag.Diagnostic, bool, error) {
		if len(line) > 0 && line[0] == '{' {
			d, err := mypyFromJSON(line)
			if err != nil {
				return nil, false, err
			}
			return []diag.Diagnostic{d}, true, nil
		}
		if mypySummary().Match(line) {
			return nil, true, nil
		}
		return mypyFromText(line)
	})
}

// mypyFromText converts one text line; it reports false for a line that is
// not mypy's.
func mypyFromText(line []byte) ([]diag.Diagnostic, bool, error) {
	m := mypyTextLine().FindSubmatch(line)
	if m == nil {
		return nil, false, nil
	}
	sev := diag.SeverityError
	if string(m[6]) == "note" {
		if m[2] == nil {
			return nil, true, nil // "file: note: In function …" context
		}
		sev = diag.SeverityInfo
	}
	var pos [4]int // line, column, end line, end column as printed; 0 when absent
	for i := range pos {
		if m[2+i] == nil {
			continue
		}
		n, err := strconv.Atoi(string(m[2+i]))
		if err != nil {
			return nil, false, fmt.Errorf("position out of range in %q", line)
		}
		pos[i] = n
	}
	d := diag.Diagnostic{
		Path:     string(m[1]),
		Line:     max(pos[0], 1),
		Column:   pos[1],
		Severity: sev,
		Code:     string(m[8]),
		Message:  string(m[7]),
	}
	if pos[2] > 0 {
		d.EndLine, d.EndColumn = pos[2], pos[3]+1 // printed end is inclusive
	}
	mypyDropSyntaxColumns(&d)
	return []diag.Diagnostic{d}, true, nil
}

// mypyFromJSON converts one --output json line.
func mypyFromJSON(line []byte) (diag.Diagnostic, error) {
	var j mypyJSONLine
	if err := json.Unmarshal(line, &j); err != nil {
		return diag.Diagnostic{}, err
	}
	d := diag.Diagnostic{Path: j.File, Line: 1, Message: j.Message}
	switch j.Severity {
	case "error":
		d.Severity = diag.SeverityError
	case "note":
		d.Severity = diag.SeverityInfo
	default:
		return d, fmt.Errorf("unknown severity %q for %q", j.Severity, j.Message)
	}
	if j.Code != nil {
		d.Code = *j.Code
	}
	if j.Hint != nil && *j.Hint != "" {
		d.Message += "\n" + *j.Hint
	}
	if j.Line >= 1 {
		d.Line = j.Line
		if j.Column >= 0 {
			d.Column = j.Column + 1
		}
		if j.EndLine != nil && j.EndColumn != nil && *j.EndLine >= 1 && *j.EndColumn >= 0 {
			d.EndLine, d.EndColumn = *j.EndLine, *j.EndColumn+1
		}
	}
	mypyDropSyntaxColumns(&d)
	return d, nil
}

// mypyDropSyntaxColumns clears the columns of a syntax error, which mypy
// reports in another unit and one too high (see ParseMypy).
func mypyDropSyntaxColumns(d *diag.Diagnostic) {
	if d.Code == "syntax" {
		d.Column, d.EndLine, d.EndColumn = 0, 0, 0
	}
}

// mypySniff finds a mypy line in a sample: a JSON line as json.dumps writes
// it, a text message ending in "  [code]", or a summary.
var mypySniff = lazyre.New(`(?m)^\{"file": .*"severity": "(?:error|note)"\}\r?$` +
	`|^[^\s:][^:\n]*:\d+(?::\d+){0,3}: (?:error|note): .*  \[[a-z][a-z0-9-]*\]\r?$` +
	`|^Found \d+ errors? in \d+ files? \(checked \d+ source files?\)` +
	`|^Success: no issues found in \d+ source files?`)

// detectMypy accepts a sample with a line only mypy prints (see mypySniff).
func detectMypy(sample []byte) bool {
	return mypySniff().Match(sample)
}
