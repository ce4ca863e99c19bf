package main

import (
	"fmt"
	"io"
	"time"
)

// writePrewarm prints section 8, when it ran: the first edits against the
// warm p50 per language, where the first edits' time went by the daemon
// log, and the SessionStart hook's own wall time.
func writePrewarm(w io.Writer, res *prewarmResult) {
	if res == nil {
		return
	}
	fmt.Fprintln(w, "\n8. First edit of a session, with and without prewarm (issue 16), on fresh copies of testdata/langs")
	fmt.Fprintln(w, "   Each first edit is a type error in a fresh copy of the project, with a fresh daemon, stopped after it.")
	fmt.Fprintln(w, "   no prewarm: no daemon running, the edit's hook starts it and the server. +2 s, +10 s: the Claude Code")
	fmt.Fprintln(w, "   SessionStart hook (no daemon running: it starts `serve --prewarm` detached), then the first edit that")
	fmt.Fprintf(w, "   long after. warm: p50 of %d edits in the no-prewarm copy, each once its daemon is idle. ×: first ÷ warm p50.\n", prewarmWarmN)
	fmt.Fprintln(w, "   One run of each first edit, the prewarmed copies first (the server's first read from disk is theirs).")
	fmt.Fprintf(w, "   section wall time %s\n", fmtDur(res.took))
	fmt.Fprintf(w, "   %-11s %9s %10s %7s %10s %7s %10s %7s   goal ≤ %g× at %s\n", "language", "warm p50",
		"no prewarm", "×", "+2 s", "×", "+10 s", "×", goalPrewarmRatio, fmtSecs(prewarmDelays[len(prewarmDelays)-1]))
	for _, l := range res.langs {
		line := fmt.Sprintf("   %-11s %9s %10s %7s", l.spec.name, fmtDur(l.warm.s.median()), fmtDur(l.cold.wall), fmtRatio(l.ratio(l.cold)))
		for _, f := range l.after {
			line += fmt.Sprintf(" %10s %7s", fmtDur(f.wall), fmtRatio(l.ratio(f)))
		}
		fmt.Fprintf(w, "%s   %s\n", line, verdict(l.prewarmMet()))
	}
	writePrewarmServer(w, res.langs)
	writeSessionStart(w, res)
	for _, l := range res.langs {
		for _, f := range append([]firstEdit{l.cold}, l.after...) {
			if f.problem != "" {
				fmt.Fprintf(w, "   ! %s first edit: %s\n", l.spec.name, f.problem)
			}
		}
		if l.warm.bad > 0 {
			fmt.Fprintf(w, "   ! %s warm edits: %d of %d answers wrong; %s\n", l.spec.name, l.warm.bad, len(l.warm.s), l.warm.badNote)
		}
	}
	for _, n := range res.notes {
		fmt.Fprintln(w, "   ! stopping a daemon:", n)
	}
}

// writePrewarmServer prints, per language and first edit, the server's
// part by the daemon log: the "server checked" record's elapsed_ms (the
// server's start, where it was not done yet, and the settle window
// included) and its server_ms (change sent → the document fresh).
func writePrewarmServer(w io.Writer, langs []prewarmLang) {
	fmt.Fprintln(w, "   the server's part of each first edit, daemon log: wait for the server, its start included where it was")
	fmt.Fprintln(w, "   not done, settle included (elapsed_ms) / of which the document's check, change sent → fresh (server_ms)")
	for _, l := range langs {
		line := fmt.Sprintf("   %-11s %9s", l.spec.name, "")
		for _, f := range append([]firstEdit{l.cold}, l.after...) {
			line += fmt.Sprintf(" %18s", fmtLogged(f.times.server)+" / "+fmtLogged(f.times.serverOnly))
		}
		fmt.Fprintln(w, line)
	}
}

// writeSessionStart prints the SessionStart hook's wall time, p50 over
// every language's copies, then per language.
func writeSessionStart(w io.Writer, res *prewarmResult) {
	var cold, warm samples
	for _, l := range res.langs {
		cold, warm = append(cold, l.startCold...), append(warm, l.startWarm...)
	}
	fmt.Fprintf(w, "   SessionStart hook, wall time p50: %s with no daemon running (n=%d, one per fresh copy), %s to the running\n",
		fmtDur(cold.median()), len(cold), fmtDur(warm.median()))
	fmt.Fprintf(w, "   daemon (n=%d); `lsp-hook version`, a bare process start, right before each: %s (n=%d); ÷: %s and %s\n",
		len(warm), fmtDur(res.version.median()), len(res.version), fmtRatio(ratio(cold, res.version)), fmtRatio(ratio(warm, res.version)))
	for _, l := range res.langs {
		fmt.Fprintf(w, "     %-11s no daemon %s, max %s; running daemon %s, max %s\n", l.spec.name,
			fmtDur(l.startCold.median()), fmtDur(l.startCold.maximum()), fmtDur(l.startWarm.median()), fmtDur(l.startWarm.maximum()))
	}
}

// fmtLogged is fmtDur of logged milliseconds; "?" when the record was
// missing (-1).
func fmtLogged(ms float64) string {
	if ms < 0 {
		return "?"
	}
	if ms == 0 {
		return "0 ms"
	}
	return fmtDur(msDuration(ms))
}

// fmtSecs is d as whole seconds, "10 s".
func fmtSecs(d time.Duration) string { return fmt.Sprintf("%d s", d/time.Second) }

// goals are section 8's goal rows: per language, the first edit at the
// last of prewarmDelays after SessionStart ÷ the warm p50 (≤
// goalPrewarmRatio), then the SessionStart hook with no daemon running
// against a bare process start, held to the goal of any hook round trip
// (goalJSONRatio: the hook's ordinary few-ms range). Not measured when the
// section did not run.
func (res *prewarmResult) goals() []goalRow {
	last := fmtSecs(prewarmDelays[len(prewarmDelays)-1])
	edit := fmt.Sprintf("first edit %s after SessionStart ÷ warm edit p50", last)
	start := "SessionStart hook p50, no daemon running ÷ `lsp-hook version` p50"
	editGoal, startGoal := fmt.Sprintf("≤ %g×", goalPrewarmRatio), fmt.Sprintf("≤ %g×", goalJSONRatio)
	if res == nil || len(res.langs) == 0 {
		return []goalRow{missing(edit+", each language", editGoal), missing(start, startGoal)}
	}
	var rows []goalRow
	var cold samples
	for _, l := range res.langs {
		f := l.after[len(l.after)-1]
		measured := fmtDur(f.wall)
		if f.problem != "" {
			measured += " (wrong answer)"
		}
		rows = append(rows, goalRow{edit + ", " + l.spec.name, measured, fmtDur(l.warm.s.median()),
			fmtRatio(l.ratio(f)), editGoal, judge(l.prewarmMet()), ""})
		cold = append(cold, l.startCold...)
	}
	x := ratio(cold, res.version)
	return append(rows, goalRow{start, fmtDur(cold.median()), fmtDur(res.version.median()), fmtRatio(x), startGoal,
		judge(x <= goalJSONRatio), ""})
}

// figures are section 8's figures without a goal: per language, the first
// edit without prewarm and at the first of prewarmDelays, ÷ the warm p50.
func (res *prewarmResult) figures() []goalRow {
	if res == nil {
		return nil
	}
	var rows []goalRow
	for _, l := range res.langs {
		rows = append(rows, goalRow{
			metric:   fmt.Sprintf("first edit without prewarm · %s after SessionStart ÷ warm edit p50, %s", fmtSecs(prewarmDelays[0]), l.spec.name),
			measured: fmtDur(l.cold.wall) + " · " + fmtDur(l.after[0].wall), baseline: fmtDur(l.warm.s.median()),
			ratio: fmtRatio(l.ratio(l.cold)) + " · " + fmtRatio(l.ratio(l.after[0])),
		})
	}
	return rows
}
