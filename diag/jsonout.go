package diag

import (
	"encoding/json"
	"io"
)

// JSONReport is the document WriteJSON writes (`--format json`):
//
//	{
//	  "files": [
//	    {"path": "/abs/root/main.go", "rel": "main.go", "diagnostics": [
//	      {"path": "/abs/root/main.go", "line": 12, "column": 5, "end_line": 12, "end_column": 6,
//	       "severity": "error", "code": "UndeclaredName", "source": "gopls", "message": "undefined: x"}
//	    ]}
//	  ],
//	  "errors": 1,
//	  "warnings": 0,
//	  "notes": ["gopls timed out after 3s"]
//	}
//
// Each diagnostic has the wire shape of Diagnostic (DESIGN.md "Socket and
// wire protocol"): line and column 1-based, column in characters (code
// points), end_line/end_column the exclusive end or left out when unknown,
// code and source left out when empty. files lists every file of the
// report in its order, including files checked clean (an empty
// "diagnostics" array); errors and warnings count the diagnostics of every
// file; notes is always an array. `lsp-hook parse json` reads this document
// back.
type JSONReport struct {
	Files    []FileDiagnostics `json:"files"`
	Errors   int               `json:"errors"`
	Warnings int               `json:"warnings"`
	Notes    []string          `json:"notes"`
}

// WriteJSON renders r as one indented JSONReport followed by a newline.
// Each diagnostic's path is its file's absolute path; a severity outside
// error…hint is written as "error".
func WriteJSON(w io.Writer, r Report) error {
	doc := JSONReport{Files: []FileDiagnostics{}, Notes: append([]string{}, r.Notes...)}
	for _, f := range r.files() {
		ds := make([]Diagnostic, len(f.diags))
		for i, d := range f.diags {
			if d.Path == "" {
				d.Path = f.path
			}
			ds[i] = d
		}
		e, wn := Counts(ds)
		doc.Errors += e
		doc.Warnings += wn
		doc.Files = append(doc.Files, FileDiagnostics{Path: f.path, Rel: f.rel, Diagnostics: ds})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return wrapWrite(FormatJSON, enc.Encode(doc))
}
