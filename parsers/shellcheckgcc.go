package parsers

import (
	"fmt"
	"io"
	"strconv"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatShellcheckGcc is the shellcheck-gcc format (formats, parser.go).
var formatShellcheckGcc = Format{
	Name:     "shellcheck-gcc",
	Doc:      "shellcheck -f gcc",
	Unit:     diag.UnitCodePoints,
	Parser:   ParserFunc(ParseShellCheckGCC),
	Detect:   detectShellCheckGCC,
	Priority: 40,
}

// shellCheckGCCLine matches one line of `shellcheck -f gcc`
// (ShellCheck/Formatter/GCC.hs): file:line:col: severity: message [SCcode].
var shellCheckGCCLine = lazyre.New(`^(.+?):(\d+):(\d+): (error|warning|note): (.*) \[(SC\d+)\]$`)

// ParseShellCheckGCC reads the output of `shellcheck -f gcc`, one line per
// comment:
//
//	src/script.sh:3:5: note: Double quote to prevent globbing and word splitting. [SC2086]
//
// Line and column are 1-based; the column counts characters, a tab counting
// 1 (diag.UnitCodePoints; checked with ShellCheck 0.9.0). There is no end.
// The gcc formatter folds levels into three words: "error", "warning", and
// "note" for both info and style, so "note" maps to info. Code is the
// bracketed "SC2086".
//
// Lines of another shape are skipped, but output with text and no comment
// line is an error. Empty output (a clean run) is no diagnostics.
func ParseShellCheckGCC(r io.Reader) ([]diag.Diagnostic, error) {
	return parseToolLines(r, "shellcheck-gcc", func(line []byte) ([]diag.Diagnostic, bool, error) {
		m := shellCheckGCCLine().FindSubmatch(line)
		if m == nil {
			return nil, false, nil
		}
		ln, err1 := strconv.Atoi(string(m[2]))
		col, err2 := strconv.Atoi(string(m[3]))
		if err1 != nil || err2 != nil {
			return nil, false, fmt.Errorf("position out of range in %q", line)
		}
		sev := diag.SeverityInfo
		switch string(m[4]) {
		case "error":
			sev = diag.SeverityError
		case "warning":
			sev = diag.SeverityWarning
		}
		return []diag.Diagnostic{{
			Path:     string(m[1]),
			Line:     ln,
			Column:   col,
			Severity: sev,
			Code:     string(m[6]),
			Message:  string(m[5]),
		}}, true, nil
	})
}

// shellCheckGCCSniff finds a gcc-format comment line anywhere in a sample.
var shellCheckGCCSniff = lazyre.New(`(?m)^[^\s:][^:\n]*:\d+:\d+: (?:error|warning|note): .* \[SC\d+\]\r?$`)

// detectShellCheckGCC accepts a sample with a line ending in " [SCnnnn]".
func detectShellCheckGCC(sample []byte) bool {
	return shellCheckGCCSniff().Match(sample)
}
