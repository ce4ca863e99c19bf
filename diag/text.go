package diag

import (
	"io"
	"strconv"
	"strings"
)

// WriteText renders r as one line per diagnostic, in the form gcc, go vet
// and most editors' error parsers read:
//
//	PATH:LINE:COLUMN: SEVERITY: MESSAGE [CODE] (SOURCE)
//
// PATH is relative to r.Root, slash-separated (absolute outside it); LINE
// and COLUMN are 1-based, COLUMN in characters (code points). ":COLUMN" is
// left out when the column is unknown (0), ":LINE:COLUMN" when the line is,
// and "PATH:" for a diagnostic about no file. SEVERITY is error, warning,
// info or hint. The message's line breaks and runs of white space are folded
// into single spaces so each diagnostic stays on one line; " [CODE]" and
// " (SOURCE)" are left out when empty. Example:
//
//	internal/app/main.go:12:5: error: undefined: x [UndeclaredName] (gopls)
//
// Files are written in r.Files order, each file's diagnostics sorted by
// line and column. Notes and a summary are not written: the caller prints
// them to standard error, so standard output stays parseable.
func WriteText(w io.Writer, r Report) error {
	var b strings.Builder
	for _, f := range r.files() {
		for _, d := range f.diags {
			b.WriteString(textLine(f.rel, d))
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return wrapWrite(FormatText, err)
}

// textLine renders one diagnostic of the file at rel as WriteText does.
func textLine(rel string, d Diagnostic) string {
	var b strings.Builder
	if rel != "" {
		b.WriteString(rel)
		if d.Line > 0 {
			b.WriteString(":" + strconv.Itoa(d.Line))
			if d.Column > 0 {
				b.WriteString(":" + strconv.Itoa(d.Column))
			}
		}
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	b.WriteString(oneLine(d.Message))
	if d.Code != "" {
		b.WriteString(" [" + oneLine(d.Code) + "]")
	}
	if d.Source != "" {
		b.WriteString(" (" + oneLine(d.Source) + ")")
	}
	return b.String()
}
