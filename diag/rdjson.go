package diag

import (
	"encoding/json"
	"io"
	"strings"
)

// rdjson wire types: the JSON (protojson) form of reviewdog's Reviewdog
// Diagnostic Format, proto/rdf/reviewdog.proto (message Diagnostic and the
// messages it holds).
type (
	rdDiagnostic struct {
		Message  string     `json:"message"`
		Location rdLocation `json:"location"`
		Severity string     `json:"severity,omitempty"`
		Source   *rdSource  `json:"source,omitempty"`
		Code     *rdCode    `json:"code,omitempty"`
	}
	rdLocation struct {
		Path  string   `json:"path"`
		Range *rdRange `json:"range,omitempty"`
	}
	rdRange struct {
		Start rdPosition  `json:"start"`
		End   *rdPosition `json:"end,omitempty"`
	}
	rdPosition struct {
		Line   int `json:"line,omitempty"`
		Column int `json:"column,omitempty"`
	}
	rdSource struct {
		Name string `json:"name"`
	}
	rdCode struct {
		Value string `json:"value"`
	}
	rdResult struct {
		Source      rdSource       `json:"source"`
		Diagnostics []rdDiagnostic `json:"diagnostics"`
	}
)

// WriteRDJSONL renders r as reviewdog's rdjsonl (`reviewdog -f=rdjsonl`):
// one JSON object per line, each an rdf Diagnostic
// (reviewdog proto/rdf/reviewdog.proto):
//
//	{"message":"undefined: x","location":{"path":"main.go","range":{"start":{"line":12,"column":5},"end":{"line":12,"column":6}}},"severity":"ERROR","source":{"name":"gopls"},"code":{"value":"UndeclaredName"}}
//
// path is relative to r.Root, slash-separated. rdf lines are 1-based and
// columns are 1-based UTF-8 byte offsets, so columns are converted from
// characters with the line's text from r.Text; without it (or past the end
// of the line) they are written as they are, which is exact for ASCII
// lines. The end is exclusive, as ours; unknown positions are left out.
// severity is ERROR, WARNING or INFO (hints are INFO); source and code are
// left out when empty. Notes have no place in rdf and are not written.
func WriteRDJSONL(w io.Writer, r Report) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, rd := range rdDiagnostics(r) {
		if err := enc.Encode(rd); err != nil {
			return wrapWrite(FormatRDJSONL, err)
		}
	}
	_, err := io.WriteString(w, b.String())
	return wrapWrite(FormatRDJSONL, err)
}

// WriteRDJSON renders r as reviewdog's rdjson (`reviewdog -f=rdjson`): one
// rdf DiagnosticResult (reviewdog proto/rdf/reviewdog.proto), indented,
// whose source names the tool (r.Tool, "lsp-hook" by default) and whose
// diagnostics are WriteRDJSONL's, in the same units:
//
//	{"source":{"name":"lsp-hook"},"diagnostics":[{"message":"undefined: x",…}]}
func WriteRDJSON(w io.Writer, r Report) error {
	res := rdResult{Source: rdSource{Name: r.toolName()}, Diagnostics: rdDiagnostics(r)}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return wrapWrite(FormatRDJSON, enc.Encode(res))
}

// rdDiagnostics converts every diagnostic of r, columns in UTF-8 bytes
// where r.Text has the line (see WriteRDJSONL); never nil.
func rdDiagnostics(r Report) []rdDiagnostic {
	out := []rdDiagnostic{}
	for _, f := range r.files() {
		text, haveText := r.text(f.path)
		for _, d := range f.diags {
			rd := rdjsonDiagnostic(f.rel, d)
			if haveText && rd.Location.Range != nil {
				rg := rd.Location.Range
				rg.Start.Column = bytesColumn(text, rg.Start.Line, rg.Start.Column)
				if rg.End != nil {
					rg.End.Column = bytesColumn(text, rg.End.Line, rg.End.Column)
				}
			}
			out = append(out, rd)
		}
	}
	return out
}

// rdjsonDiagnostic converts d, of the file at rel, with columns still in
// characters.
func rdjsonDiagnostic(rel string, d Diagnostic) rdDiagnostic {
	rd := rdDiagnostic{Message: d.Message, Location: rdLocation{Path: rel}}
	switch d.Severity {
	case SeverityError:
		rd.Severity = "ERROR"
	case SeverityWarning:
		rd.Severity = "WARNING"
	default:
		rd.Severity = "INFO"
	}
	if d.Source != "" {
		rd.Source = &rdSource{Name: d.Source}
	}
	if d.Code != "" {
		rd.Code = &rdCode{Value: d.Code}
	}
	if d.Line > 0 {
		rg := &rdRange{Start: rdPosition{Line: d.Line, Column: d.Column}}
		if d.EndLine > 0 {
			rg.End = &rdPosition{Line: d.EndLine, Column: d.EndColumn}
		}
		rd.Location.Range = rg
	}
	return rd
}

// bytesColumn converts the 1-based character column col of 1-based line n of
// text into a 1-based UTF-8 byte column. 0 stays 0; a line that text lacks
// keeps col.
func bytesColumn(text string, n, col int) int {
	if col < 1 {
		return col
	}
	line, ok := LineText(text, n)
	if !ok {
		return col
	}
	return FromCodePoints(line, col, UnitBytes)
}
