package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/lsp"
)

// writeLangs prints part 3: one table per language, then a summary.
func writeLangs(w io.Writer, langs []langResult) {
	fmt.Fprintln(w, "\n3. Warm edit → lint block per live language, on the projects of testdata/langs (one workspace each)")
	fmt.Fprintln(w, "   Each run appends one line to the caller (a type error on even runs, its fix on odd ones, a new")
	fmt.Fprintln(w, "   value each run), runs the hook, then the command a hook-writer would otherwise run per edit,")
	fmt.Fprintln(w, "   on the same content. \"server\": the server's own time from the daemon log, server_ms of the")
	fmt.Fprintln(w, "   request's \"server checked\" record (change sent → last changed document fresh, no settle);")
	fmt.Fprintln(w, "   overhead: hook wall − server, per run, split by the log's records (whole milliseconds, truncated).")
	for i, l := range langs {
		writeLang(w, fmt.Sprintf("3%c", 'a'+i), l)
	}
	writeLangSummary(w, langs)
}

// writeLang prints one language's table and verdicts.
func writeLang(w io.Writer, n string, l langResult) {
	if l.skipped != "" {
		fmt.Fprintf(w, "\n%s. %s: skipped: %s\n", n, l.spec.name, l.skipped)
		return
	}
	rel, _ := filepath.Rel(l.ws.dir, l.ws.target)
	fmt.Fprintf(w, "\n%s. %s  (%s)\n", n, l.spec.name, l.tools)
	fmt.Fprintf(w, "    %s:%d += %s   /   %s\n", filepath.ToSlash(rel), l.ws.declLine(), l.spec.decl(0, true), l.spec.decl(1, false))
	if l.note != "" {
		fmt.Fprintf(w, "    %s\n", l.note)
	}
	server := l.server
	if l.settleIn {
		server.label = "server, SETTLE INCLUDED (elapsed_ms)"
	}
	rows := []row{l.hook, server, l.overhead}
	for _, r := range []row{l.settle, l.daemon, l.ipc, l.proc} {
		if len(r.s) > 0 {
			rows = append(rows, r)
		}
	}
	writeTable(w, percentileCols, append(rows, l.base)...)
	fmt.Fprintf(w, "   → %-*s %4s %10s %10s\n", labelWidth-2, "baseline ÷ hook", "",
		fmtRatio(l.speedup(samples.median)), fmtRatio(l.speedup(samples.p95)))
	fmt.Fprintf(w, "   → daemon overhead at p50: %s   goal ≤ %s: %s\n", fmtDur(l.overhead.s.median()), fmtDur(goalOverhead), verdict(l.overheadMet()))
	if l.settleIn {
		fmt.Fprintln(w, "     settle included: the daemon logs no server_ms, so \"server\" is the \"server checked\" record's")
		fmt.Fprintln(w, "     elapsed_ms, settle window and all, and the overhead shown leaves the settle window out")
	} else if len(l.settle.s) > 0 {
		fmt.Fprintf(w, "     the settle window for an edit shown errors-only is lsp.EditSettle, %s\n", fmtDur(lsp.EditSettle))
	}
	answerLine(w, l.lint)
}

// speedup is the baseline's stat over the hook's.
func (l langResult) speedup(stat func(samples) time.Duration) float64 {
	return pRatio(stat(l.base.s), stat(l.hook.s))
}

// overheadMet reports whether the daemon's overhead at p50 meets its goal.
func (l langResult) overheadMet() bool {
	return len(l.overhead.s) > 0 && l.overhead.s.median() <= goalOverhead
}

// writeLangSummary prints one line per language measured: the hook and the
// baseline at p50 and p95, their ratio, and the overhead against its goal.
func writeLangSummary(w io.Writer, langs []langResult) {
	fmt.Fprintln(w, "\n3. Summary (baseline ÷ hook: how many times faster the hook answers; overhead goal ≤ 5 ms at p50;")
	fmt.Fprintln(w, "   first touch: the untimed first edit, which starts the daemon and the server and waits for its initial load)")
	fmt.Fprintf(w, "   %-11s %9s %9s  %-27s %9s %9s %8s %8s %12s %10s\n",
		"language", "hook p50", "p95", "baseline", "p50", "p95", "÷ p50", "÷ p95", "first touch", "overhead")
	for _, l := range langs {
		if l.skipped != "" {
			fmt.Fprintf(w, "   %-11s skipped\n", l.spec.name)
			continue
		}
		ov := fmtDur(l.overhead.s.median())
		if l.settleIn {
			ov += "*"
		}
		fmt.Fprintf(w, "   %-11s %9s %9s  %-27s %9s %9s %8s %8s %12s %10s  %s\n", l.spec.name,
			fmtDur(l.hook.s.median()), fmtDur(l.hook.s.p95()), cut(strings.Join(l.cmd.argv, " "), 27),
			fmtDur(l.base.s.median()), fmtDur(l.base.s.p95()),
			fmtRatio(l.speedup(samples.median)), fmtRatio(l.speedup(samples.p95)),
			fmtFirst(l.hook), ov, verdict(l.overheadMet()))
	}
	for _, l := range langs {
		if l.settleIn {
			fmt.Fprintln(w, "   * settle included: no server_ms in the daemon log; overhead is hook − elapsed_ms")
			break
		}
	}
}

// cut shortens s to n characters, marking the cut with "…".
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
