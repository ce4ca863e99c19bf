package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatGolangciLint is the golangci-lint format (formats, parser.go).
var formatGolangciLint = Format{
	Name:     "golangci-lint",
	Aliases:  []string{"golangci"},
	Doc:      "golangci-lint run --output.json.path stdout (v2) or --out-format json (v1)",
	Unit:     diag.UnitBytes,
	Parser:   ParserFunc(ParseGolangciLint),
	Detect:   detectGolangciLint,
	Priority: 50,
}

// golangciReport is golangci-lint's JSON report (pkg/printers/json.go,
// the same in v1 and v2): {"Issues": [...], "Report": {...}}. Report (the
// linters that ran) is not decoded. Issues must be present: a list, or
// null (a nil list, no issues).
type golangciReport struct {
	Issues json.RawMessage `json:"Issues"`
}

// golangciIssue is one issue (pkg/result/issue.go). SourceLines,
// Replacement, LineRange and the nolint fields are not decoded.
type golangciIssue struct {
	// FromLinter names the linter: "govet", "errcheck", "typecheck".
	FromLinter string
	// Text is the message; staticcheck's starts with its check ("SA4000: ").
	Text string
	// Severity is "" unless the config's severity section sets one; any
	// string is allowed there ("error", "warning", "info", or a code
	// climate word such as "major").
	Severity string
	Pos      struct {
		Filename string
		Line     int
		Column   int // 1-based bytes, 0 when the linter gave none
	}
}

// ParseGolangciLint reads golangci-lint's JSON report, as v2 prints it with
// `run --output.json.path stdout` and v1 with `run --out-format json`:
//
//	{"Issues":[{"FromLinter":"errcheck","Text":"…","Severity":"","Pos":{"Filename":"lint.go","Offset":357,"Line":16,"Column":14}}],"Report":{…}}
//
// Path is Pos.Filename, relative to the directory golangci-lint ran in;
// Line is 1-based and Column 1-based in bytes (0 when absent). Code is
// FromLinter. Severity is the issue's Severity when it names one
// (diag.ParseSeverity), else error.
//
// A "typecheck" issue (a package that does not compile) carries the
// compiler's output in Text, ": # pkg\npath:line:col: message", and a Pos
// at line 1 column 0 of the package's first file; each position line in
// the Text becomes the diagnostic instead, at its own position.
//
// Text before the report (log lines on a shared stderr) and after it (v2
// prints "5 issues:" and a per-linter count to stdout) is skipped. Output
// with no line starting with "{", a report that does not decode, one
// without Issues, or a negative position is an error. Empty output is no
// diagnostics.
func ParseGolangciLint(r io.Reader) ([]diag.Diagnostic, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading golangci-lint output: %w", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	report := jsonSample(b)
	if !bytes.HasPrefix(report, []byte("{")) {
		i := bytes.Index(b, []byte("\n{"))
		if i < 0 {
			line, _, _ := bytes.Cut(report, []byte("\n"))
			return nil, fmt.Errorf("parsing golangci-lint output: no JSON report (first line: %.80q)", line)
		}
		report = b[i+1:]
	}
	var rep golangciReport
	if err := json.NewDecoder(bytes.NewReader(report)).Decode(&rep); err != nil {
		return nil, fmt.Errorf("parsing golangci-lint output: %w", err)
	}
	if rep.Issues == nil {
		return nil, fmt.Errorf("parsing golangci-lint output: the report has no Issues")
	}
	var issues []golangciIssue
	if err := json.Unmarshal(rep.Issues, &issues); err != nil {
		return nil, fmt.Errorf("parsing golangci-lint output: Issues: %w", err)
	}
	var ds []diag.Diagnostic
	for _, is := range issues {
		ds = append(ds, is.diagnostics()...)
	}
	if err := checkToolPositions("golangci-lint", ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// diagnostics converts one issue: one diagnostic, or one per position line
// of a typecheck issue's Text.
func (is golangciIssue) diagnostics() []diag.Diagnostic {
	sev, err := diag.ParseSeverity(is.Severity)
	if err != nil {
		sev = diag.SeverityError
	}
	if is.FromLinter == "typecheck" {
		var g goLines
		g.text("", is.Text, sev)
		if ds := g.done(); len(ds) > 0 {
			for i := range ds {
				ds[i].Code = is.FromLinter
			}
			return ds
		}
	}
	return []diag.Diagnostic{{
		Path:     is.Pos.Filename,
		Line:     is.Pos.Line,
		Column:   is.Pos.Column,
		Severity: sev,
		Code:     is.FromLinter,
		Message:  is.Text,
	}}
}

// golangciSniff finds the start of golangci-lint's report: the Issues key
// first, then an issue's first key or the end of an empty list.
var golangciSniff = lazyre.New(`(?m)^\{"Issues":(?:\[\{"FromLinter":|\[\]|null)`)

// detectGolangciLint accepts a sample with the start of a report (see
// golangciSniff).
func detectGolangciLint(sample []byte) bool {
	return golangciSniff().Match(jsonSample(sample))
}
