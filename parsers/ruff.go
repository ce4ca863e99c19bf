package parsers

import (
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
)

// formatRuff is the ruff format (formats, parser.go).
var formatRuff = Format{
	Name:     "ruff",
	Doc:      "ruff check --output-format json",
	Unit:     diag.UnitCodePoints,
	Parser:   ParserFunc(ParseRuff),
	Detect:   detectRuff,
	Priority: 50,
}

// ruffDiagnostic is one element of `ruff check --output-format json`, as
// ruff's JSON renderer writes it (crates/ruff_db/src/diagnostic/render/json.rs,
// formerly crates/ruff_linter/src/message/json.rs). Fields this parser does
// not use (fix, url, noqa_row) are not decoded.
type ruffDiagnostic struct {
	// Cell is the 1-based notebook cell of a Jupyter notebook's diagnostic,
	// null for a plain file; when set, Location is relative to the cell.
	Cell *int `json:"cell"`
	// Code is the rule code ("F401"); null for syntax errors before ruff
	// 0.12, "invalid-syntax" since.
	Code *string `json:"code"`
	// Filename is the file as ruff names it; null or "" when ruff knows none.
	Filename *string `json:"filename"`
	// Location and EndLocation are 1-based rows and columns, columns in
	// characters, the end exclusive; null in preview mode when ruff knows no
	// position.
	Location    *ruffLocation `json:"location"`
	EndLocation *ruffLocation `json:"end_location"`
	Message     string        `json:"message"`
}

type ruffLocation struct {
	Row    int `json:"row"`
	Column int `json:"column"`
}

// ParseRuff reads the output of `ruff check --output-format json`: a JSON
// array of {cell, code, filename, location{row, column}, end_location, fix,
// message, noqa_row, url}. Rows and columns are 1-based; ruff counts columns
// in characters (its LineIndex::line_column uses PositionEncoding::Utf32),
// so the format's unit is diag.UnitCodePoints; the end is exclusive.
//
// ruff's JSON has no severity. Like ruff's own language server
// (crates/ruff_server/src/lint.rs, severity), syntax errors (code null,
// "invalid-syntax" or the old "E999"), F821 (undefined name) and E902 (I/O
// error) are errors and every other rule a warning.
//
// A diagnostic in a Jupyter notebook cell has a position relative to the
// cell, not to the .ipynb file; it is reported at the file's line 1 with no
// column, and the cell, line and column are kept in the message. A
// diagnostic without a location (preview mode) is reported the same way.
//
// Empty output is no diagnostics; anything but one JSON array of this shape
// is an error naming the format.
func ParseRuff(r io.Reader) ([]diag.Diagnostic, error) {
	var in []ruffDiagnostic
	if err := decodeToolJSON(r, "ruff", &in); err == errNoToolOutput {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if in == nil {
		return nil, fmt.Errorf("parsing ruff output: want a JSON array, got null")
	}
	ds := make([]diag.Diagnostic, 0, len(in))
	for _, rd := range in {
		ds = append(ds, rd.diagnostic())
	}
	if err := checkToolPositions("ruff", ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// diagnostic converts one ruff diagnostic (see ParseRuff).
func (rd ruffDiagnostic) diagnostic() diag.Diagnostic {
	d := diag.Diagnostic{Message: rd.Message, Severity: diag.SeverityWarning}
	if rd.Filename != nil {
		d.Path = *rd.Filename
	}
	if rd.Code != nil {
		d.Code = *rd.Code
	}
	switch d.Code {
	case "", "invalid-syntax", "E999", "F821", "E902":
		d.Severity = diag.SeverityError
	}
	switch {
	case rd.Location == nil:
		d.Line = 1
	case rd.Cell != nil:
		d.Line = 1
		d.Message = fmt.Sprintf("%s (notebook cell %d, line %d, column %d)",
			rd.Message, *rd.Cell, rd.Location.Row, rd.Location.Column)
	default:
		d.Line, d.Column = rd.Location.Row, rd.Location.Column
		if rd.EndLocation != nil {
			d.EndLine, d.EndColumn = rd.EndLocation.Row, rd.EndLocation.Column
		}
	}
	return d
}

// detectRuff accepts a JSON array with ruff's keys in the sample.
func detectRuff(sample []byte) bool {
	s := jsonSample(sample)
	return len(s) > 0 && s[0] == '[' && containsAll(s, `"filename"`, `"location"`, `"end_location"`, `"message"`)
}
