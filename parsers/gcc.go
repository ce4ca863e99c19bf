package parsers

import (
	"io"
	"strconv"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatGcc is the gcc format (formats, parser.go).
var formatGcc = Format{
	Name: "gcc",
	Doc: "gcc -fsyntax-only (display columns, gcc ≥ 11's default: a tab reaches the next multiple of 8; " +
		"also the generic file:line[:col]: severity: message form)",
	Unit:     diag.UnitDisplay,
	Parser:   ParserFunc(ParseGCC),
	Detect:   detectGCC,
	Priority: 20,
}

// formatClang is the clang format (formats, parser.go).
var formatClang = Format{
	Name:   "clang",
	Doc:    "clang -fsyntax-only, or gcc -fdiagnostics-column-unit=byte (byte columns)",
	Unit:   diag.UnitBytes,
	Parser: ParserFunc(ParseGCC),
}

// gccLine matches a diagnostic line of gcc or clang (gcc's
// diagnostic_build_prefix, clang's TextDiagnostic): path, line, optional
// column, kind, message. The path does not start with white space, which
// rules out source and caret lines, and has no colon but a Windows drive's.
var gccLine = lazyre.New(`^((?:[A-Za-z]:[\\/])?[^\s:][^:]*?):(\d{1,9})(?::(\d{1,9}))?: (fatal error|error|warning|note|remark): (.*)$`)

// gccToolLine matches a diagnostic without a position from the compiler
// driver or a pass ("cc1: warning: …", "clang: error: no such file or
// directory: 'x.c'", "collect2: error: ld returned 1 exit status").
var gccToolLine = lazyre.New(`^([A-Za-z][A-Za-z0-9_+-]*): (fatal error|error|warning|note): (.*)$`)

// gccFlag matches the option suffix of a message: a warning flag
// ("[-Wformat=]", "[-Werror,-Wint-conversion]", "[-Werror=format=]"), a
// remark ("[-Rpass=inline]"), or a clang-tidy check
// ("[readability-braces-around-statements]").
var gccFlag = lazyre.New(`\s\[((?:-[WR]|[a-z][a-z0-9]*-)[^\]\s]*)\]$`)

// ParseGCC reads gcc's or clang's diagnostics (stderr), one per line:
//
//	shapes.c:9:14: warning: initialization of ‘int’ from ‘const char *’ makes integer from pointer without a cast [-Wint-conversion]
//	./shapes.h:2:5: note: previous declaration is here
//	missing.c:2:10: fatal error: nowhere.h: No such file or directory
//
// Path is as printed (relative to the directory the compiler ran in when
// it was given relative paths). Line is 1-based, Column 1-based in bytes for
// clang and for gcc with -fdiagnostics-column-unit=byte; gcc 11 and later
// count display columns by default (a tab advances to the next multiple of
// 8, a wide character counts 2), which this format cannot convert. Column
// is 0 when absent.
//
// "error" and "fatal error" are errors, "warning" a warning, "note" and
// "remark" info. Code is the bracketed option at the end of the message,
// which is removed from it: the warning flag with -Werror taken out
// ("-Wint-conversion" from "[-Werror,-Wint-conversion]" or
// "[-Werror=int-conversion]"), or a clang-tidy check name. A driver's
// diagnostic without a position ("clang: error: …") has an empty Path.
//
// Everything else is skipped: "In file included from" and "In function"
// lines, source and caret lines, "N errors generated.". Output with text
// but no diagnostic line is an error.
func ParseGCC(r io.Reader) ([]diag.Diagnostic, error) {
	return parseToolLines(r, "gcc", func(line []byte) ([]diag.Diagnostic, bool, error) {
		s := string(line)
		if m := gccLine().FindStringSubmatch(s); m != nil {
			ln, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3]) // "" when absent: 0
			d := gccDiagnostic(m[4], m[5])
			d.Path, d.Line, d.Column = m[1], ln, col
			return []diag.Diagnostic{d}, true, nil
		}
		if m := gccToolLine().FindStringSubmatch(s); m != nil {
			return []diag.Diagnostic{gccDiagnostic(m[2], m[3])}, true, nil
		}
		return nil, false, nil
	})
}

// gccDiagnostic returns a diagnostic of kind ("error", "warning", …) with
// msg's option suffix as its Code.
func gccDiagnostic(kind, msg string) diag.Diagnostic {
	d := diag.Diagnostic{Severity: diag.SeverityInfo, Message: msg}
	switch kind {
	case "error", "fatal error":
		d.Severity = diag.SeverityError
	case "warning":
		d.Severity = diag.SeverityWarning
	}
	if m := gccFlag().FindStringSubmatchIndex(msg); m != nil {
		d.Message = msg[:m[0]]
		d.Code = gccCode(msg[m[2]:m[3]])
	}
	return d
}

// gccCode turns a bracketed option list into a code: "-Werror" and
// clang-tidy's "-warnings-as-errors" are dropped, "-Werror=x" becomes
// "-Wx", and what is left is joined with ",".
func gccCode(opts string) string {
	var kept []string
	for _, o := range strings.Split(opts, ",") {
		switch {
		case o == "-Werror" || o == "-warnings-as-errors":
		case strings.HasPrefix(o, "-Werror="):
			kept = append(kept, "-W"+strings.TrimPrefix(o, "-Werror="))
		default:
			kept = append(kept, o)
		}
	}
	if len(kept) == 0 {
		return opts
	}
	return strings.Join(kept, ",")
}

// gccSniff finds a gcc or clang diagnostic line with a position.
var gccSniff = lazyre.New(`(?m)^(?:[A-Za-z]:[\\/])?[^\s:][^:\n]*:\d+(?::\d+)?: (?:fatal error|error|warning|note|remark): `)

// detectGCC accepts a sample with a diagnostic line (see gccSniff).
func detectGCC(sample []byte) bool {
	return gccSniff().Match(sample)
}
