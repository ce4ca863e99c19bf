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
	fmt.Fprintf(w, "   long after, %d runs each, interleaved, on copies where the user touched last (its newest file, the one\n", prewarmRuns)
	fmt.Fprintln(w, "   prewarm checks) the edited file, or another file (of another package, module or translation unit).")
	fmt.Fprintf(w, "   warm: p50 of %d edits in the no-prewarm copy, each once its daemon is idle. ×: first edits' p50 ÷ warm p50.\n", prewarmWarmN)
	fmt.Fprintf(w, "   section wall time %s\n", fmtDur(res.took))
	fmt.Fprintf(w, "   %-11s %-26s %9s %10s %7s %10s %7s %10s %7s   goal ≤ %g× at %s\n", "language", "touched last", "warm p50",
		"no prewarm", "×", "+2 s", "×", "+10 s", "×", goalPrewarmRatio, fmtSecs(prewarmDelays[len(prewarmDelays)-1]))
	for _, l := range res.langs {
		for c, pc := range prewarmCases {
			line := fmt.Sprintf("   %-11s %-26s %9s %10s %7s", l.spec.name, pc.label, fmtDur(l.warm.s.median()), fmtDur(l.cold.wall), fmtRatio(l.ratio(l.cold.wall)))
			if c > 0 {
				line = fmt.Sprintf("   %-11s %-26s %9s %10s %7s", "", pc.label, "", "", "")
			}
			for _, fs := range l.after[c] {
				line += fmt.Sprintf(" %10s %7s", fmtDur(fs.wall()), fmtRatio(l.ratio(fs.wall())))
			}
			fmt.Fprintf(w, "%s   %s\n", line, verdict(l.prewarmMet(c)))
		}
	}
	writePrewarmServer(w, res.langs)
	writeSessionStart(w, res)
	for _, l := range res.langs {
		if l.cold.problem != "" {
			fmt.Fprintf(w, "   ! %s first edit without prewarm: %s\n", l.spec.name, l.cold.problem)
		}
		for c, pc := range prewarmCases {
			for i, fs := range l.after[c] {
				for _, f := range fs {
					if f.problem != "" {
						fmt.Fprintf(w, "   ! %s first edit %s after SessionStart, %s: %s\n", l.spec.name, fmtSecs(prewarmDelays[i]), pc.label, f.problem)
					}
				}
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
// included) and its server_ms (change sent → the document fresh), the
// runs' medians for the prewarmed first edits.
func writePrewarmServer(w io.Writer, langs []prewarmLang) {
	fmt.Fprintln(w, "   the server's part of each first edit, daemon log: wait for the server, its start included where it was")
	fmt.Fprintln(w, "   not done, settle included (elapsed_ms) / of which the document's check, change sent → fresh (server_ms)")
	for _, l := range langs {
		for c, pc := range prewarmCases {
			cold := fmtLogged(l.cold.times.server) + " / " + fmtLogged(l.cold.times.serverOnly)
			name := l.spec.name
			if c > 0 {
				cold, name = "", ""
			}
			line := fmt.Sprintf("   %-11s %-26s %18s", name, pc.label, cold)
			for _, fs := range l.after[c] {
				t := fs.times()
				line += fmt.Sprintf(" %18s", fmtLogged(t.server)+" / "+fmtLogged(t.serverOnly))
			}
			fmt.Fprintln(w, line)
		}
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

// goals are section 8's goal rows: per language and case, the first
// edits at the last of prewarmDelays after SessionStart, p50 ÷ the warm
// p50 (≤ goalPrewarmRatio), then the SessionStart hook with no daemon
// running against a bare process start, held to the goal of any hook
// round trip (goalJSONRatio: the hook's ordinary few-ms range). Not
// measured when the section did not run.
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
		for c, pc := range prewarmCases {
			fs := l.last(c)
			measured := fmtDur(fs.wall())
			if !fs.right() {
				measured += " (wrong answer)"
			}
			rows = append(rows, goalRow{edit + ", " + l.spec.name + ", " + pc.label, measured, fmtDur(l.warm.s.median()),
				fmtRatio(l.ratio(fs.wall())), editGoal, judge(l.prewarmMet(c)), ""})
		}
		cold = append(cold, l.startCold...)
	}
	x := ratio(cold, res.version)
	return append(rows, goalRow{start, fmtDur(cold.median()), fmtDur(res.version.median()), fmtRatio(x), startGoal,
		judge(x <= goalJSONRatio), ""})
}

// figures are section 8's figures without a goal: per language, the first
// edit without prewarm and, per case, at the first of prewarmDelays, ÷
// the warm p50.
func (res *prewarmResult) figures() []goalRow {
	if res == nil {
		return nil
	}
	var rows []goalRow
	for _, l := range res.langs {
		measured, ratios := fmtDur(l.cold.wall), fmtRatio(l.ratio(l.cold.wall))
		for c := range prewarmCases {
			fs := l.after[c][0]
			measured += " · " + fmtDur(fs.wall())
			ratios += " · " + fmtRatio(l.ratio(fs.wall()))
		}
		rows = append(rows, goalRow{
			metric: fmt.Sprintf("first edit without prewarm · %s after SessionStart (edited file · another file last touched) ÷ warm edit p50, %s",
				fmtSecs(prewarmDelays[0]), l.spec.name),
			measured: measured, baseline: fmtDur(l.warm.s.median()), ratio: ratios,
		})
	}
	return rows
}
