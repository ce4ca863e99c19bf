package parsers

import (
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
)

// formatEslint is the eslint format (registry, parser.go).
var formatEslint = Format{
	Name:     "eslint",
	Doc:      "eslint -f json (ESLint's built-in json formatter)",
	Unit:     diag.UnitUTF16,
	Parser:   ParserFunc(ParseESLint),
	Detect:   detectESLint,
	Priority: 50,
}

// eslintResult is one file's entry in `eslint -f json` output: ESLint's
// LintResult (https://eslint.org/docs/latest/integrate/nodejs-api#-lintresult-type);
// the counts, source and suppressedMessages are not decoded.
type eslintResult struct {
	FilePath string           `json:"filePath"`
	Messages *[]eslintMessage `json:"messages"`
}

// eslintMessage is ESLint's LintMessage. Line, Column, EndLine and EndColumn
// are 1-based, columns in UTF-16 code units (JavaScript string indexes), the
// end exclusive; all four are absent on a message about the whole file
// ("File ignored because of a matching ignore pattern").
type eslintMessage struct {
	RuleID    *string `json:"ruleId"`
	Severity  int     `json:"severity"`
	Fatal     bool    `json:"fatal"`
	Message   string  `json:"message"`
	Line      int     `json:"line"`
	Column    int     `json:"column"`
	EndLine   int     `json:"endLine"`
	EndColumn int     `json:"endColumn"`
}

// ParseESLint reads the output of `eslint -f json`: a JSON array of
// {filePath, messages: [{ruleId, severity, message, line, column, endLine,
// endColumn, fatal}], …}. filePath is absolute. Columns count UTF-16 code
// units (diag.UnitUTF16), 1-based, end exclusive.
//
// Severity 2 is an error and 1 a warning; a fatal message (a parse error,
// ruleId null) is an error whatever its severity. Code is the ruleId, empty
// when null. A message without a line concerns the whole file and is
// reported at line 1 with no column. A severity other than 1 or 2 is an
// error, as is any other shape; empty output is no diagnostics.
func ParseESLint(r io.Reader) ([]diag.Diagnostic, error) {
	var in []eslintResult
	if err := decodeToolJSON(r, "eslint", &in); err == errNoToolOutput {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if in == nil {
		return nil, fmt.Errorf("parsing eslint output: want a JSON array, got null")
	}
	var ds []diag.Diagnostic
	for i, res := range in {
		if res.Messages == nil {
			return nil, fmt.Errorf("parsing eslint output: result %d (%q) has no messages array", i, res.FilePath)
		}
		for _, m := range *res.Messages {
			d, err := m.diagnostic(res.FilePath)
			if err != nil {
				return nil, fmt.Errorf("parsing eslint output: %s: %w", res.FilePath, err)
			}
			ds = append(ds, d)
		}
	}
	if err := checkToolPositions("eslint", ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// diagnostic converts one ESLint message about path (see ParseESLint).
func (m eslintMessage) diagnostic(path string) (diag.Diagnostic, error) {
	d := diag.Diagnostic{
		Path:      path,
		Line:      m.Line,
		Column:    m.Column,
		EndLine:   m.EndLine,
		EndColumn: m.EndColumn,
		Message:   m.Message,
	}
	if m.RuleID != nil {
		d.Code = *m.RuleID
	}
	switch {
	case m.Fatal || m.Severity == 2:
		d.Severity = diag.SeverityError
	case m.Severity == 1:
		d.Severity = diag.SeverityWarning
	default:
		return d, fmt.Errorf("unknown severity %d for %q", m.Severity, m.Message)
	}
	if d.Line == 0 {
		d.Line, d.Column, d.EndLine, d.EndColumn = 1, 0, 0, 0
	}
	return d, nil
}

// detectESLint accepts a JSON array with LintResult's keys in the sample.
func detectESLint(sample []byte) bool {
	s := jsonSample(sample)
	return len(s) > 0 && s[0] == '[' && containsAll(s, `"filePath"`, `"messages"`)
}
