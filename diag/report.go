package diag

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
)

// OutputFormat names a way WriteReport renders a Report: the value of
// `lsp-hook diagnose --format` and `lsp-hook parse --format`. It implements
// flag.Value, so it can be a command-line flag directly.
type OutputFormat string

// Output formats. Each renderer's doc comment gives its exact shape.
const (
	// FormatLint is the lint block an agent sees (LintBlock), every file
	// listed as changed and no caps, then one "note: …" line per Report.Notes.
	FormatLint OutputFormat = "lint"
	// FormatText is one gcc-style line per diagnostic (see WriteText).
	FormatText OutputFormat = "text"
	// FormatJSON is one JSON object with the files, counts and notes (see
	// WriteJSON).
	FormatJSON OutputFormat = "json"
	// FormatSARIF is a SARIF 2.1.0 log for GitHub code scanning and other
	// SARIF consumers (see WriteSARIF).
	FormatSARIF OutputFormat = "sarif"
	// FormatGitHub is GitHub Actions workflow commands (::error …), which the
	// runner turns into annotations (see WriteGitHub).
	FormatGitHub OutputFormat = "github"
	// FormatRDJSONL is reviewdog's rdjsonl: one rdf Diagnostic JSON object
	// per line (see WriteRDJSONL).
	FormatRDJSONL OutputFormat = "rdjsonl"
	// FormatRDJSON is reviewdog's rdjson: one rdf DiagnosticResult (see
	// WriteRDJSON).
	FormatRDJSON OutputFormat = "rdjson"
)

// OutputFormats lists every output format, in the order help text shows them.
func OutputFormats() []OutputFormat {
	return []OutputFormat{FormatLint, FormatText, FormatJSON, FormatSARIF, FormatGitHub, FormatRDJSONL, FormatRDJSON}
}

// String returns the format's name.
func (f OutputFormat) String() string { return string(f) }

// Set implements flag.Value: it accepts a name from OutputFormats
// (case-insensitive) and otherwise returns an error naming the input and
// listing the valid names.
func (f *OutputFormat) Set(s string) error {
	v := OutputFormat(strings.ToLower(strings.TrimSpace(s)))
	for _, known := range OutputFormats() {
		if v == known {
			*f = v
			return nil
		}
	}
	return fmt.Errorf("unknown output format %q (want %s)", s, formatNames())
}

func formatNames() string {
	var names []string
	for _, f := range OutputFormats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// Tool describes the program that produced a report, for the formats that
// carry it (SARIF's tool.driver). Empty fields are left out, except Name,
// which defaults to "lsp-hook".
type Tool struct {
	Name           string // "lsp-hook"
	Version        string // "v0.4.1"
	InformationURI string // an absolute URL: the project's home page
}

// Report is everything a CI renderer needs: the diagnostics by file, where
// the workspace is, who produced them, and what went wrong along the way.
type Report struct {
	// Root is the absolute workspace root. Paths inside it are rendered
	// relative to it, slash-separated; paths outside it stay absolute.
	Root string
	// Files holds the diagnostics by file, in the order they are rendered.
	// Each file's diagnostics are sorted and de-duplicated (SortDedupe) on
	// a copy, and a severity outside error…hint is rendered as an error;
	// Files itself is not modified.
	Files []FileDiagnostics
	// Tool names the producer; see Tool.
	Tool Tool
	// Notes are problems that are not diagnostics, one sentence each:
	// "gopls timed out after 3s; its diagnostics are missing".
	Notes []string
	// Text, when set, returns the whole current text of the file at an
	// absolute path, and false when it is not available. The SARIF renderer
	// uses it for fingerprints and the rdjsonl renderer to turn code-point
	// columns into byte columns. It may be nil.
	Text func(path string) (string, bool)
	// AutomationID, when set, is the SARIF run's automationDetails.id
	// (SARIF 2.1.0 §3.17.4), "category/" or "category/run" as GitHub
	// code scanning reads it: "diagnose/1of4/" for shard 1 of 4, so
	// that each shard's upload keeps its own alerts.
	AutomationID string
}

// WriteReport renders r in format f to w. An unknown format is an error
// naming it; so is a failed write.
func WriteReport(w io.Writer, f OutputFormat, r Report) error {
	switch f {
	case FormatLint:
		return WriteLint(w, r)
	case FormatText:
		return WriteText(w, r)
	case FormatJSON:
		return WriteJSON(w, r)
	case FormatSARIF:
		return WriteSARIF(w, r)
	case FormatGitHub:
		return WriteGitHub(w, r)
	case FormatRDJSONL:
		return WriteRDJSONL(w, r)
	case FormatRDJSON:
		return WriteRDJSON(w, r)
	}
	return fmt.Errorf("unknown output format %q (want %s)", string(f), formatNames())
}

// noLimits lifts every lint block cap: CI wants every diagnostic.
var noLimits = Limits{MaxPerFile: 1 << 30, MaxOtherFiles: 1 << 30, MaxLines: 1 << 30, MaxChars: 1 << 40}

// WriteLint renders r as the lint block (LintBlock) with every file listed
// as changed and the caps lifted, followed by one "note: NOTE" line per
// note. Nothing is written for a report without diagnostics or notes.
func WriteLint(w io.Writer, r Report) error {
	files := r.files()
	fds := make([]FileDiagnostics, len(files))
	for i, f := range files {
		fds[i] = FileDiagnostics{Path: f.path, Rel: f.rel, Diagnostics: f.diags}
	}
	var b strings.Builder
	if block := LintBlock(fds, nil, noLimits); block != "" {
		b.WriteString(block)
		b.WriteByte('\n')
	}
	for _, n := range r.Notes {
		b.WriteString("note: " + oneLine(n) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return wrapWrite(FormatLint, err)
}

// reportFile is one file of a Report, ready to render.
type reportFile struct {
	path   string       // absolute, or as given; "" for diagnostics about no file
	rel    string       // slash-separated, relative to Root when inside it
	inside bool         // rel is relative to Root
	diags  []Diagnostic // sorted and de-duplicated copy
}

// files returns r.Files ready to render: each file's path relative to Root
// and a sorted, de-duplicated copy of its diagnostics, a severity outside
// error…hint made an error.
func (r Report) files() []reportFile {
	out := make([]reportFile, 0, len(r.Files))
	for _, f := range r.Files {
		path := f.Path
		if path == "" && len(f.Diagnostics) > 0 {
			path = f.Diagnostics[0].Path
		}
		rf := reportFile{path: path, rel: f.Rel}
		if path != "" {
			rf.rel = workspace.Display(r.Root, path)
			_, rf.inside = workspace.Rel(r.Root, path)
		}
		if rf.rel == "" {
			rf.rel = filepath.ToSlash(f.Rel)
		}
		ds := append([]Diagnostic(nil), f.Diagnostics...)
		for i := range ds {
			if ds[i].Severity < SeverityError || ds[i].Severity > SeverityHint {
				ds[i].Severity = SeverityError // as parsers.Normalize does: nothing is dropped
			}
		}
		rf.diags = SortDedupe(ds)
		out = append(out, rf)
	}
	return out
}

// text returns the text of the file at path through r.Text, if any.
func (r Report) text(path string) (string, bool) {
	if r.Text == nil || path == "" {
		return "", false
	}
	return r.Text(path)
}

// toolName returns r.Tool.Name, or "lsp-hook" when it is empty.
func (r Report) toolName() string {
	if r.Tool.Name != "" {
		return r.Tool.Name
	}
	return "lsp-hook"
}

// oneLine folds s's line breaks and runs of white space into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// wrapWrite names the format in a write error.
func wrapWrite(f OutputFormat, err error) error {
	if err != nil {
		return fmt.Errorf("writing %s report: %w", f, err)
	}
	return nil
}
