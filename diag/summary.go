package diag

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
)

// DefaultMaxRows is how many diagnostics a Markdown summary lists when
// Summary.MaxRows is 0.
const DefaultMaxRows = 50

// maxCellRunes caps a message cell, in characters: a step summary is at
// most 1 MiB, and one runaway message must not use it up.
const maxCellRunes = 500

// Summary is what WriteMarkdownSummary renders: the outcome of one
// `lsp-hook diagnose` run.
type Summary struct {
	// Title is the heading; empty means "lsp-hook diagnose".
	Title string
	// Files holds the diagnostics found, grouped by file (files without
	// any may be included; they are skipped).
	Files []FileDiagnostics
	// Root is the absolute workspace root, used to show a file whose Rel is
	// empty relative to it.
	Root string
	// FilesChecked is how many files were checked, clean ones included.
	FilesChecked int
	// Elapsed is the run's wall-clock time; 0 leaves it out.
	Elapsed time.Duration
	// Notes are remarks shown as a list under the table (skipped files,
	// servers that timed out), one line each.
	Notes []string
	// MaxRows caps the table's rows; 0 means DefaultMaxRows. The rest are
	// counted in a "… and N more" line.
	MaxRows int
}

// WriteMarkdownSummary renders s as GitHub-flavoured Markdown for a job
// summary ($GITHUB_STEP_SUMMARY, see GitHub's "Adding a job summary"):
//
//	## lsp-hook diagnose
//
//	2 errors · 1 warning · 120 files checked · 3.4s
//
//	| File | Severity | Code | Message |
//	| --- | --- | --- | --- |
//	| src/a.ts:42:5 | error | ts2322 | Type 'string' is not … |
//
//	… and 3 more
//
//	- a note
//
// The counts line starts "No problems found" when there are no diagnostics,
// and then no table follows. Rows are the diagnostics of every file,
// duplicates removed (SortDedupe), most severe first, then by file, line
// and column; the file is Rel, else the path relative to Root, with the
// 1-based line and character column. Cell text is literal: HTML (<, >, &)
// and Markdown punctuation are escaped, "|" too, line breaks become <br>,
// and messages are cut at 500 characters. It returns w's write error.
func WriteMarkdownSummary(w io.Writer, s Summary) error {
	var b bytes.Buffer
	title := cmp.Or(s.Title, "lsp-hook diagnose")
	fmt.Fprintf(&b, "## %s\n\n", mdText(title))
	rows := summaryRows(s)
	b.WriteString(countsLine(rows, s) + "\n")
	if len(rows) > 0 {
		limit := s.MaxRows
		if limit <= 0 {
			limit = DefaultMaxRows
		}
		b.WriteString("\n| File | Severity | Code | Message |\n| --- | --- | --- | --- |\n")
		for _, r := range rows[:min(limit, len(rows))] {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n",
				mdText(r.location()), r.d.Severity, mdText(r.d.Code), mdText(truncate(r.d.Message, maxCellRunes)))
		}
		if len(rows) > limit {
			fmt.Fprintf(&b, "\n… and %d more\n", len(rows)-limit)
		}
	}
	if len(s.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "- %s\n", mdItem(n))
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// AppendStepSummary appends s, rendered by WriteMarkdownSummary, to the file
// at path (the value of $GITHUB_STEP_SUMMARY), creating it with mode 0644 if
// needed. A blank line separates it from what the file already holds. The
// summary is written with one write call, so steps appending at once do not
// interleave.
func AppendStepSummary(path string, s Summary) (err error) {
	if path == "" {
		return fmt.Errorf("appending step summary: no file named")
	}
	var b bytes.Buffer
	if err := WriteMarkdownSummary(&b, s); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("appending step summary: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("appending step summary to %s: %w", path, cerr)
		}
	}()
	data := b.Bytes()
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		data = append([]byte("\n"), data...)
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("appending step summary to %s: %w", path, err)
	}
	return nil
}

// summaryRow is one table row: a diagnostic and the file name shown for it.
type summaryRow struct {
	file string
	d    Diagnostic
}

func (r summaryRow) location() string {
	switch {
	case r.d.Line <= 0:
		return r.file
	case r.d.Column <= 0:
		return fmt.Sprintf("%s:%d", r.file, r.d.Line)
	}
	return fmt.Sprintf("%s:%d:%d", r.file, r.d.Line, r.d.Column)
}

// summaryRows returns the rows for s in table order (see
// WriteMarkdownSummary).
func summaryRows(s Summary) []summaryRow {
	var rows []summaryRow
	for _, f := range s.Files {
		name := f.Rel
		if name == "" {
			name = workspace.Display(s.Root, f.Path)
		}
		for _, d := range SortDedupe(slices.Clone(f.Diagnostics)) {
			rows = append(rows, summaryRow{name, d})
		}
	}
	slices.SortStableFunc(rows, func(a, b summaryRow) int {
		return cmp.Or(
			cmp.Compare(a.d.Severity, b.d.Severity),
			cmp.Compare(a.file, b.file),
			cmp.Compare(a.d.Line, b.d.Line),
			cmp.Compare(a.d.Column, b.d.Column),
		)
	})
	return rows
}

// countsLine renders "2 errors · 1 warning · 120 files checked · 3.4s", or
// "No problems found · …" when rows is empty. Info and hint counts appear
// only when there are some.
func countsLine(rows []summaryRow, s Summary) string {
	var n [SeverityHint + 1]int
	for _, r := range rows {
		if r.d.Severity >= SeverityError && r.d.Severity <= SeverityHint {
			n[r.d.Severity]++
		}
	}
	var parts []string
	if len(rows) == 0 {
		parts = append(parts, "No problems found")
	} else {
		parts = append(parts, plural(n[SeverityError], "error", "errors"), plural(n[SeverityWarning], "warning", "warnings"))
		if n[SeverityInfo] > 0 {
			parts = append(parts, fmt.Sprintf("%d info", n[SeverityInfo]))
		}
		if n[SeverityHint] > 0 {
			parts = append(parts, plural(n[SeverityHint], "hint", "hints"))
		}
	}
	parts = append(parts, plural(s.FilesChecked, "file", "files")+" checked")
	if s.Elapsed > 0 {
		parts = append(parts, roundElapsed(s.Elapsed).String())
	}
	return strings.Join(parts, " · ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// roundElapsed keeps two or three significant digits: 3.4s, 120ms, 2m5s.
func roundElapsed(d time.Duration) time.Duration {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond)
	}
	return d
}

// mdEscaper makes text literal inside a GitHub-flavoured Markdown table
// cell or list item: HTML special characters become entities, Markdown
// punctuation that could start a code span, emphasis, strikethrough or a
// link gets a backslash, and "|", which would end the cell, gets one too.
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`, "[", `\[`, "]", `\]`, "|", `\|`,
)

// mdText escapes s with mdEscaper and joins its lines with <br> (a cell is
// one line), dropping blank ones.
func mdText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, mdEscaper.Replace(l))
		}
	}
	return strings.Join(lines, "<br>")
}

// mdItem is mdText for the text of a list item, where a leading "#", "+",
// "-" or "1." would start a heading or a nested list: that is escaped too.
func mdItem(s string) string {
	t := mdText(s)
	if t != "" && strings.ContainsRune("#+-", rune(t[0])) {
		return `\` + t
	}
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	if digits > 0 && digits < len(t) && (t[digits] == '.' || t[digits] == ')') {
		return t[:digits] + `\` + t[digits:]
	}
	return t
}

// truncate cuts s to at most n characters, marking the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
