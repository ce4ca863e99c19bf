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

	// goalOverhead is the daemon's own overhead per warm edit at p50: the
	// hook's wall time minus the server's, from the daemon log.
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

// summary is every goal row of issue 7, in the order of the sections, then
// the figures the issue asks for without a goal (per-language baselines,
// first touches, servers' memory). A goal whose section did not run is
// still there, marked not measured.
func (r *report) summary() []goalRow {
	rows := []goalRow{jsonGoal(r.json), largeGoGoal(r.goRuns, afterErrs, "type error"), largeGoGoal(r.goRuns, afterFixes, "fix")}
	rows = append(rows, overheadGoals(r.langs)...)
	rows = append(rows, r.load.goals()...)
	rows = append(rows, langFigures(r.langs)...)
	return append(rows, r.load.figures()...)
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

// largeGoGoal is go build ÷ hook on the large module, for the runs after
// one kind of edit (of picks them: afterErrs, afterFixes).
func largeGoGoal(runs []goResult, of func(row) samples, kind string) goalRow {
	g := fmt.Sprintf("≥ %g×", goalGoRatio)
	for _, run := range runs {
		if run.ws.lines < minLargeLines || len(of(run.hook)) == 0 || len(of(run.build)) == 0 {
			continue
		}
		metric := fmt.Sprintf("warm Go edit (%s), %dk-line module: `go build ./...` p50 ÷ hook p50", kind, run.ws.lines/1000)
		x := ratio(of(run.build), of(run.hook))
		return goalRow{metric, fmtDur(of(run.hook).median()), fmtDur(of(run.build).median()), fmtRatio(x), g, judge(x >= goalGoRatio), ""}
	}
	return missing(fmt.Sprintf("warm Go edit (%s), module ≥ %dk lines: `go build ./...` ÷ hook", kind, minLargeLines/1000), g)
}

// overheadGoals is one row per language measured: the daemon's overhead
// over the server's own time at p50 (hook ÷ server as the ratio).
func overheadGoals(langs []langResult) []goalRow {
	g := fmt.Sprintf("≤ %g ms", goalOverhead.Seconds()*1000)
	var rows []goalRow
	for _, l := range langs {
		metric := fmt.Sprintf("daemon overhead, %s: p50 of (hook − server's own time); ratio hook ÷ server", l.spec.name)
		if l.settleIn {
			metric += " (settle window included in the server's)"
		}
		if l.skipped != "" || len(l.overhead.s) == 0 {
			rows = append(rows, missing(metric, g))
			continue
		}
		rows = append(rows, goalRow{metric, fmtSample(l.overhead.s, l.overhead.s.median()), fmtSample(l.server.s, l.server.s.median()),
			fmtRatio(ratio(l.hook.s, l.server.s)), g, judge(l.overheadMet()), l.overheadParts()})
	}
	if len(rows) == 0 {
		rows = append(rows, missing("daemon overhead over the server's own time, p50", g))
	}
	return rows
}

// overheadParts is the p50 of each part of the overhead the log tells
// apart ("Go overhead, p50 of each part: settle 15.0 ms, …"), or "" when
// it does not.
func (l langResult) overheadParts() string {
	var parts []string
	for _, p := range []struct {
		name string
		r    row
	}{{"settle", l.settle}, {"daemon", l.daemon}, {"socket+render", l.ipc}, {"hook process", l.proc}} {
		if len(p.r.s) > 0 {
			parts = append(parts, p.name+" "+fmtSample(p.r.s, p.r.s.median()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return l.spec.name + " overhead, p50 of each part: " + strings.Join(parts, ", ")
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
	fmt.Fprintln(w, "\nSummary: issue 7's goals first, then figures without a goal. \"measured\" is lsp-hook's figure,")
	fmt.Fprintln(w, "\"baseline\" what it is compared with; each metric names its ratio, of p50s (medians) of runs")
	fmt.Fprintln(w, "interleaved in this one run.")
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
