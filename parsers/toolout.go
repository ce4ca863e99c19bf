package parsers

// Helpers shared by the per-tool formats (ruff.go, eslint.go, pyright.go,
// mypy.go, cargo.go, cargoshort.go, shellcheck.go): reading a JSON document
// or lines strictly, checking positions, and sniffing samples.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lsp-hook/lsp-hook/diag"
)

// maxToolLine bounds one line of line-oriented output (JSON lines or text).
// A cargo JSON message carries its rendered text and the error code's whole
// explanation, so lines far over bufio.Scanner's 64 KiB default are normal;
// a line longer than this is an error, never a silent cut.
const maxToolLine = 16 << 20

// eachToolLine calls fn with every line of r, numbered from 1, without its
// line ending ("\n" or "\r\n"). fn's first error stops the scan and is
// returned with the format's name and the line number; so are a read error
// and a line longer than maxToolLine.
func eachToolLine(r io.Reader, format string, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxToolLine)
	n := 0
	for sc.Scan() {
		n++
		if err := fn(n, bytes.TrimSuffix(sc.Bytes(), []byte("\r"))); err != nil {
			return fmt.Errorf("parsing %s output: line %d: %w", format, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s output after line %d: %w", format, n, err)
	}
	return nil
}

// toolLineFunc classifies one line of line-oriented output: it returns the
// line's diagnostics (none for most lines), and known true when the line is
// one the format prints (a diagnostic, a summary, a progress line) rather
// than noise. An error stops the parse.
type toolLineFunc func(line []byte) (ds []diag.Diagnostic, known bool, err error)

// parseToolLines runs fn on every line of r and collects the diagnostics. A
// line fn does not know is skipped, so a tool's output mixed with other
// text still parses; but output with text and not one known line is an
// error naming format, so another tool's output or a crash report is not
// taken for a clean run. Empty output is no diagnostics. Positions are
// checked with checkToolPositions.
func parseToolLines(r io.Reader, format string, fn toolLineFunc) ([]diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	known := false
	var first []byte // the first non-blank line, for the error
	err := eachToolLine(r, format, func(_ int, line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		if first == nil {
			first = bytes.Clone(line[:min(len(line), 80)])
		}
		lds, ok, err := fn(line)
		if err != nil {
			return err
		}
		known = known || ok
		ds = append(ds, lds...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if first != nil && !known {
		return nil, fmt.Errorf("parsing %s output: no line is %s output (first line: %q)", format, format, first)
	}
	if err := checkToolPositions(format, ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// errNoToolOutput is what decodeToolJSON returns for output that is only
// white space: the tool printed nothing, which callers treat as no
// diagnostics.
var errNoToolOutput = errors.New("no output")

// decodeToolJSON decodes the one JSON document r holds into v. Output of
// only white space is errNoToolOutput; a truncated or malformed document, a
// shape v cannot hold, or anything but white space after the document is an
// error naming format.
func decodeToolJSON(r io.Reader, format string, v any) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading %s output: %w", format, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return errNoToolOutput
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("parsing %s output: %w", format, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("parsing %s output: data after the JSON document at byte %d", format, dec.InputOffset())
	}
	return nil
}

// checkToolPositions returns an error naming format when a diagnostic has a
// negative line or column: numbers a tool cannot have printed, or that
// overflowed while converting to 1-based.
func checkToolPositions(format string, ds []diag.Diagnostic) error {
	for _, d := range ds {
		if d.Line < 0 || d.Column < 0 || d.EndLine < 0 || d.EndColumn < 0 {
			return fmt.Errorf("parsing %s output: position out of range for %q at %s:%d:%d",
				format, d.Message, d.Path, d.Line, d.Column)
		}
	}
	return nil
}

// jsonSample returns sample without leading white space and UTF-8 byte
// order mark, for sniffing what a JSON document starts with.
func jsonSample(sample []byte) []byte {
	return bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(sample, " \t\r\n"), []byte("\ufeff")), " \t\r\n")
}

// containsAll reports whether sample contains every one of keys.
func containsAll(sample []byte, keys ...string) bool {
	for _, k := range keys {
		if !bytes.Contains(sample, []byte(k)) {
			return false
		}
	}
	return true
}
