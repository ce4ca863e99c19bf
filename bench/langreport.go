package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// writeLangs prints part 3: one table per language, then a summary.
func writeLangs(w io.Writer, langs []langResult) {
	fmt.Fprintln(w, "\n3. Warm edit → lint block per live language, on the projects of testdata/langs (one workspace each)")
	fmt.Fprintln(w, "   Each run appends one line to the caller (a type error on even runs, its fix on odd ones, a new")
	fmt.Fprintln(w, "   value each run), runs the hook, then the command a hook-writer would otherwise run per edit,")
	fmt.Fprintln(w, "   on the same content, once the daemon's processes are idle. \"server\": the server's own time from the")
	fmt.Fprintln(w, "   daemon log, server_ms of the request's \"server checked\" record (change sent → last changed document")
	fmt.Fprintln(w, "   fresh, no settle). Overhead in all: hook wall − server, per run, = (a) + (b) + (c) (overhead.go):")
	fmt.Fprintln(w, "   (a) the daemon's processing, its notify_change elapsed_ms − server_ms − the settle window (goal ≤ 5 ms),")
	fmt.Fprintln(w, "   split by the \"server checked\" elapsed_ms into around the server (acquiring it, the watcher sync, the")
	fmt.Fprintln(w, "   settle wait's overrun, collecting) and after the servers (validators, merge, lint block); (b) the")
	fmt.Fprintln(w, "   settle window as set for an Edit: the daemon does not log its wait, so what the wait ran over stays")
	fmt.Fprintln(w, "   in (a); (c) the hook process and its socket round trip, hook wall − notify_change elapsed_ms, split")
	fmt.Fprintln(w, "   by the hook's own record. Logged times are whole milliseconds, truncated: each part is ±1 ms.")
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
	rows := append([]row{l.hook, server, l.overhead}, l.breakdown.rows()...)
	writeTable(w, percentileCols, append(rows, l.base)...)
	fmt.Fprintf(w, "   → %-*s %4s %10s %10s\n", labelWidth-2, "baseline ÷ hook", "",
		fmtRatio(l.speedup(samples.median)), fmtRatio(l.speedup(samples.p95)))
	fmt.Fprintf(w, "   → daemon processing (a) at p50: %s   goal ≤ %s: %s\n", fmtSample(l.process.s, l.process.s.median()),
		fmtDur(goalOverhead), verdict(l.processMet()))
	if l.settleIn {
		fmt.Fprintln(w, "     settle included: the daemon logs no server_ms, so \"server\" is the \"server checked\" record's")
		fmt.Fprintln(w, "     elapsed_ms, settle window and all, and (a) is the daemon's time beyond it")
	} else if l.spec.settle > 0 {
		fmt.Fprintf(w, "     (b): the settle window for an edit shown errors-only (config.Server.SettleFor), %s\n", fmtDur(l.spec.settle))
	} else {
		fmt.Fprintf(w, "     (b): no settle window: %s says when its answer is complete (config.Server.DoneSignal)\n", l.spec.server)
	}
	answerLine(w, l.lint)
}

// speedup is the baseline's stat over the hook's.
func (l langResult) speedup(stat func(samples) time.Duration) float64 {
	return pRatio(stat(l.base.s), stat(l.hook.s))
}

// writeLangSummary prints one line per language measured: the hook and the
// baseline at p50 and p95, their ratio, the first touch, the daemon's
// processing (a) against its goal and the overhead in all.
func writeLangSummary(w io.Writer, langs []langResult) {
	fmt.Fprintln(w, "\n3. Summary (baseline ÷ hook: how many times faster the hook answers; (a) daemon processing, goal ≤ 5 ms")
	fmt.Fprintln(w, "   at p50; overhead in all: hook − server, (a) + (b) + (c); first touch: the untimed first edit, which")
	fmt.Fprintln(w, "   starts the daemon and the server and waits for its initial load)")
	fmt.Fprintf(w, "   %-11s %9s %9s  %-27s %9s %9s %8s %8s %12s %10s %9s\n",
		"language", "hook p50", "p95", "baseline", "p50", "p95", "÷ p50", "÷ p95", "first touch", "(a)", "in all")
	for _, l := range langs {
		if l.skipped != "" {
			fmt.Fprintf(w, "   %-11s skipped\n", l.spec.name)
			continue
		}
		ov := fmtDur(l.overhead.s.median())
		if l.settleIn {
			ov += "*"
		}
		fmt.Fprintf(w, "   %-11s %9s %9s  %-27s %9s %9s %8s %8s %12s %10s %9s  %s\n", l.spec.name,
			fmtDur(l.hook.s.median()), fmtDur(l.hook.s.p95()), cut(strings.Join(l.cmd.argv, " "), 27),
			fmtDur(l.base.s.median()), fmtDur(l.base.s.p95()),
			fmtRatio(l.speedup(samples.median)), fmtRatio(l.speedup(samples.p95)),
			fmtFirst(l.hook), fmtSample(l.process.s, l.process.s.median()), ov, verdict(l.processMet()))
	}
	for _, l := range langs {
		if l.settleIn {
			fmt.Fprintln(w, "   * settle included: no server_ms in the daemon log; the server's time is its elapsed_ms")
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
