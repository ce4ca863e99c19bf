package parsers

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatTsc is the tsc format (formats, parser.go).
var formatTsc = Format{
	Name:     "tsc",
	Doc:      "tsc --noEmit --pretty false",
	Unit:     diag.UnitUTF16,
	Parser:   ParserFunc(ParseTSC),
	Detect:   detectTSC,
	Priority: 40,
}

// tscLine matches a diagnostic with a file (TypeScript's
// formatDiagnostic): path(line,col): category TSnnnn: message. The path is
// as long as it can be, so a path with parentheses still works.
var tscLine = lazyre.New(`^(.+)\((\d{1,9}),(\d{1,9})\): (error|warning|suggestion|message) TS(\d{1,9}): (.*)$`)

// tscGlobalLine matches a diagnostic without a file (a config or option
// error): category TSnnnn: message.
var tscGlobalLine = lazyre.New(`^(error|warning|suggestion|message) TS(\d{1,9}): (.*)$`)

// ParseTSC reads the output of `tsc --noEmit --pretty false` (TypeScript's
// formatDiagnostics), one diagnostic per line:
//
//	shapes.ts(7,45): error TS2322: Type 'number' is not assignable to type 'string'.
//	error TS5083: Cannot read file '/p/tsconfig.base.json'.
//
// A line indented by two spaces continues the message above (a message
// chain, deeper links indented further) and is joined to it with "\n",
// indentation kept, as ts.flattenDiagnosticMessageText writes it for the
// language server too. Path is as printed, relative to the directory tsc
// ran in; it is empty for a diagnostic without a file. Line is 1-based,
// Column 1-based in UTF-16 code units. Code is "ts" and the number
// ("ts2322"), as lsp writes tsserver's codes. Category error is an error,
// warning a warning, suggestion a hint, message info.
//
// Other lines (watch mode's timestamps, "Found N errors") are skipped;
// output with text but no diagnostic line is an error. Use --pretty false:
// pretty output has colors and source excerpts this format does not read.
func ParseTSC(r io.Reader) ([]diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	var chain []string // the last diagnostic's message lines, while it may continue
	flush := func() {
		if len(chain) > 1 {
			ds[len(ds)-1].Message = strings.Join(chain, "\n")
		}
		chain = nil
	}
	sawText := false
	err := eachToolLine(r, "tsc", func(_ int, b []byte) error {
		line := string(b)
		if strings.TrimSpace(line) != "" {
			sawText = true
		}
		if chain != nil && strings.HasPrefix(line, "  ") {
			chain = append(chain, line)
			return nil
		}
		flush()
		var d diag.Diagnostic
		if m := tscLine().FindStringSubmatch(line); m != nil {
			d = tscDiagnostic(m[4], m[5], m[6])
			d.Path = m[1]
			d.Line, _ = strconv.Atoi(m[2])
			d.Column, _ = strconv.Atoi(m[3])
		} else if m := tscGlobalLine().FindStringSubmatch(line); m != nil {
			d = tscDiagnostic(m[1], m[2], m[3])
		} else {
			return nil
		}
		ds = append(ds, d)
		chain = []string{d.Message}
		return nil
	})
	if err != nil {
		return nil, err
	}
	flush()
	if sawText && len(ds) == 0 {
		return nil, fmt.Errorf("parsing tsc output: no line is a tsc diagnostic (use --pretty false)")
	}
	return ds, nil
}

// tscDiagnostic returns a diagnostic of category with code number and
// message, without a position.
func tscDiagnostic(category, number, message string) diag.Diagnostic {
	sev := diag.SeverityError
	switch category {
	case "warning":
		sev = diag.SeverityWarning
	case "suggestion":
		sev = diag.SeverityHint
	case "message":
		sev = diag.SeverityInfo
	}
	return diag.Diagnostic{Severity: sev, Code: "ts" + number, Message: message}
}

// tscSniff finds a tsc diagnostic line, with a file or without.
var tscSniff = lazyre.New(`(?m)^(?:[^\s(][^\n]*\(\d+,\d+\): )?(?:error|warning) TS\d+: `)

// detectTSC accepts a sample with a tsc diagnostic line (see tscSniff).
func detectTSC(sample []byte) bool {
	return tscSniff().Match(sample)
}
