package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// mdDoc is what the Markdown report says beyond the measurements: the
// command that reproduces it and a note on the run ("" when none).
type mdDoc struct {
	repro string // `go run ./bench …` as run, paths under the module root relative
	note  string // -note: how loaded or shared the machine was, in the reader's words
	chart string // the SVG of the charts written beside the page; "" for none
}

// writeMarkdown writes the report as a Markdown page (CommonMark with
// GitHub tables): the note, how to reproduce it, the machine, the summary
// as a table, then every section as preformatted text, as printed.
func (r *report) writeMarkdown(w io.Writer, doc mdDoc) {
	m := r.machine
	fmt.Fprintln(w, "# lsp-hook benchmarks")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Measured %s in one run of `bench/` (the command is under Reproduce). Every ratio is between\n",
		m.started.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintln(w, "measurements taken interleaved in that run, on the same machine: compare ratios, not absolute times.")
	if doc.note != "" {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "**Note:** %s\n", doc.note)
	}
	fmt.Fprintln(w, "\n## Reproduce")
	fmt.Fprintln(w, "\nFrom the repository root (the language servers are installed into `.tools/` and with apt):")
	fmt.Fprintln(w, "\n```sh\nmake build tools\nmake bench\n```")
	fmt.Fprintln(w, "\n`make bench` puts `.tools/bin` and `.tools/npm/node_modules/.bin` on `PATH` and runs:")
	fmt.Fprintf(w, "\n```sh\n%s\n```\n", doc.repro)
	fmt.Fprintln(w, "\n## Machine")
	fmt.Fprintln(w)
	writeMDTable(w, []string{"", ""}, r.machineRows())
	fmt.Fprintln(w, "\n## Summary")
	fmt.Fprintln(w, "\nThe goals of issues 7 and 16 first, some followed by figures without a goal that belong with them, then the other")
	fmt.Fprintln(w, "figures. \"measured\" is lsp-hook's figure, \"baseline\" what it is compared with; each metric names its")
	fmt.Fprintln(w, "ratio, of p50s (medians) unless it says otherwise.")
	fmt.Fprintln(w)
	rows := r.summary()
	cells := make([][]string, len(rows))
	for i, g := range rows {
		cells[i] = g.cells()
		if g.verdict == goalNotMet {
			cells[i][5] = "**NOT met**"
		}
	}
	writeMDTable(w, summaryHead, cells)
	if details := summaryDetails(rows); len(details) > 0 {
		fmt.Fprintln(w)
		for _, d := range details {
			fmt.Fprintf(w, "- %s\n", d)
		}
	}
	fmt.Fprintln(w, "\n## Issue 18")
	fmt.Fprintln(w, "\nEvery row of issue 18's table as measured in this run; \"at filing\" is the figure the issue was filed with.")
	fmt.Fprintln(w)
	rows18 := r.issue18()
	cells18 := make([][]string, len(rows18))
	for i, g := range rows18 {
		cells18[i] = g.cells()
		if g.verdict == goalNotMet {
			cells18[i][4] = "**NOT met**"
		}
	}
	writeMDTable(w, head18, cells18)
	if doc.chart != "" && r.hasChart() {
		fmt.Fprintln(w, "\n## Charts")
		fmt.Fprintln(w, "\nWarm-edit latency per language (lsp-hook, the peer, the per-edit command) and the first edit of a session")
		fmt.Fprintln(w, "with and without prewarm, from this run:")
		fmt.Fprintf(w, "\n![warm-edit latency and first edits](%s)\n", filepath.Base(doc.chart))
	}
	fmt.Fprintln(w, "\n## Full report")
	fmt.Fprintln(w, "\nAs `go run ./bench` prints it, section by section.")
	var body bytes.Buffer
	r.writeSections(&body)
	fmt.Fprintf(w, "\n```text\n%s\n```\n", strings.Trim(body.String(), "\n"))
}

// machineRows is the machine table: hardware, kernel, and the version of
// every program measured.
func (r *report) machineRows() [][]string {
	m := r.machine
	rows := [][]string{
		{"CPU", fmt.Sprintf("%s, %d logical CPUs", m.cpuModel, m.cpus)},
		{"memory", m.memory},
		{"kernel", "Linux " + m.kernel},
		{"load average (1, 5, 15 min)", fmt.Sprintf("%s at the start, %s at the end", m.load, m.endLoad)},
		{"Go", m.goVer},
		{"lsp-hook", m.lspHook},
	}
	for _, l := range langSpecs {
		rows = append(rows, []string{l.name + " tools", m.tools[l.key]})
	}
	return rows
}

// writeMDTable writes a GitHub table: head, then rows, cells escaped.
func writeMDTable(w io.Writer, head []string, rows [][]string) {
	line := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = mdCell(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(esc, " | "))
	}
	line(head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

// mdCell is s fit for one table cell: pipes escaped, line breaks as spaces.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// reproCommand is `go run ./bench` with args, paths under root made
// relative to it and each argument quoted for a POSIX shell when needed.
// -note and its text are left out: they describe this run's machine, not
// what to measure.
func reproCommand(root string, args []string) string {
	out := []string{"go", "run", "./bench"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-note" || a == "--note":
			i++
			continue
		case strings.HasPrefix(a, "-note=") || strings.HasPrefix(a, "--note="):
			continue
		case a == root:
			a = "."
		}
		out = append(out, shellQuote(strings.ReplaceAll(a, root+string(filepath.Separator), "")))
	}
	return strings.Join(out, " ")
}

// shellSafe matches an argument a POSIX shell takes as it is.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./,:=+@%-]+$`)

// shellQuote is a as one POSIX shell word (the rule of the hooks package's
// hookShellQuote, which is not exported).
func shellQuote(a string) string {
	if shellSafe.MatchString(a) {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// writeMarkdownFile writes the Markdown report to path through a
// temporary file beside it, so that a failed write leaves the old page.
func (r *report) writeMarkdownFile(path string, doc mdDoc) error {
	var buf bytes.Buffer
	r.writeMarkdown(&buf, doc)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing the Markdown report: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the Markdown report: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing the Markdown report: %w", err)
	}
	return nil
}
