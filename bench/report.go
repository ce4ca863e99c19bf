package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// report is everything one run measured, printed at the end as one block
// a person can read and paste (write), or as Markdown (writeMarkdown).
type report struct {
	machine   machine
	json      *jsonResult // nil when part 1 did not finish
	goRuns    []goResult
	langs     []langResult
	memory    []memRow
	diagnose  diagnoseResult
	mcp       mcpResult
	load      *loadResult    // nil when section 7 did not run
	prewarm   *prewarmResult // nil when section 8 did not run
	peer      *peerResult    // nil when section 9 did not run
	writeEdit *writeResult   // nil when section 10 did not run
	cfile     *langResult    // nil when section 11 did not run
	goplsMem  *goplsMemResult
	trees     *worktreesResult
	cleanup   []string // problems stopping the daemons
	failure   string   // the error that ended the run early; "" when none
}

// labelWidth is the width of the first column of the tables.
const labelWidth = 44

// write prints the report: the machine, the summary, then every section.
func (r *report) write(w io.Writer) {
	r.writeHeader(w)
	writeSummary(w, r.summary())
	writeIssue18(w, r.issue18())
	r.writeSections(w)
}

// writeHeader prints what the numbers were measured on.
func (r *report) writeHeader(w io.Writer) {
	m := r.machine
	fmt.Fprintf(w, "lsp-hook bench · %s\n", m.started.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(w, "machine   %d CPUs · %s · %s · linux %s · load %s at start\n", m.cpus, m.cpuModel, m.memory, m.kernel, m.load)
	fmt.Fprintf(w, "go        %s  (GOWORK=off GOPROXY=off GOTOOLCHAIN=local)\n", m.goVer)
	fmt.Fprintf(w, "gopls     %s  (%s)\n", m.gopls, m.goplsBin)
	fmt.Fprintf(w, "lsp-hook  %s  (%s)\n", m.lspHook, m.bin)
	for _, l := range langSpecs {
		fmt.Fprintf(w, "%-9s %s\n", l.key, m.tools[l.key])
	}
}

// writeSections prints every section that ran, then how the run ended.
func (r *report) writeSections(w io.Writer) {
	fmt.Fprintln(w, "\nWall time of each process, start to exit: n timed runs, their median and p90 (\"type err\" and")
	fmt.Fprintln(w, "\"fix\": medians of the runs after each kind of edit). \"first\" is the untimed cold first run.")
	fmt.Fprintln(w, "Ratios are of medians of runs interleaved in this one process, on this machine.")
	if r.json != nil {
		r.writeJSON(w, *r.json)
	}
	for i, g := range r.goRuns {
		r.writeGo(w, fmt.Sprintf("2%c", 'a'+i), g)
	}
	if len(r.langs) > 0 {
		writeLangs(w, r.langs)
	}
	if len(r.memory) > 0 {
		writeMemory(w, "4. Memory after the runs", r.memory)
	}
	writeDiagnose(w, r.diagnose)
	writeMCP(w, r.mcp)
	writeLoad(w, r.load)
	writePrewarm(w, r.prewarm)
	r.writeIssue18Sections(w)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "load at the end: %s (at the start: %s; other work on the machine inflates every row)\n", r.machine.endLoad, r.machine.load)
	if len(r.cleanup) == 0 {
		fmt.Fprintln(w, "cleanup: daemons stopped with `lsp-hook stop`; no daemon or server outlived it")
	}
	for _, n := range r.cleanup {
		fmt.Fprintln(w, "cleanup: !", n)
	}
	if r.failure != "" {
		fmt.Fprintln(w, "RUN FAILED:", r.failure)
	}
}

// writeJSON prints part 1.
func (r *report) writeJSON(w io.Writer, j jsonResult) {
	fmt.Fprintf(w, "\n1. JSON hook round trip, daemon warm: Edit of %s (syntax error) in %s\n", badJSONName, j.ws.name)
	writeTable(w, medianCols, j.hook, j.version)
	x := ratio(j.hook.s, j.version.s)
	fmt.Fprintf(w, "   → %-*s %4s %10s   goal ≤ %g×: %s\n", labelWidth-2, "hook ÷ version", "", fmtRatio(x), goalJSONRatio, verdict(x <= goalJSONRatio))
	answerLine(w, j.lint)
}

// writeGo prints part 2 for one workspace.
func (r *report) writeGo(w io.Writer, n string, g goResult) {
	rel, _ := filepath.Rel(g.ws.dir, g.ws.target)
	gr := g.ws.graph
	fmt.Fprintf(w, "\n%s. Warm Go edit → lint block: %s\n", n, g.ws.name)
	about := fmt.Sprintf("%d files, %d lines of non-test Go in %s. Each run appends a declaration at %s:%d "+
		"(a type error on even runs, its fix on odd ones, a new value each run), then runs the hook, and once "+
		"the daemon's processes are idle, go build, go vet and gopls check on that content, one after the other.",
		g.ws.files, g.ws.lines, plural(gr.packages, "package"), filepath.ToSlash(rel), g.ws.declLine())
	if gr.importers > 0 {
		about += " " + g.ws.graphSentence() + ": after a fix go build ./... recompiles the packages that import it, and gopls re-checks them."
	}
	fmt.Fprint(w, wrapText(about, 100, "    "))
	writeTable(w, splitCols, g.hook, g.hookProc, g.daemon, g.gopls, g.busy, g.build, g.vet, g.check)
	errX, fixX := ratio(g.build.errS, g.hook.errS), ratio(g.build.fixS, g.hook.fixS)
	goal := fmt.Sprintf("goal ≥ %g× (both): %s", goalGoRatio, verdict(min(errX, fixX) >= goalGoRatio))
	if g.ws.lines < minLargeLines {
		goal = fmt.Sprintf("(the goal is for a module of ≥ %d lines)", minLargeLines)
	}
	fmt.Fprintf(w, "   → %-*s %4s %10s %10s %10s %10s   %s\n", labelWidth-2, "go build ÷ hook", "",
		fmtRatio(ratio(g.build.s, g.hook.s)), "", fmtRatio(errX), fmtRatio(fixX), goal)
	for _, b := range []struct {
		label string
		r     row
	}{{"go vet " + g.ws.pkgArg() + " ÷ hook", g.vet}, {"gopls check ÷ hook", g.check}} {
		fmt.Fprintf(w, "   → %-*s %4s %10s %10s %10s %10s\n", labelWidth-2, b.label, "",
			fmtRatio(ratio(b.r.s, g.hook.s)), "", fmtRatio(ratio(b.r.errS, g.hook.errS)), fmtRatio(ratio(b.r.fixS, g.hook.fixS)))
	}
	answerLine(w, g.lint)
}

// wrapText is s broken into lines of at most width characters (a longer
// word stands alone), each starting with indent and ending in a newline.
func wrapText(s string, width int, indent string) string {
	var out strings.Builder
	line := indent
	for _, word := range strings.Fields(s) {
		if line != indent && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width {
			out.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += word
	}
	if line != indent {
		out.WriteString(line + "\n")
	}
	return out.String()
}

// plural is "1 package" or "n packages".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// column is one statistic column of a table: stat of the samples of a
// row that of picks.
type column struct {
	head string
	of   func(r row) samples
	stat func(samples) time.Duration
}

func timedRuns(r row) samples  { return r.s }
func afterErrs(r row) samples  { return r.errS }
func afterFixes(r row) samples { return r.fixS }

// The column sets of the tables: parts 1 and 2 show medians and p90 (part
// 2 also the medians after each kind of edit), part 3 p50 and p95.
var (
	medianCols = []column{{"median", timedRuns, samples.median}, {"p90", timedRuns, samples.p90}}
	splitCols  = []column{{"median", timedRuns, samples.median}, {"p90", timedRuns, samples.p90},
		{"type err", afterErrs, samples.median}, {"fix", afterFixes, samples.median}}
	percentileCols = []column{{"p50", timedRuns, samples.median}, {"p95", timedRuns, samples.p95}}
)

// writeTable prints a table of rows: n, cols, and the first run; then one
// line per row whose runs gave wrong answers.
func writeTable(w io.Writer, cols []column, rows ...row) {
	head := fmt.Sprintf("   %-*s %4s", labelWidth, "", "n")
	for _, c := range cols {
		head += fmt.Sprintf(" %10s", c.head)
	}
	fmt.Fprintf(w, "%s %10s\n", head, "first")
	for _, r := range rows {
		label := r.label
		if r.sub {
			label = "  " + label
		}
		line := fmt.Sprintf("   %-*s %4d", labelWidth, label, len(r.s))
		for _, c := range cols {
			s := c.of(r)
			line += fmt.Sprintf(" %10s", fmtSample(s, c.stat(s)))
		}
		line += fmt.Sprintf(" %10s  %s", fmtFirst(r), r.firstNote)
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	for _, r := range rows {
		if r.bad > 0 {
			fmt.Fprintf(w, "   ! %s: %d of %d answers wrong; %s\n", strings.TrimSpace(r.label), r.bad, len(r.s)+1, r.badNote)
		}
	}
}

// fmtSample is fmtDur of d, a statistic of s, except that a 0 of samples
// that were there (a log difference under its 1 ms resolution) shows as
// "0 ms", not as "-" (no samples).
func fmtSample(s samples, d time.Duration) string {
	if d == 0 && len(s) > 0 {
		return "0 ms"
	}
	return fmtDur(d)
}

// fmtFirst is fmtDur of r's first run, "0 ms" when it was recorded as 0.
func fmtFirst(r row) string {
	if r.hasFirst && r.first == 0 {
		return "0 ms"
	}
	return fmtDur(r.first)
}

// verdict is "met" or "NOT met".
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "NOT met"
}

// fmtRatio prints a ratio like "2.35×"; "-" for 0 (nothing to compare).
func fmtRatio(x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", x)
}

// answerLine prints the first diagnostic line of a lint block, showing
// what the hook answered.
func answerLine(w io.Writer, lint string) {
	for l := range strings.Lines(lint) {
		if strings.HasPrefix(l, "ERROR ") {
			fmt.Fprintf(w, "   answer (first run): %s\n", strings.TrimSpace(l))
			return
		}
	}
	fmt.Fprintf(w, "   answer (first run): %q\n", lint)
}

// writeMemory prints a memory table under the title (part 4, section 7b):
// per row, the daemon, its servers and the other processes under it.
func writeMemory(w io.Writer, title string, rows []memRow) {
	fmt.Fprintf(w, "\n%s: VmRSS now (VmHWM peak), each process alone, not its children\n", title)
	fmt.Fprintf(w, "   %-32s %10s %-20s %10s %s\n", "workspace", "daemon pid", "  daemon", "server pid", "  server")
	for _, r := range rows {
		spid, smem := "-", "not running"
		if len(r.servers) > 0 {
			spid, smem = fmt.Sprint(r.servers[0].pid), fmtMem(r.servers[0].procMem)+"  "+r.servers[0].cmd
		}
		fmt.Fprintf(w, "   %-32s %10d   %-18s %10s   %s\n", r.name(), r.daemon.pid, fmtMem(r.daemon), spid, smem)
		for _, extra := range r.servers[min(1, len(r.servers)):] {
			fmt.Fprintf(w, "   %-32s %10s   %-18s %10d   %s  %s\n", "", "", "", extra.pid, fmtMem(extra.procMem), extra.cmd)
		}
		for _, o := range r.others {
			fmt.Fprintf(w, "     also under the daemon: pid %d %s  %s\n", o.pid, fmtMem(o.procMem), o.cmd)
		}
	}
}

// fmtDur prints d in milliseconds with three significant figures or so;
// "-" for 0 (no samples).
func fmtDur(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case d == 0:
		return "-"
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 100:
		return fmt.Sprintf("%.1f ms", ms)
	default:
		return fmt.Sprintf("%.0f ms", ms)
	}
}

// fmtMem prints a process's RSS and peak in MiB.
func fmtMem(m procMem) string {
	return fmt.Sprintf("%.1f MiB (%.1f)", float64(m.rss)/1024, float64(m.peak)/1024)
}
