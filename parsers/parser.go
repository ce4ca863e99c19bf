package parsers

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Parser reads one tool's output and returns its diagnostics, in the order
// the tool printed them, with Path as printed, Line 1-based and Column
// 1-based in the format's ColumnUnit (0 when the tool gave no column).
// Output the parser does not recognise at all is an error naming the format
// and what was wrong; lines that are not diagnostics (summaries, progress)
// are skipped.
type Parser interface {
	Parse(r io.Reader) ([]diag.Diagnostic, error)
}

// ParserFunc adapts a function to Parser.
type ParserFunc func(r io.Reader) ([]diag.Diagnostic, error)

// Parse calls f(r).
func (f ParserFunc) Parse(r io.Reader) ([]diag.Diagnostic, error) { return f(r) }

// UnitsParser is a Parser whose format carries its column unit per
// diagnostic (SARIF's run.columnKind): ParseUnits returns, beside the
// diagnostics, the unit of each one's columns (same length).
type UnitsParser interface {
	Parser
	ParseUnits(r io.Reader) ([]diag.Diagnostic, []diag.ColumnUnit, error)
}

// Format describes one output format a Parser reads.
type Format struct {
	// Name is what config (`parser:`) and `lsp-hook parse FORMAT` call it:
	// "ruff", "go-vet", "sarif".
	Name string
	// Aliases are other accepted names ("golangci" for "golangci-lint").
	Aliases []string
	// Doc names the tool and the flag that produces this output, in one
	// line: "ruff check --output-format json".
	Doc string
	// Unit is what the format's columns count.
	Unit diag.ColumnUnit
	// Parser reads the format.
	Parser Parser
	// Detect reports whether sample (the first bytes of some output, at most
	// SniffLen) looks like this format; nil means never auto-detected.
	Detect func(sample []byte) bool
	// Priority orders detection: higher is tried first, so a specific
	// format (eslint JSON) wins over a generic one (a JSON array).
	Priority int
}

// SniffLen is how many leading bytes of output auto-detection looks at.
const SniffLen = 64 << 10

// formats are the formats Lookup knows besides auto, each defined in its
// own file; Priority, not this order, orders detection.
var formats = []*Format{
	&formatCargo,
	&formatCargoShort,
	&formatClang,
	&formatEslint,
	&formatFallback,
	&formatGcc,
	&formatGoBuild,
	&formatGoVet,
	&formatGolangciLint,
	&formatJSON,
	&formatLsp,
	&formatMypy,
	&formatPyright,
	&formatRdjson,
	&formatRdjsonl,
	&formatRuff,
	&formatSarif,
	&formatShellcheck,
	&formatShellcheckGcc,
	&formatTsc,
}

// registry maps every format's name and aliases to it (newRegistry).
var registry = newRegistry(formats)

// newRegistry maps the name and aliases of each of fs to it, built
// explicitly from the list rather than by init side effects (as
// reviewdog's parser.New is). A duplicate name is a programming error and
// panics at start-up.
func newRegistry(fs []*Format) map[string]*Format {
	r := make(map[string]*Format)
	for _, f := range fs {
		for _, n := range append([]string{f.Name}, f.Aliases...) {
			if _, dup := r[n]; dup {
				panic("parsers: format " + n + " defined twice")
			}
			r[n] = f
		}
	}
	return r
}

// Lookup returns the format called name (a Name or an alias), or an error
// naming the input and listing the known formats. "auto" is a format too:
// it detects the others (see Detect).
func Lookup(name string) (*Format, error) {
	if f, ok := registry[name]; ok {
		return f, nil
	}
	if name == Auto {
		return &autoFormat, nil
	}
	return nil, fmt.Errorf("unknown parser %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists every format's Name, sorted, plus "auto".
func Names() []string {
	var names []string
	for n, f := range registry {
		if n == f.Name {
			names = append(names, n)
		}
	}
	names = append(names, Auto)
	sort.Strings(names)
	return names
}

// Formats returns every registered format once, sorted by Name.
func Formats() []*Format {
	var out []*Format
	for n, f := range registry {
		if n == f.Name {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b *Format) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Auto is the name of the detecting format.
const Auto = "auto"

var autoFormat = Format{
	Name: Auto,
	Doc:  "detects the format from the output's first 64 KiB, then parses it",
}

// Detect returns the format output looks like: the highest-priority format
// whose Detect accepts the first SniffLen bytes (ties broken by name), or the
// fallback format when none does.
func Detect(output []byte) *Format {
	sample := output[:min(len(output), SniffLen)]
	var best *Format
	for _, f := range Formats() {
		if f.Detect == nil || !f.Detect(sample) {
			continue
		}
		if best == nil || f.Priority > best.Priority {
			best = f
		}
	}
	if best == nil {
		best = registry[FallbackName]
	}
	return best
}

// Read parses r with the format called name ("auto" detects it) and
// normalizes the result (Normalize): paths made absolute from dir, the
// directory the tool ran in, columns converted to code points from each
// diagnostic's unit, and Source set to source, or to the format's name when
// source is "". It returns the format that was used.
func Read(name string, r io.Reader, dir, source string) ([]diag.Diagnostic, *Format, error) {
	f, err := Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	if f.Name == Auto {
		out, err := io.ReadAll(r)
		if err != nil {
			return nil, nil, fmt.Errorf("reading output: %w", err)
		}
		f, r = Detect(out), bytes.NewReader(out)
	}
	if source == "" {
		source = f.Name
	}
	ds, err := ReadWith(f.Parser, f.Unit, r, dir, source)
	return ds, f, err
}

// ReadWith parses r with p and normalizes the result as Read does, taking
// unit for the columns unless p reports its own (UnitsParser).
func ReadWith(p Parser, unit diag.ColumnUnit, r io.Reader, dir, source string) ([]diag.Diagnostic, error) {
	up, ok := p.(UnitsParser)
	if !ok {
		ds, err := p.Parse(r)
		if err != nil {
			return nil, err
		}
		return Normalize(ds, dir, unit, source), nil
	}
	ds, units, err := up.ParseUnits(r)
	if err != nil {
		return nil, err
	}
	n := newNormalizer(dir, source)
	for i := range ds {
		n.normalize(&ds[i], units[i])
	}
	return ds, nil
}

// ParseAll reads all of r and parses it with the format called name ("auto"
// detects it). It returns the format that was used, so the caller knows the
// column unit for Normalize.
func ParseAll(name string, r io.Reader) ([]diag.Diagnostic, *Format, error) {
	f, err := Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	if f.Name != Auto {
		ds, err := f.Parser.Parse(r)
		return ds, f, err
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("reading output: %w", err)
	}
	f = Detect(out)
	ds, err := f.Parser.Parse(bytes.NewReader(out))
	return ds, f, err
}
