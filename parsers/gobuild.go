package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// formatGoBuild is the go-build format (formats, parser.go).
var formatGoBuild = Format{
	Name:     "go-build",
	Doc:      "go build ./... (or go build -json, Go ≥ 1.24)",
	Unit:     diag.UnitBytes,
	Parser:   ParserFunc(ParseGoBuild),
	Detect:   detectGoBuild,
	Priority: 30,
}

// ParseGoBuild reads the output of `go build` (stdout and stderr together),
// plain or with -json (Go 1.24+). Plain output is the compiler's errors in
// blocks headed by the package:
//
//	# example.com/m/shop
//	./shop.go:15:13: not enough arguments in call to add
//		have (number)
//		want (int, int)
//	./shop.go:20:9: undefined: nom
//
// Path is as printed: relative to the directory go ran in ("./shop.go" when
// it ran in the package's directory). Line is 1-based, Column 1-based in
// bytes (0 when the line has none). A tab-indented line continues the
// message above it, joined with "\n" and keeping its tab, as gopls shows
// such messages. The compiler's closing "too many errors" line is skipped,
// and so are "# pkg" headers and other text. Every diagnostic is an error,
// without a Code.
//
// With -json, every line is a build event (cmd/go/internal/work.BuildEvent,
// `go help buildjson`): {"ImportPath", "Action", "Output"}. The Output of
// "build-output" events is read as plain output, each package's text
// separately so that interleaved packages keep their continuation lines;
// other events (build-fail, and `go test -json`'s test events) are skipped.
// Lines that are not JSON, such as go's own errors on stderr, are read as
// plain output. An event line that does not decode is an error.
//
// Output with text but no diagnostic, header or build event is an error.
func ParseGoBuild(r io.Reader) ([]diag.Diagnostic, error) {
	var g goLines
	known := false
	err := eachToolLine(r, "go-build", func(_ int, line []byte) error {
		if bytes.HasPrefix(line, []byte("{")) {
			var ev goBuildEvent
			if err := json.Unmarshal(line, &ev); err != nil {
				return fmt.Errorf("decoding build event: %w", err)
			}
			known = true
			if ev.Action == "build-output" {
				g.text(ev.ImportPath, ev.Output, diag.SeverityError)
			}
			return nil
		}
		known = g.line("", string(line), diag.SeverityError) || known
		return nil
	})
	if err != nil {
		return nil, err
	}
	return g.result("go-build", known)
}

// goBuildEvent is one line of `go build -json`: cmd/go's BuildEvent. Output
// is set for Action "build-output" and holds whole lines of text.
type goBuildEvent struct {
	ImportPath string
	Action     string
	Output     string
}

// goLines collects diagnostics from the text of Go tools: the compiler, go
// vet and the go command print "path:line:col: message" lines, "# pkg"
// headers, and tab-indented lines continuing the message above.
type goLines struct {
	ds []diag.Diagnostic
	// more holds the continuation lines of ds[i], joined to its message by
	// done (appending to the message line by line would be quadratic).
	more map[int][]string
	// last maps a stream (a package's build-output events, or "" for plain
	// text) to the index in ds of the diagnostic its next tab-indented line
	// continues; a stream is absent after a line that is not a diagnostic.
	last map[string]int
	// sawText records a non-blank line, for result's error on unknown output.
	sawText bool
}

// text reads every line of s, a piece of stream's output.
func (g *goLines) text(stream, s string, sev diag.Severity) {
	for l := range strings.Lines(s) {
		g.line(stream, strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r"), sev)
	}
}

// line reads one line of stream: a position line becomes a diagnostic of
// severity sev, a tab-indented line continues stream's last diagnostic. It
// reports whether the line is one Go tools print (a diagnostic, its
// continuation, "too many errors" or a "# pkg" header).
func (g *goLines) line(stream, s string, sev diag.Severity) bool {
	if strings.TrimSpace(s) == "" {
		delete(g.last, stream)
		return false
	}
	g.sawText = true
	if strings.HasPrefix(s, "\t") {
		i, ok := g.last[stream]
		if ok {
			if g.more == nil {
				g.more = map[int][]string{}
			}
			g.more[i] = append(g.more[i], s)
		}
		return ok
	}
	delete(g.last, stream)
	if strings.HasPrefix(s, "# ") {
		return true
	}
	p, ok := cutGoPosition(s)
	if !ok {
		return false
	}
	if p.rest == "too many errors" {
		return true
	}
	if g.last == nil {
		g.last = map[string]int{}
	}
	g.last[stream] = len(g.ds)
	g.ds = append(g.ds, diag.Diagnostic{Path: p.path, Line: p.line, Column: p.col, Severity: sev, Message: p.rest})
	return true
}

// done joins the continuation lines to their messages and returns the
// diagnostics.
func (g *goLines) done() []diag.Diagnostic {
	for i, lines := range g.more {
		g.ds[i].Message += "\n" + strings.Join(lines, "\n")
	}
	g.more = nil
	return g.ds
}

// result returns the diagnostics (see done), or an error naming format
// when there was text and known is false: no line was one the tool prints.
func (g *goLines) result(format string, known bool) ([]diag.Diagnostic, error) {
	if g.sawText && !known {
		return nil, fmt.Errorf("parsing %s output: no line is %s output", format, format)
	}
	return g.done(), nil
}

// goPosition is a "path:line:col: rest" line split by cutGoPosition.
type goPosition struct {
	path      string
	line, col int // col is 0 when the line had none
	rest      string
}

// cutGoPosition splits a line a Go tool prints for a position,
// "path:line:col: rest" or "path:line: rest" (token.Position.String, then
// ": "). The path is the text before the first colon, or the second after
// a Windows drive letter ("C:\x.go"); it must not start with white space.
// Line and column are at most 9 digits, so they never overflow.
func cutGoPosition(s string) (goPosition, bool) {
	i := strings.IndexByte(s, ':')
	if i == 1 && len(s) > 2 && (s[2] == '\\' || s[2] == '/') && ('a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		j := strings.IndexByte(s[2:], ':')
		if j < 0 {
			return goPosition{}, false
		}
		i = 2 + j
	}
	if i < 1 || s[0] == ' ' || s[0] == '\t' {
		return goPosition{}, false
	}
	line, n := goDigits(s[i+1:])
	after := s[i+1+n:]
	if n == 0 || !strings.HasPrefix(after, ":") {
		return goPosition{}, false
	}
	after = after[1:]
	col, m := goDigits(after)
	if m > 0 && strings.HasPrefix(after[m:], ":") {
		after = after[m+1:]
	} else {
		col = 0
	}
	if after != "" && after[0] != ' ' {
		return goPosition{}, false
	}
	return goPosition{path: s[:i], line: line, col: col, rest: strings.TrimPrefix(after, " ")}, true
}

// goDigits returns the decimal number s starts with and how many bytes
// it took: 0 bytes when s starts with no digit or with more than 9 digits.
func goDigits(s string) (int, int) {
	v, n := 0, 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		if n == 9 {
			return 0, 0
		}
		v = v*10 + int(s[n]-'0')
		n++
	}
	return v, n
}

// goBuildSniff finds what only go build prints: a build event line, a
// "# pkg" header followed by a .go position line, or a .go position line
// followed by a tab-indented continuation.
var goBuildSniff = lazyre.New(`(?m)^\{"ImportPath":"[^"]*","Action":"build-(?:output|fail)"` +
	`|^# \S+\r?\n[^\s:][^\n]*\.go:\d+:\d+: ` +
	`|^[^\s:][^\n]*\.go:\d+:\d+: [^\n]*\n\t\S`)

// detectGoBuild accepts a sample with a line only go build prints (see
// goBuildSniff).
func detectGoBuild(sample []byte) bool {
	return goBuildSniff().Match(sample)
}
