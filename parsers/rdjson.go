package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/lsp-hook/lsp-hook/diag"
)

// formatRdjson is the rdjson format (formats, parser.go).
var formatRdjson = Format{
	Name:     "rdjson",
	Doc:      "reviewdog rdjson: one DiagnosticResult JSON object (reviewdog -f=rdjson input)",
	Unit:     diag.UnitBytes,
	Parser:   ParserFunc(ParseRDJSON),
	Detect:   detectRDJSON,
	Priority: 55,
}

// formatRdjsonl is the rdjsonl format (formats, parser.go).
var formatRdjsonl = Format{
	Name:     "rdjsonl",
	Doc:      "reviewdog rdjsonl: one rdf Diagnostic JSON object per line (reviewdog -f=rdjsonl input, lsp-hook --format rdjsonl)",
	Unit:     diag.UnitBytes,
	Parser:   ParserFunc(ParseRDJSONL),
	Detect:   detectRDJSONL,
	Priority: 55,
}

// Reviewdog Diagnostic Format (reviewdog proto/rdf/reviewdog.proto), as
// protojson writes it: field names lowerCamelCase, int32 as a number or a
// decimal string, enums as their name or number.
type (
	rdfResult struct {
		Diagnostics []rdfDiagnostic `json:"diagnostics"`
		Source      *rdfSource      `json:"source"`
		Severity    rdfSeverity     `json:"severity"`
	}
	rdfDiagnostic struct {
		Message  *string `json:"message"`
		Location *struct {
			Path  string `json:"path"`
			Range *struct {
				Start *rdfPosition `json:"start"`
				End   *rdfPosition `json:"end"`
			} `json:"range"`
		} `json:"location"`
		Severity rdfSeverity `json:"severity"`
		Source   *rdfSource  `json:"source"`
		Code     *struct {
			Value string `json:"value"`
		} `json:"code"`
	}
	rdfSource struct {
		Name string `json:"name"`
	}
	rdfPosition struct {
		Line   rdfInt `json:"line"`
		Column rdfInt `json:"column"`
	}
)

// rdfInt is a protojson int32: a JSON number or a decimal string, ≥ 0 here.
type rdfInt int

// UnmarshalJSON decodes a number or a quoted number; anything else, or a
// negative value, is an error.
func (n *rdfInt) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*n = 0
		return nil
	}
	if len(b) > 1 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil || v < 0 {
		return fmt.Errorf("position %s is not a non-negative int32", b)
	}
	*n = rdfInt(v)
	return nil
}

// rdfSeverity is rdf's Severity enum, by name or number; 0 is
// UNKNOWN_SEVERITY.
type rdfSeverity int

// UnmarshalJSON decodes UNKNOWN_SEVERITY, ERROR, WARNING, INFO or 0–3.
func (s *rdfSeverity) UnmarshalJSON(b []byte) error {
	name := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &name); err != nil {
			return err
		}
	}
	switch name {
	case "null", "UNKNOWN_SEVERITY", "0":
		*s = 0
	case "ERROR", "1":
		*s = rdfSeverity(diag.SeverityError)
	case "WARNING", "2":
		*s = rdfSeverity(diag.SeverityWarning)
	case "INFO", "3":
		*s = rdfSeverity(diag.SeverityInfo)
	default:
		return fmt.Errorf("unknown severity %s (want ERROR, WARNING, INFO or UNKNOWN_SEVERITY)", b)
	}
	return nil
}

// ParseRDJSON reads reviewdog's rdjson: one DiagnosticResult object,
// {"source": {"name"}, "severity", "diagnostics": [Diagnostic…]}. Each
// Diagnostic converts as in ParseRDJSONL, a diagnostic without a source or
// severity taking the result's.
func ParseRDJSON(r io.Reader) ([]diag.Diagnostic, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading rdjson: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	var res rdfResult
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&res); err != nil {
		return nil, fmt.Errorf("parsing rdjson: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("parsing rdjson: data after the DiagnosticResult at byte %d", dec.InputOffset())
	}
	out := make([]diag.Diagnostic, 0, len(res.Diagnostics))
	for i, rd := range res.Diagnostics {
		if rd.Source == nil {
			rd.Source = res.Source
		}
		if rd.Severity == 0 {
			rd.Severity = res.Severity
		}
		d, err := rd.diagnostic()
		if err != nil {
			return nil, fmt.Errorf("parsing rdjson: diagnostic %d: %w", i, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// ParseRDJSONL reads reviewdog's rdjsonl: one rdf Diagnostic per line,
// {"message", "location": {"path", "range": {"start": {"line", "column"},
// "end": {…}}}, "severity", "source": {"name"}, "code": {"value"}}. Blank
// lines are skipped; a line that is not such an object is an error naming
// it.
//
// Path is location.path; Line and Column the range's start, EndLine and
// EndColumn its end (exclusive), 0 where absent. rdf columns are 1-based
// UTF-8 byte offsets. Severity ERROR, WARNING or INFO maps to error,
// warning or info; UNKNOWN_SEVERITY or none to error. Code is code.value,
// Source source.name. Suggestions and original output are not read.
func ParseRDJSONL(r io.Reader) ([]diag.Diagnostic, error) {
	var out []diag.Diagnostic
	err := rdjsonLines(r, func(n int, line []byte) error {
		var rd rdfDiagnostic
		if err := json.Unmarshal(line, &rd); err != nil {
			return fmt.Errorf("parsing rdjsonl line %d: %w", n, err)
		}
		d, err := rd.diagnostic()
		if err != nil {
			return fmt.Errorf("parsing rdjsonl line %d: %w", n, err)
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// diagnostic converts one rdf Diagnostic.
func (rd *rdfDiagnostic) diagnostic() (diag.Diagnostic, error) {
	var d diag.Diagnostic
	if rd.Message == nil {
		return d, fmt.Errorf("no message")
	}
	d.Message = *rd.Message
	d.Severity = diag.Severity(rd.Severity)
	if d.Severity == 0 {
		d.Severity = diag.SeverityError
	}
	if rd.Source != nil {
		d.Source = rd.Source.Name
	}
	if rd.Code != nil {
		d.Code = rd.Code.Value
	}
	if loc := rd.Location; loc != nil {
		d.Path = loc.Path
		if rg := loc.Range; rg != nil {
			if rg.Start != nil {
				d.Line, d.Column = int(rg.Start.Line), int(rg.Start.Column)
			}
			if rg.End != nil {
				d.EndLine, d.EndColumn = int(rg.End.Line), int(rg.End.Column)
			}
		}
	}
	return d, nil
}

// rdjsonLines calls fn with each non-blank line of r and its 1-based number.
func rdjsonLines(r io.Reader, fn func(n int, line []byte) error) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading rdjsonl: %w", err)
	}
	for n := 1; len(b) > 0; n++ {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return nil
}

// detectRDJSON accepts an object with "diagnostics" but neither "uri" (an
// LSP PublishDiagnosticsParams) nor "files" (lsp-hook's JSON).
func detectRDJSON(sample []byte) bool {
	open, keys := interchangeKeys(sample)
	return open == '{' && keys["diagnostics"] && !keys["uri"] && !keys["files"]
}

// detectRDJSONL accepts output whose first line is an object with
// "message" and "location".
func detectRDJSONL(sample []byte) bool {
	s := bytes.TrimLeft(sample, " \t\r\n")
	if i := bytes.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	open, keys := interchangeKeys(s)
	return open == '{' && keys["message"] && keys["location"]
}
