package parsers

import (
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
)

// formatPyright is the pyright format (formats, parser.go).
var formatPyright = Format{
	Name:     "pyright",
	Doc:      "pyright --outputjson",
	Unit:     diag.UnitUTF16,
	Parser:   ParserFunc(ParsePyright),
	Detect:   detectPyright,
	Priority: 50,
}

// pyrightReport is the document `pyright --outputjson` prints (pyright's
// PyrightJsonResults, packages/pyright-internal/src/pyright.ts); version,
// time and summary are not decoded. GeneralDiagnostics is a pointer so a
// document without the key is told apart from an empty list.
type pyrightReport struct {
	GeneralDiagnostics *[]pyrightDiagnostic `json:"generalDiagnostics"`
}

// pyrightDiagnostic is PyrightJsonDiagnostic. Range is LSP's: 0-based lines
// and characters, characters in UTF-16 code units, end exclusive. pyright
// leaves it out when the range is empty at 0:0, its mark for a diagnostic
// about the whole file. Rule is absent for syntax errors and
// reveal_type's information.
type pyrightDiagnostic struct {
	File     string        `json:"file"`
	Severity string        `json:"severity"`
	Message  string        `json:"message"`
	Range    *pyrightRange `json:"range"`
	Rule     string        `json:"rule"`
}

type pyrightRange struct {
	Start pyrightPosition `json:"start"`
	End   pyrightPosition `json:"end"`
}

type pyrightPosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// ParsePyright reads the output of `pyright --outputjson`: {version, time,
// generalDiagnostics: [{file, severity, message, range{start{line,
// character}, end}, rule}], summary}. file is absolute.
// pyright's positions are 0-based with characters in UTF-16 code units; this
// parser adds 1 to lines and characters, so its output is 1-based in
// diag.UnitUTF16, end exclusive. A diagnostic without a range concerns the
// whole file and is reported at line 1 with no column.
//
// Severity "error", "warning" and "information" map to error, warning and
// info; any other severity is an error, as is a document without
// generalDiagnostics. Code is the rule ("reportAttributeAccessIssue"),
// empty for syntax errors. Empty output is no diagnostics.
func ParsePyright(r io.Reader) ([]diag.Diagnostic, error) {
	var in pyrightReport
	if err := decodeToolJSON(r, "pyright", &in); err == errNoToolOutput {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if in.GeneralDiagnostics == nil {
		return nil, fmt.Errorf("parsing pyright output: no generalDiagnostics in the JSON document")
	}
	ds := make([]diag.Diagnostic, 0, len(*in.GeneralDiagnostics))
	for _, pd := range *in.GeneralDiagnostics {
		d, err := pd.diagnostic()
		if err != nil {
			return nil, fmt.Errorf("parsing pyright output: %s: %w", pd.File, err)
		}
		ds = append(ds, d)
	}
	if err := checkToolPositions("pyright", ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// diagnostic converts one pyright diagnostic (see ParsePyright).
func (pd pyrightDiagnostic) diagnostic() (diag.Diagnostic, error) {
	d := diag.Diagnostic{Path: pd.File, Code: pd.Rule, Message: pd.Message, Line: 1}
	switch pd.Severity {
	case "error":
		d.Severity = diag.SeverityError
	case "warning":
		d.Severity = diag.SeverityWarning
	case "information":
		d.Severity = diag.SeverityInfo
	default:
		return d, fmt.Errorf("unknown severity %q for %q", pd.Severity, pd.Message)
	}
	if rg := pd.Range; rg != nil {
		d.Line, d.Column = rg.Start.Line+1, rg.Start.Character+1
		d.EndLine, d.EndColumn = rg.End.Line+1, rg.End.Character+1
	}
	return d, nil
}

// detectPyright accepts a JSON object with generalDiagnostics in the sample.
func detectPyright(sample []byte) bool {
	s := jsonSample(sample)
	return len(s) > 0 && s[0] == '{' && containsAll(s, `"generalDiagnostics"`)
}
