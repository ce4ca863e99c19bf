package diag

import (
	"fmt"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
	"net/url"
	"strings"
)

// This file describes a SARIF rule (reportingDescriptor, SARIF 2.1.0
// §3.49) for GitHub code scanning, whose own rules (sarif-multitool's
// "Gh" rule kind, GH2012) want shortDescription, fullDescription and help
// on every rule, and show helpUri as the rule's documentation link.

// ruleHelpURI returns the documentation page of a rule id reported by
// source, or "" when the tool has no page for it. The pages are the
// tools' own:
//
//   - gopls: type-checker error codes ("UndeclaredName") are the constants
//     of golang.org/x/tools/internal/typesinternal (gopls sends that page
//     as the diagnostic's codeDescription); analyzer names ("unusedvariable")
//     have a section of gopls/doc/analyzers.md.
//   - pyright (and basedpyright): each report* rule has an anchor in its
//     configuration page.
//   - shellcheck: its wiki page per code (SC2086).
//   - eslint: a core rule's page (rule ids without a plugin prefix).
//   - ruff: its rules index, searched by code (ruff's own URLs are by rule
//     name, which the code alone does not give).
func ruleHelpURI(source, id string) string {
	switch {
	case source == "gopls" && goTypeErrorCode().MatchString(id):
		return "https://pkg.go.dev/golang.org/x/tools/internal/typesinternal#" + id
	case source == "gopls" && goAnalyzerName().MatchString(id):
		return "https://github.com/golang/tools/blob/master/gopls/doc/analyzers.md#" + id
	case (source == "Pyright" || source == "pyright" || source == "basedpyright") && strings.HasPrefix(id, "report"):
		return "https://microsoft.github.io/pyright/#/configuration?id=" + url.QueryEscape(id)
	case shellcheckCode().MatchString(id):
		return "https://www.shellcheck.net/wiki/" + id
	case source == "eslint" && eslintCoreRule().MatchString(id):
		return "https://eslint.org/docs/latest/rules/" + id
	case source == "ruff" && ruffCode().MatchString(id):
		return "https://docs.astral.sh/ruff/rules/?q=" + url.QueryEscape(id)
	}
	return ""
}

var (
	goTypeErrorCode = lazyre.New(`^[A-Z][A-Za-z]+$`)
	goAnalyzerName  = lazyre.New(`^[a-z][a-z0-9]+$`)
	shellcheckCode  = lazyre.New(`^SC\d{4}$`)
	eslintCoreRule  = lazyre.New(`^[a-z]+(-[a-z]+)*$`)
	ruffCode        = lazyre.New(`^[A-Z]+\d+$`)
)

// ruleTexts returns a rule's fullDescription and help text: who reports
// the rule, an example of its message (the first seen, for a rule whose
// message varies with the code it is about), and where its documentation
// is when helpURI is set. id is the rule's id, sources the checkers that
// reported it (sorted, possibly empty), example a message.
func ruleTexts(id string, sources []string, example, helpURI string) (full, help string) {
	by := "lsp-hook"
	if len(sources) > 0 {
		by = strings.Join(sources, ", ")
	}
	if len(sources) == 1 && sources[0] == id {
		full = fmt.Sprintf("Diagnostics %s reports without a rule code, such as: %s", by, example)
	} else {
		full = fmt.Sprintf("Rule %s of %s, such as: %s", id, by, example)
	}
	help = fmt.Sprintf("%s reports this at the code the result points to; its message says what is wrong there. Fix the code, then run lsp-hook diagnose again.", by)
	if helpURI != "" {
		help += " Documentation: " + helpURI
	}
	return full, help
}

// regionText returns the text of d's region in text (SARIF 2.1.0
// §3.30.13, a region's snippet): from its start column to its end column
// (1-based code points, exclusive end), across lines when it spans
// several, or to the end of the start line when the end is unknown; a
// region with no start column is its whole start line. Lines end at LF,
// a CR before it dropped. It is false when text lacks the start line or
// the region is empty.
func regionText(text string, d Diagnostic) (string, bool) {
	lines := strings.Split(text, "\n")
	line := func(n int) (string, bool) {
		if n < 1 || n > len(lines) {
			return "", false
		}
		return strings.TrimSuffix(lines[n-1], "\r"), true
	}
	first, ok := line(d.Line)
	if !ok {
		return "", false
	}
	from := runeOffset(first, d.Column)
	endLine, endCol := d.EndLine, d.EndColumn
	if endLine < d.Line || endLine == 0 || endCol < 1 {
		endLine, endCol = d.Line, 0 // to the end of the start line
	}
	var b strings.Builder
	for n := d.Line; n <= endLine; n++ {
		l, ok := line(n)
		if !ok {
			break
		}
		lo, hi := 0, len(l)
		if n == d.Line {
			lo = from
		}
		if n == endLine && endCol > 0 {
			hi = runeOffset(l, endCol)
		}
		if n > d.Line {
			b.WriteByte('\n')
		}
		if lo < hi {
			b.WriteString(l[lo:hi])
		}
	}
	s := b.String()
	return s, s != ""
}

// runeOffset returns the byte offset in line of 1-based code-point
// column col (0 and 1 both the start; past the end, the end).
func runeOffset(line string, col int) int {
	if col <= 1 {
		return 0
	}
	n := 1
	for i := range line {
		if n == col {
			return i
		}
		n++
	}
	return len(line)
}
