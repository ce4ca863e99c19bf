package parsers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/reviewdog/errorformat"

	"github.com/lsp-hook/lsp-hook/diag"
)

// efmMaxLine is the longest line github.com/reviewdog/errorformat reads:
// its Scanner uses a bufio.Scanner with the default buffer and stops
// silently at a longer line, so Errorformat's parser checks first.
const efmMaxLine = bufio.MaxScanTokenSize - 1

// Errorformat returns a Parser for output described by Vim 'errorformat'
// strings (`:help errorformat`), as github.com/reviewdog/errorformat
// implements them: %f file, %l line, %c column, %e/%k end line and column,
// %m message, %t type, %n number, multi-line %A/%C/%Z, %D/%X directory
// stacks, %-G to ignore lines. Each string is one alternative, tried in
// order. A string that does not compile is an error quoting it.
//
// The parser returns one diagnostic per valid entry, in output order. Path
// is as matched (%f, relative to where the tool ran, or to a %D directory);
// Line and Column are as matched, Column taken as bytes (0 when absent);
// EndLine and EndColumn are %e and %k. Severity comes from %t: e error, w
// warning, i and n (note) info, anything else or none an error. Code is %n
// when it is positive. Lines end with "\n" or "\r\n".
//
// Lines that match no string are skipped, as in Vim. A line longer than
// 64 KiB is an error naming it: the library cannot read it.
func Errorformat(efms []string) (Parser, error) {
	if len(efms) == 0 {
		return nil, errors.New("compiling errorformat: no format strings")
	}
	ef := &errorformat.Errorformat{}
	for _, s := range efms {
		e, err := compileEfm(s)
		if err != nil {
			return nil, fmt.Errorf("compiling errorformat %q: %w", s, err)
		}
		ef.Efms = append(ef.Efms, e)
	}
	return ParserFunc(func(r io.Reader) ([]diag.Diagnostic, error) {
		return parseErrorformat(ef, r)
	}), nil
}

// compileEfm compiles one errorformat string. The library indexes past
// the end of a string ending in "%" or "%*" and panics; that becomes an
// error here.
func compileEfm(s string) (e *errorformat.Efm, err error) {
	defer func() {
		if recover() != nil {
			e, err = nil, errors.New("format ends inside a % item")
		}
	}()
	return errorformat.NewEfm(s)
}

// parseErrorformat reads r with ef. The whole output is read first, line
// endings made "\n" and line lengths checked, then scanned.
func parseErrorformat(ef *errorformat.Errorformat, r io.Reader) ([]diag.Diagnostic, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading output: %w", err)
	}
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	n := 0
	for line := range bytes.Lines(b) {
		n++
		if len(bytes.TrimSuffix(line, []byte("\n"))) > efmMaxLine {
			return nil, fmt.Errorf("parsing errorformat output: line %d is %d bytes, longer than the %d errorformat reads", n, len(line), efmMaxLine)
		}
	}
	var ds []diag.Diagnostic
	s := ef.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		e := s.Entry()
		if !e.Valid {
			continue
		}
		d := diag.Diagnostic{
			Path:      e.Filename,
			Line:      e.Lnum,
			Column:    e.Col,
			EndLine:   e.EndLnum,
			EndColumn: e.EndCol,
			Severity:  efmSeverity(e.Type),
			Message:   e.Text,
		}
		if e.Nr > 0 {
			d.Code = strconv.Itoa(e.Nr)
		}
		ds = append(ds, d)
	}
	if err := checkToolPositions("errorformat", ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// efmSeverity maps an errorformat %t type letter to a severity.
func efmSeverity(t rune) diag.Severity {
	switch t {
	case 'w', 'W':
		return diag.SeverityWarning
	case 'i', 'I', 'n', 'N':
		return diag.SeverityInfo
	}
	return diag.SeverityError
}
