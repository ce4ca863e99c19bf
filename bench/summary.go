package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Goals of issue 7 ("Goals the benchmark should show"), checked in the
// summary and in the sections' verdict lines.
const (
	goalJSONRatio = 3.0 // hook round trip ≤ 3 × a bare process start, medians

	// goalGoRatio: a warm Go edit through the hook is ≥ 10 × faster than
	// go build ./... on the module of ≥ minLargeLines lines, comparing the
	// medians after type-error edits and after fixes, each.
	goalGoRatio = 10.0

	// goalOverhead is the daemon's own processing per warm edit at p50,
	// from the daemon log: its time on the request less the server's own
	// and the settle window (overhead.go).
	goalOverhead = 5 * time.Millisecond

	// goalDaemonMB is the daemon's VmRSS alone, its children not counted,
	// in MB (10⁶ bytes).
	goalDaemonMB = 30.0

	goalBurstRatio = 3.0 // p99 ≤ 3 × p50 of burstHooks hooks started at once
)

// verdictKind is what a summary row says about its goal.
type verdictKind int

const (
	noGoal      verdictKind = iota // a figure to read, with no goal
	goalMet                        // measured, and the goal is met
	goalNotMet                     // measured, and the goal is not met
	notMeasured                    // its section did not run, or failed before it
)

// String is the verdict column: "met", "NOT met", "not measured", or ""
// for a row without a goal.
func (v verdictKind) String() string {
	switch v {
	case goalMet:
		return "met"
	case goalNotMet:
		return "NOT met"
	case notMeasured:
		return "not measured"
	}
	return ""
}

// judge is goalMet when met holds, else goalNotMet.
func judge(met bool) verdictKind {
	if met {
		return goalMet
	}
	return goalNotMet
}

// goalRow is one line of the summary: a metric, its figure, what it is
// compared with, the ratio between them (the metric names its direction),
// the goal ("" for a figure to read) and the verdict; detail, when not "",
// is a sentence printed under the table. Figures are formatted: times in
// ms, memory in MiB.
type goalRow struct {
	metric   string
	measured string
	baseline string
	ratio    string
	goal     string
	verdict  verdictKind
	detail   string
}

// missing is the row of a goal whose section did not run.
func missing(metric, goal string) goalRow {
	return goalRow{metric: metric, measured: "-", baseline: "-", ratio: "-", goal: goal, verdict: notMeasured}
}

// summary is every goal row of issues 7 and 16, in the order of the sections, some
// followed by figures without a goal that belong with them (go vet beside
// go build; the settle window, the hook process and the overhead in all
// beside the daemon's processing), then the figures the issue asks for
// without a goal (per-language baselines, first touches, servers' memory).
// A goal whose section did not run is still there, marked not measured.
func (r *report) summary() []goalRow {
	rows := append([]goalRow{jsonGoal(r.json)}, largeGoRows(r.goRuns)...)
	var version samples
	if r.json != nil {
		version = r.json.version.s
	}
	rows = append(rows, overheadRows(r.langs, version)...)
	rows = append(rows, r.load.goals()...)
	rows = append(rows, r.prewarm.goals()...)
	rows = append(rows, langFigures(r.langs)...)
	rows = append(rows, r.load.figures()...)
	return append(rows, r.prewarm.figures()...)
}

// jsonGoal is the hook round trip against `lsp-hook version`.
func jsonGoal(j *jsonResult) goalRow {
	const metric = "hook round trip, JSON edit, daemon warm: hook p50 ÷ `lsp-hook version` p50"
	g := fmt.Sprintf("≤ %g×", goalJSONRatio)
	if j == nil || len(j.hook.s) == 0 || len(j.version.s) == 0 {
		return missing(metric, g)
	}
	x := ratio(j.hook.s, j.version.s)
	return goalRow{metric, fmtDur(j.hook.s.median()), fmtDur(j.version.s.median()), fmtRatio(x), g, judge(x <= goalJSONRatio), ""}
}

// largeGoRows are, per large workspace measured (≥ minLargeLines), the
// goal rows of go build ÷ hook after type-error edits and after fixes,
// then go vet of the edited package ÷ hook, all edits, without a goal. When
// none was measured, the two goal rows are there, not measured.
func largeGoRows(runs []goResult) []goalRow {
	g := fmt.Sprintf("≥ %g×", goalGoRatio)
	var rows []goalRow
	for _, run := range runs {
		if run.ws.lines < minLargeLines {
			continue
		}
		about := fmt.Sprintf("%s (%dk lines, %s)", run.ws.name, run.ws.lines/1000, plural(run.ws.graph.packages, "package"))
		detail := ""
		if gr := run.ws.graph; gr.importers > 0 {
			detail = run.ws.name + ": " + run.ws.graphSentence()
			if gr.imports > 0 && gr.importers < gr.packages-1 {
				detail += ": in the middle of the import graph, neither a leaf nor the root of everything"
			}
		}
		for _, k := range []struct {
			name string
			of   func(row) samples
		}{{"type error", afterErrs}, {"fix", afterFixes}} {
			metric := fmt.Sprintf("warm Go edit (%s), %s: `go build ./...` p50 ÷ hook p50", k.name, about)
			if len(k.of(run.hook)) == 0 || len(k.of(run.build)) == 0 {
				rows = append(rows, missing(metric, g))
				continue
			}
			x := ratio(k.of(run.build), k.of(run.hook))
			rows = append(rows, goalRow{metric, fmtDur(k.of(run.hook).median()), fmtDur(k.of(run.build).median()), fmtRatio(x), g, judge(x >= goalGoRatio), detail})
			detail = ""
		}
		if len(run.vet.s) > 0 {
			rows = append(rows, goalRow{
				metric:   fmt.Sprintf("warm Go edit (all edits), %s: `go vet %s` p50 ÷ hook p50", about, run.ws.pkgArg()),
				measured: fmtDur(run.hook.s.median()), baseline: fmtDur(run.vet.s.median()), ratio: fmtRatio(ratio(run.vet.s, run.hook.s)),
			})
		}
	}
	if len(rows) == 0 {
		for _, kind := range []string{"type error", "fix"} {
			rows = append(rows, missing(fmt.Sprintf("warm Go edit (%s), module ≥ %dk lines: `go build ./...` ÷ hook", kind, minLargeLines/1000), g))
		}
	}
	return rows
}

// langFigures is, per language measured, the warm edit against the
// hook-writer's command and the first touch (cold) against the warm p50.
func langFigures(langs []langResult) []goalRow {
	var edits, firsts []goalRow
	for _, l := range langs {
		if l.skipped != "" || len(l.hook.s) == 0 {
			continue
		}
		edits = append(edits, goalRow{
			metric:   fmt.Sprintf("warm edit, %s: `%s` p50 ÷ hook p50", l.spec.name, strings.Join(l.cmd.argv, " ")),
			measured: fmtDur(l.hook.s.median()), baseline: fmtDur(l.base.s.median()), ratio: fmtRatio(l.speedup(samples.median)),
		})
		if l.hook.hasFirst {
			first := fmtDur(l.hook.first)
			if strings.HasPrefix(l.hook.badNote, "run 0:") {
				first += " (wrong answer)" // e.g. the server's first-touch deadline passed
			}
			firsts = append(firsts, goalRow{
				metric:   fmt.Sprintf("first touch (cold), %s: daemon + %s start, ÷ warm p50", l.spec.name, l.spec.server),
				measured: first, baseline: fmtDur(l.hook.s.median()), ratio: fmtRatio(pRatio(l.hook.first, l.hook.s.median())),
			})
		}
	}
	return append(edits, firsts...)
}

// goals are the memory and burst goal rows of section 7.
func (res *loadResult) goals() []goalRow {
	daemon := fmt.Sprintf("daemon RSS alone, %d servers active", len(langSpecs))
	peak := fmt.Sprintf("daemon peak RSS alone (VmHWM), after %d hooks at once", burstHooks)
	spread := fmt.Sprintf("%d hooks at once: p99 ÷ p50", burstHooks)
	failures := fmt.Sprintf("%d hooks at once: failed · timed out · wrong answer", burstHooks)
	rssGoal := fmt.Sprintf("≤ %g MB (%.1f MiB)", goalDaemonMB, goalDaemonMB*1e6/(1<<20))
	spreadGoal := fmt.Sprintf("≤ %g×", goalBurstRatio)
	if res == nil || res.idle.daemon.pid == 0 {
		return []goalRow{missing(daemon, rssGoal), missing(peak, rssGoal), missing(spread, spreadGoal), missing(failures, "0 · 0 · 0")}
	}
	rows := []goalRow{
		{daemon, fmtMiB(res.idle.daemon.rss), "-", "-", rssGoal, judge(underMB(res.idle.daemon.rss, goalDaemonMB)), ""},
		missing(peak, rssGoal), missing(spread, spreadGoal), missing(failures, "0 · 0 · 0"),
	}
	if res.after.daemon.pid != 0 {
		rows[1] = goalRow{peak, fmtMiB(res.after.daemon.peak), "-", "-", rssGoal, judge(underMB(res.after.daemon.peak, goalDaemonMB)), ""}
	}
	if len(res.burst) > 0 {
		rows[2] = goalRow{spread, fmtDur(res.burst.p99()), fmtDur(res.burst.median()),
			fmtRatio(pRatio(res.burst.p99(), res.burst.median())), spreadGoal, judge(res.burstMet()), ""}
	}
	if res.errs+len(res.burst) > 0 {
		rows[3] = goalRow{failures, fmt.Sprintf("%d · %d · %d", res.errs, res.timeout, res.wrong), "-", "-", "0 · 0 · 0",
			judge(res.errs+res.timeout+res.wrong == 0), ""}
		if len(res.tally) > 0 {
			rows[3].detail = fmt.Sprintf("%d hooks at once: %s", burstHooks, strings.Join(res.tally, "; "))
		}
	}
	return rows
}

// figures are section 7's figures without a goal: the servers' and the
// whole tree's memory, and the burst's p50 against one hook at a time.
func (res *loadResult) figures() []goalRow {
	if res == nil || res.idle.daemon.pid == 0 {
		return nil
	}
	rows := []goalRow{{
		metric:   fmt.Sprintf("RSS of the %d servers · of the whole process tree (daemon, servers, their children)", len(res.idle.servers)),
		measured: fmtMiB(res.idle.serversRSS()) + " · " + fmtMiB(res.idle.treeRSS()), baseline: "-", ratio: "-",
	}}
	if len(res.burst) > 0 && len(res.seq.s) > 0 {
		rows = append(rows, goalRow{
			metric:   fmt.Sprintf("%d hooks at once p50 ÷ one hook at a time p50 (the same %d files)", burstHooks, res.files),
			measured: fmtDur(res.burst.median()), baseline: fmtDur(res.seq.s.median()), ratio: fmtRatio(ratio(res.burst, res.seq.s)),
		})
	}
	return rows
}

// underMB reports whether kib KiB is at most mb MB (10⁶ bytes).
func underMB(kib int64, mb float64) bool { return float64(kib)*1024 <= mb*1e6 }

// fmtMiB prints KiB as MiB with one decimal.
func fmtMiB(kib int64) string { return fmt.Sprintf("%.1f MiB", mib(kib)) }

// summaryHead is the summary's column heads.
var summaryHead = []string{"metric", "measured", "baseline", "ratio", "goal", "verdict"}

// cells is the row's columns, in summaryHead's order, "-" for nothing.
func (g goalRow) cells() []string {
	return []string{g.metric, g.measured, orDefault(g.baseline, "-"), orDefault(g.ratio, "-"), orDefault(g.goal, "-"), orDefault(g.verdict.String(), "-")}
}

// writeSummary prints the summary as an aligned text table.
func writeSummary(w io.Writer, rows []goalRow) {
	fmt.Fprintln(w, "\nSummary: the goals of issues 7 and 16 first, some followed by figures without a goal that belong")
	fmt.Fprintln(w, "with them (the other parts of the hook's time beyond the server's), then the other figures. \"measured\"")
	fmt.Fprintln(w, "is lsp-hook's figure, \"baseline\" what it is compared with; each metric names its ratio, of p50s")
	fmt.Fprintln(w, "(medians) of runs interleaved in this one run.")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "   "+strings.Join(summaryHead, "\t"))
	for _, g := range rows {
		fmt.Fprintln(tw, "   "+strings.Join(g.cells(), "\t"))
	}
	tw.Flush()
	for _, d := range summaryDetails(rows) {
		fmt.Fprintf(w, "   · %s\n", d)
	}
}

// summaryDetails are the rows' details, in order.
func summaryDetails(rows []goalRow) []string {
	var out []string
	for _, g := range rows {
		if g.detail != "" {
			out = append(out, g.detail)
		}
	}
	return out
}
