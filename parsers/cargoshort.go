package parsers

import (
	"fmt"
	"io"
	"strconv"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatCargoShort is the cargo-short format (registry, parser.go).
var formatCargoShort = Format{
	Name:     "cargo-short",
	Doc:      "cargo check --message-format=short (stderr; or cargo clippy, rustc --error-format=short)",
	Unit:     diag.UnitCodePoints,
	Parser:   ParserFunc(ParseCargoShort),
	Detect:   detectCargoShort,
	Priority: 40,
}

// cargoShortLine matches one rustc diagnostic in short form:
// file:line:col: level[code]: message. Groups: 1 file, 2 line, 3 column,
// 4 level, 5 code, 6 message.
var cargoShortLine = lazyre.New(`^(.+?):(\d+):(\d+): (error|warning|note|help)(?:\[([^\]]+)\])?: (.*)$`)

// cargoShortKnown matches the other lines cargo prints on stderr: progress
// ("   Checking x v0.1.0 (…)") and its own span-less messages ("error: could
// not compile `x`", "warning: `x` (lib) generated 2 warnings").
var cargoShortKnown = lazyre.New(`^\s+(Compiling|Checking|Finished|Fresh|Running|Blocking|Locking|Updating|Downloading|Downloaded|Adding|Documenting|Building)\b|^(error|warning)(\[[^\]]+\])?: `)

// cargoHumanArrow matches the " --> file:line:col" line under each
// diagnostic of rustc's default (human) format, which the short form never
// prints.
var cargoHumanArrow = lazyre.New(`^\s*--> .+:\d+:\d+$`)

// ParseCargoShort reads what cargo (check, clippy, build) prints on stderr
// with --message-format=short, one diagnostic per line:
//
//	src/lib.rs:3:37: error[E0308]: mismatched types: expected `i32`, found `&str`
//	src/lib.rs:8:5: warning: unneeded `return` statement
//
// Path is as printed, relative to the workspace root. Line and column are
// 1-based, the column in characters (diag.UnitCodePoints, as in cargo's JSON;
// checked with rustc 1.95); there is no end. Code is the bracketed error
// code; the short form prints none for lints, so warnings have no code.
// Levels map as in ParseCargo. rustc appends the primary label and help to
// the message, which is kept as printed.
//
// Cargo's progress and summary lines are recognised and skipped, as are
// span-less messages (a linker error): the short form gives them no
// position. Other lines are skipped too, but output with text and no line
// of cargo's is an error, and so is the human format (a " --> file:line:col"
// line), whose diagnostics this parser would otherwise miss. Identical diagnostics (one per target) are kept
// once. Empty output is no diagnostics.
func ParseCargoShort(r io.Reader) ([]diag.Diagnostic, error) {
	seen := map[diag.Diagnostic]bool{}
	return parseToolLines(r, "cargo-short", func(line []byte) ([]diag.Diagnostic, bool, error) {
		m := cargoShortLine().FindSubmatch(line)
		if m == nil {
			if cargoHumanArrow().Match(line) {
				return nil, false, fmt.Errorf("%q is rustc's human format; run cargo with --message-format=short", line)
			}
			return nil, cargoShortKnown().Match(line), nil
		}
		ln, err1 := strconv.Atoi(string(m[2]))
		col, err2 := strconv.Atoi(string(m[3]))
		if err1 != nil || err2 != nil {
			return nil, false, fmt.Errorf("position out of range in %q", line)
		}
		d := diag.Diagnostic{
			Path:    string(m[1]),
			Line:    ln,
			Column:  col,
			Code:    string(m[5]),
			Message: string(m[6]),
		}
		switch string(m[4]) {
		case "error":
			d.Severity = diag.SeverityError
		case "warning":
			d.Severity = diag.SeverityWarning
		case "note":
			d.Severity = diag.SeverityInfo
		case "help":
			d.Severity = diag.SeverityHint
		}
		if seen[d] {
			return nil, true, nil
		}
		seen[d] = true
		return []diag.Diagnostic{d}, true, nil
	})
}

// cargoShortSniff finds a short-form diagnostic on a .rs file in a sample.
var cargoShortSniff = lazyre.New(`(?m)^[^\s:][^:\n]*\.rs:\d+:\d+: (?:error|warning)(?:\[[A-Za-z0-9_:]+\])?: `)

// detectCargoShort accepts a sample with a line like
// "src/lib.rs:3:37: error[E0308]: …".
func detectCargoShort(sample []byte) bool {
	return cargoShortSniff().Match(sample)
}
