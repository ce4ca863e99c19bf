package parsers

import (
	"bytes"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
)

// formatShellcheck is the shellcheck format (formats, parser.go).
var formatShellcheck = Format{
	Name:     "shellcheck",
	Doc:      "shellcheck -f json1",
	Unit:     diag.UnitCodePoints,
	Parser:   ParserFunc(ParseShellCheck),
	Detect:   detectShellCheck,
	Priority: 50,
}

// shellCheckReport is the document `shellcheck -f json1` prints
// (ShellCheck/Formatter/JSON1.hs); Comments is a pointer so a document
// without the key is told apart from a clean run's empty list.
type shellCheckReport struct {
	Comments *[]shellCheckComment `json:"comments"`
}

// shellCheckComment is one json1 comment. Line, EndLine, Column and
// EndColumn are 1-based, the end exclusive; columns count characters, a tab
// counting 1 ("Tabs are counted as 1 character", shellcheck(1), json1). The
// fix is not decoded.
type shellCheckComment struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	EndLine   int    `json:"endLine"`
	Column    int    `json:"column"`
	EndColumn int    `json:"endColumn"`
	Level     string `json:"level"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
}

// ParseShellCheck reads the output of `shellcheck -f json1`:
// {comments: [{file, line, endLine, column, endColumn, level, code, message,
// fix}]}. file is as given on shellcheck's command line. Positions are
// 1-based, end exclusive, columns in characters with a tab counting 1
// (diag.UnitCodePoints; checked with ShellCheck 0.9.0 on lines with tabs
// and non-ASCII text).
//
// Level "error", "warning", "info" and "style" map to error, warning, info
// and hint; Code is "SC" and the number ("SC2086"). An unknown level is an
// error. So is the legacy `-f json` output (a bare array), whose columns
// expand tabs to stops of 8 and cannot be mapped back without the file:
// the error says to use -f json1. Empty output is no diagnostics.
func ParseShellCheck(r io.Reader) ([]diag.Diagnostic, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading shellcheck output: %w", err)
	}
	if s := jsonSample(b); len(s) > 0 && s[0] == '[' {
		return nil, fmt.Errorf("parsing shellcheck output: a JSON array is `shellcheck -f json` output, whose columns count tabs as 8; run shellcheck -f json1")
	}
	var in shellCheckReport
	if err := decodeToolJSON(bytes.NewReader(b), "shellcheck", &in); err == errNoToolOutput {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if in.Comments == nil {
		return nil, fmt.Errorf("parsing shellcheck output: no comments in the JSON document")
	}
	ds := make([]diag.Diagnostic, 0, len(*in.Comments))
	for _, c := range *in.Comments {
		sev, err := shellCheckSeverity(c.Level)
		if err != nil {
			return nil, fmt.Errorf("parsing shellcheck output: %s:%d: %w", c.File, c.Line, err)
		}
		ds = append(ds, diag.Diagnostic{
			Path:      c.File,
			Line:      c.Line,
			Column:    c.Column,
			EndLine:   c.EndLine,
			EndColumn: c.EndColumn,
			Severity:  sev,
			Code:      fmt.Sprintf("SC%d", c.Code),
			Message:   c.Message,
		})
	}
	if err := checkToolPositions("shellcheck", ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// shellCheckSeverity maps a json1 level to a severity.
func shellCheckSeverity(level string) (diag.Severity, error) {
	switch level {
	case "error":
		return diag.SeverityError, nil
	case "warning":
		return diag.SeverityWarning, nil
	case "info":
		return diag.SeverityInfo, nil
	case "style":
		return diag.SeverityHint, nil
	}
	return 0, fmt.Errorf("unknown level %q", level)
}

// detectShellCheck accepts a JSON object whose first key is "comments":
// json1 output is compact and starts {"comments":[.
func detectShellCheck(sample []byte) bool {
	s := jsonSample(sample)
	if len(s) == 0 || s[0] != '{' {
		return false
	}
	s = bytes.TrimLeft(s[1:], " \t\r\n")
	return bytes.HasPrefix(s, []byte(`"comments"`))
}
