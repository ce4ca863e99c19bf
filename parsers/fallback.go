package parsers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// FallbackName is the last-resort format auto-detection falls back to.
const FallbackName = "fallback"

// formatFallback is the fallback format (FallbackName; formats, parser.go).
var formatFallback = Format{
	Name:   FallbackName,
	Doc:    "any output with path:line[:col] or path(line,col) positions; what auto uses when no format matches",
	Unit:   diag.UnitBytes,
	Parser: ParserFunc(ParseFallback),
}

// fallbackColon matches "path:line" or "path:line:col" where the path has
// no white space and ends in an extension (".go", ".test.ts"); an optional
// drive letter ("C:\x.c") comes first. The position starts the line or
// follows white space or an opening quote or bracket.
var fallbackColon = lazyre.New(`(?:^|[\s"'(\[<])((?:[A-Za-z]:)?[^\s:"'()\[\]<>]*\.[A-Za-z0-9]+):(\d{1,9})(?::(\d{1,9}))?`)

// fallbackParen matches "path(line,col)" (tsc, MSBuild, C#): the same path,
// then the line and column in parentheses.
var fallbackParen = lazyre.New(`(?:^|[\s"'\[<])((?:[A-Za-z]:)?[^\s:"'()\[\]<>]*\.[A-Za-z0-9]+)\((\d{1,9}),(\d{1,9})\)`)

// fallbackWord finds the words that decide a line's severity.
var fallbackWord = lazyre.New(`(?i)\b(errors?|fatal|warn\w*|note|info\w*)\b`)

// ParseFallback reads any tool's output as a last resort: every line with
// a position, "path:line[:col]" or "path(line,col)", is a diagnostic at
// the first such position on the line, the path as printed (it must have
// no white space and end in an extension). Line is 1-based, Column the
// tool's number, taken as bytes (0 when absent). The message is the text
// after the position, with leading ":", "-" and white space trimmed, or the
// whole line when nothing follows. Severity is guessed from the first
// telling word of the line: "error" or "fatal" an error, "warn…" a warning,
// "note" or "info…" info, none an error. There is no Code.
//
// Lines are read whole, however long. It never fails on any content; only
// an error reading r is returned.
func ParseFallback(r io.Reader) ([]diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			if d, ok := fallbackDiagnostic(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")); ok {
				ds = append(ds, d)
			}
		}
		if errors.Is(err, io.EOF) {
			return ds, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading output: %w", err)
		}
	}
}

// fallbackDiagnostic returns the diagnostic for line, if it has a position.
func fallbackDiagnostic(line string) (diag.Diagnostic, bool) {
	if !strings.ContainsAny(line, "0123456789") { // cheap: most lines have no position
		return diag.Diagnostic{}, false
	}
	m := fallbackColon().FindStringSubmatchIndex(line)
	if p := fallbackParen().FindStringSubmatchIndex(line); p != nil && (m == nil || p[2] < m[2]) {
		m = p
	}
	if m == nil {
		return diag.Diagnostic{}, false
	}
	d := diag.Diagnostic{Path: line[m[2]:m[3]], Severity: fallbackSeverity(line)}
	d.Line, _ = strconv.Atoi(line[m[4]:m[5]])
	if m[6] >= 0 {
		d.Column, _ = strconv.Atoi(line[m[6]:m[7]])
	}
	rest := line[m[1]:]
	if strings.HasPrefix(rest, ")") { // the closing parenthesis of "(path:1:2)"
		rest = rest[1:]
	}
	d.Message = strings.TrimLeft(rest, ": \t-")
	if d.Message == "" {
		d.Message = strings.TrimSpace(line)
	}
	return d, true
}

// fallbackSeverity guesses a line's severity from its first telling word.
func fallbackSeverity(line string) diag.Severity {
	w := strings.ToLower(fallbackWord().FindString(line))
	switch {
	case strings.HasPrefix(w, "warn"):
		return diag.SeverityWarning
	case w == "note" || strings.HasPrefix(w, "info"):
		return diag.SeverityInfo
	}
	return diag.SeverityError
}
