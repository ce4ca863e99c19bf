package diag

import (
	"io"
	"strconv"
	"strings"
)

// WriteGitHub renders r as GitHub Actions workflow commands, one per line,
// which the runner turns into annotations on the pull request and the run
// ("Workflow commands for GitHub Actions": error, warning, notice):
//
//	::error file=main.go,line=12,col=5,endLine=12,endColumn=6,title=UndeclaredName (gopls)::undefined: x
//
// The command is error for errors, warning for warnings and notice for info
// and hints. file is relative to r.Root, slash-separated (the runner
// resolves it against the repository checkout); line and col are 1-based,
// col in characters. col and endColumn (our exclusive end) are sent only
// for a diagnostic within one line, as the runner ignores columns of a
// range spanning lines; unknown positions are left out. title is
// "CODE (SOURCE)", "CODE" or "SOURCE". Each note becomes
// "::warning title=TOOL::NOTE". Messages keep their line breaks: values are
// escaped as @actions/core's command.ts does (escapeData, escapeProperty).
func WriteGitHub(w io.Writer, r Report) error {
	var b strings.Builder
	for _, f := range r.files() {
		for _, d := range f.diags {
			b.WriteString(githubCommand(f.rel, d))
			b.WriteByte('\n')
		}
	}
	for _, n := range r.Notes {
		b.WriteString("::warning title=" + githubEscapeProperty(r.toolName()) + "::" + githubEscapeData(n) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return wrapWrite(FormatGitHub, err)
}

// githubCommand renders one diagnostic of the file at rel as a workflow
// command.
func githubCommand(rel string, d Diagnostic) string {
	cmd := "notice"
	switch d.Severity {
	case SeverityError:
		cmd = "error"
	case SeverityWarning:
		cmd = "warning"
	}
	var props []string
	add := func(k, v string) { props = append(props, k+"="+githubEscapeProperty(v)) }
	if rel != "" {
		add("file", rel)
	}
	if d.Line > 0 {
		add("line", strconv.Itoa(d.Line))
		oneLine := d.EndLine == 0 || d.EndLine == d.Line
		if d.Column > 0 && oneLine {
			add("col", strconv.Itoa(d.Column))
		}
		if d.EndLine > d.Line || (d.EndLine == d.Line && d.EndColumn > 0) {
			add("endLine", strconv.Itoa(d.EndLine))
		}
		if d.EndLine == d.Line && d.EndColumn > 0 && d.Column > 0 {
			add("endColumn", strconv.Itoa(d.EndColumn))
		}
	}
	title := d.Code
	switch {
	case d.Code != "" && d.Source != "":
		title = d.Code + " (" + d.Source + ")"
	case d.Code == "":
		title = d.Source
	}
	if title != "" {
		add("title", title)
	}
	s := "::" + cmd
	if len(props) > 0 {
		s += " " + strings.Join(props, ",")
	}
	return s + "::" + githubEscapeData(d.Message)
}

// githubEscapeData escapes a workflow command's message as @actions/core's
// escapeData: % → %25, CR → %0D, LF → %0A.
func githubEscapeData(s string) string { return githubDataEscaper.Replace(s) }

// githubEscapeProperty escapes a workflow command's property value as
// @actions/core's escapeProperty: escapeData, plus : → %3A and , → %2C.
func githubEscapeProperty(s string) string { return githubPropertyEscaper.Replace(s) }

var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
