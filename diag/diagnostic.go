package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity ranks a diagnostic. The zero value is invalid; the order is
// SeverityError (most severe) < SeverityWarning < SeverityInfo < SeverityHint,
// matching LSP 3.17 DiagnosticSeverity (1 = Error … 4 = Hint), so a Severity
// converts from the LSP number directly.
type Severity int

// Severities, numbered as LSP 3.17 DiagnosticSeverity.
const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
	SeverityInfo    Severity = 3
	SeverityHint    Severity = 4
)

// String returns the wire name: "error", "warning", "info" or "hint".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// Label returns the upper-case tag used in the lint block: ERROR, WARN, INFO
// or HINT.
func (s Severity) Label() string {
	switch s {
	case SeverityError:
		return "ERROR"
	case SeverityWarning:
		return "WARN"
	case SeverityInfo:
		return "INFO"
	case SeverityHint:
		return "HINT"
	}
	return "ERROR"
}

// AtLeast reports whether s is as severe as threshold or more (an error is at
// least a warning).
func (s Severity) AtLeast(threshold Severity) bool { return s >= SeverityError && s <= threshold }

// ParseSeverity parses a severity name as written in config and flags:
// "error", "warning" (or "warn"), "info" (or "information"), "hint";
// case-insensitive. Anything else is an error naming the input.
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error", "err":
		return SeverityError, nil
	case "warning", "warn":
		return SeverityWarning, nil
	case "info", "information":
		return SeverityInfo, nil
	case "hint":
		return SeverityHint, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning, info or hint)", s)
}

// MarshalText encodes the wire name (see String).
func (s Severity) MarshalText() ([]byte, error) {
	if s < SeverityError || s > SeverityHint {
		return nil, fmt.Errorf("invalid severity %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a name accepted by ParseSeverity.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Set implements flag.Value so a severity can be a command-line flag.
func (s *Severity) Set(v string) error { return s.UnmarshalText([]byte(v)) }

// Diagnostic is one problem in one file, as every checker reports it and as
// the wire protocol carries it (DESIGN.md "Socket and wire protocol").
//
// Path is absolute and cleaned. Line and Column are 1-based; Column counts
// Unicode code points from the start of the line. EndLine/EndColumn give the
// exclusive end in the same units, or 0 when the producer gave no end.
// Code is the checker's rule or error code ("ts2322", "UnusedVar", "E501"),
// empty when it has none. Source names the checker ("gopls", "json").
type Diagnostic struct {
	Path      string   `json:"path"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"end_line,omitempty"`
	EndColumn int      `json:"end_column,omitempty"`
	Severity  Severity `json:"severity"`
	Code      string   `json:"code,omitempty"`
	Source    string   `json:"source,omitempty"`
	Message   string   `json:"message"`
}

// Compare orders diagnostics by path, line, column, severity (errors first),
// then message, code and source, so sorting is total and deterministic.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Severity, b.Severity),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Source, b.Source),
	)
}

// key identifies a diagnostic for de-duplication: the same message at the
// same place from two checkers (a push and a pull of one server, or gopls and
// go vet) is one problem.
type key struct {
	path         string
	line, column int
	message      string
}

// SortDedupe sorts ds with Compare and removes duplicates: entries with the
// same path, line, column and message. Of duplicates the most severe is kept;
// among equals, the first in sorted order. It sorts ds in place and returns a
// prefix of it.
func SortDedupe(ds []Diagnostic) []Diagnostic {
	slices.SortStableFunc(ds, Compare)
	seen := make(map[key]bool, len(ds))
	out := ds[:0]
	for _, d := range ds {
		k := key{d.Path, d.Line, d.Column, strings.TrimSpace(d.Message)}
		if seen[k] {
			continue // sorted by severity within a place: the kept one is the most severe
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

// Filter returns the diagnostics in ds at threshold severity or above, in a new
// slice.
func Filter(ds []Diagnostic, threshold Severity) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if d.Severity.AtLeast(threshold) {
			out = append(out, d)
		}
	}
	return out
}

// Counts returns how many diagnostics in ds are errors and how many warnings.
func Counts(ds []Diagnostic) (errors, warnings int) {
	for _, d := range ds {
		switch d.Severity {
		case SeverityError:
			errors++
		case SeverityWarning:
			warnings++
		}
	}
	return errors, warnings
}
