package diag

import (
	"fmt"
	"strings"
)

// FileDiagnostics groups the diagnostics of one file. Path is absolute; Rel is
// the path relative to the workspace root, slash-separated, as shown to the
// model (Path itself when the file lies outside the root).
type FileDiagnostics struct {
	Path        string       `json:"path"`
	Rel         string       `json:"rel"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Limits caps the lint block (DESIGN.md "The lint block"). A zero field means
// the default: DefaultLimits.
type Limits struct {
	MaxPerFile    int // diagnostics listed per file before "... and N more"; default 20
	MaxOtherFiles int // files listed under "other files"; default 5
	MaxLines      int // lines in the whole block; default 50
	MaxChars      int // characters (bytes) in the whole block; default 10,000
}

// DefaultLimits are the caps DESIGN.md specifies: 20 per file, 5 other files,
// 50 lines, 10,000 characters.
var DefaultLimits = Limits{MaxPerFile: 20, MaxOtherFiles: 5, MaxLines: 50, MaxChars: 10000}

func (l Limits) withDefaults() Limits {
	if l.MaxPerFile <= 0 {
		l.MaxPerFile = DefaultLimits.MaxPerFile
	}
	if l.MaxOtherFiles <= 0 {
		l.MaxOtherFiles = DefaultLimits.MaxOtherFiles
	}
	if l.MaxLines <= 0 {
		l.MaxLines = DefaultLimits.MaxLines
	}
	if l.MaxChars <= 0 {
		l.MaxChars = DefaultLimits.MaxChars
	}
	return l
}

// Lint block headers, verbatim from DESIGN.md.
const (
	headerThisFile   = "LSP errors detected in this file, please fix:"
	headerTheseFiles = "LSP errors detected in these files, please fix:"
	headerOther      = "LSP errors detected in other files:"
)

// LintBlock renders the block an agent injects into its tool result:
//
//	LSP errors detected in this file, please fix:
//	<diagnostics file="src/utils.ts">
//	ERROR [42:5] Type 'string' is not assignable to type 'number'. (ts2322)
//	</diagnostics>
//	LSP errors detected in other files:
//	<diagnostics file="src/api.ts">
//	ERROR [7:3] Expected 2 arguments, but got 1. (ts2554)
//	</diagnostics>
//
// changed holds the files the agent just wrote (one for a single edit, more
// for a batch); others the files whose diagnostics changed because of it.
// Files without diagnostics are skipped; the block is "" when nothing is
// left. Diagnostics are rendered in line, column order; [line:col] is 1-based
// with the column in characters. <, > and & in messages and paths are
// escaped. The caps in lim apply (per file, other files, lines, characters);
// whatever is cut is counted in a "... and N more" line so the model knows.
func LintBlock(changed, others []FileDiagnostics, lim Limits) string {
	lim = lim.withDefaults()
	w := &blockWriter{lim: lim}
	changed = nonEmpty(changed)
	others = nonEmpty(others)
	if len(changed) > 0 {
		header := headerThisFile
		if len(changed) > 1 {
			header = headerTheseFiles
		}
		w.line(header)
		for _, f := range changed {
			w.file(f)
		}
	}
	if len(others) > 0 && !w.full {
		w.line(headerOther)
		for i, f := range others {
			if i == lim.MaxOtherFiles {
				w.line(fmt.Sprintf("... and %d more files with errors", len(others)-i))
				break
			}
			w.file(f)
		}
	}
	return w.String()
}

func nonEmpty(fs []FileDiagnostics) []FileDiagnostics {
	var out []FileDiagnostics
	for _, f := range fs {
		if len(f.Diagnostics) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// blockWriter accumulates lines under the line and character caps. Once a
// cap is hit it writes one closing marker and ignores the rest.
type blockWriter struct {
	lim   Limits
	b     strings.Builder
	lines int
	full  bool // a cap was reached; nothing more is written
	open  bool // a <diagnostics> element is open and must be closed
}

// reserve is room kept for the closing tag and a truncation marker.
const reserve = len("</diagnostics>\n") + len(truncatedLine) + 1

// truncatedLine marks where a cap cut the block.
const truncatedLine = "... output truncated (limit reached)"

// line appends s and a newline if both caps allow, keeping room to close.
func (w *blockWriter) line(s string) bool {
	if w.full {
		return false
	}
	if w.lines+1 > w.lim.MaxLines-2 || w.b.Len()+len(s)+1 > w.lim.MaxChars-reserve {
		w.truncate()
		return false
	}
	w.b.WriteString(s)
	w.b.WriteByte('\n')
	w.lines++
	return true
}

func (w *blockWriter) truncate() {
	w.full = true
	w.b.WriteString(truncatedLine + "\n")
	if w.open {
		w.b.WriteString("</diagnostics>\n")
		w.open = false
	}
}

func (w *blockWriter) file(f FileDiagnostics) {
	if !w.line(fmt.Sprintf("<diagnostics file=%q>", escape(displayPath(f)))) {
		return
	}
	w.open = true
	ds := append([]Diagnostic(nil), f.Diagnostics...)
	ds = SortDedupe(ds)
	for i, d := range ds {
		if i == w.lim.MaxPerFile {
			if !w.line(fmt.Sprintf("... and %d more", len(ds)-i)) {
				return
			}
			break
		}
		if !w.line(FormatLine(d)) {
			return
		}
	}
	w.open = false
	w.b.WriteString("</diagnostics>\n")
	w.lines++
}

func (w *blockWriter) String() string { return strings.TrimSuffix(w.b.String(), "\n") }

func displayPath(f FileDiagnostics) string {
	if f.Rel != "" {
		return f.Rel
	}
	return f.Path
}

// FormatLine renders one diagnostic as a lint block line:
// "SEVERITY [line:col] message (code)", with "(code)" left out when Code is
// empty, the message's line breaks folded into spaces, and <, >, & escaped.
func FormatLine(d Diagnostic) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	s := fmt.Sprintf("%s [%d:%d] %s", d.Severity.Label(), d.Line, d.Column, escape(msg))
	if d.Code != "" {
		s += " (" + escape(d.Code) + ")"
	}
	return s
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func escape(s string) string { return escaper.Replace(s) }
