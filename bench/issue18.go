package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Issue 18's table ("Performance at the server's own latency, a peer in the
// benchmark, and memory bounded across many worktree sessions"): every
// row as a ratio measured in this run, beside the figure the issue was
// filed with, its goal and the verdict. Rows come from sections 1 (JSON),
// 3 (hook − server), 9 (the peer), 10 (Write vs Edit), 3 and 11 (C vs
// clang), 12 (gopls RSS) and 13 (worktrees).

// Goals of issue 18.
const (
	goal18JSON     = 1.2                  // JSON edit hook ÷ `lsp-hook version`, p50s
	goal18Overhead = 5 * time.Millisecond // hook − server's own time, p50, each language
	goal18Peer     = 5.0                  // warm edit, the peer ÷ lsp-hook, p50s, each language
	goal18Clang    = 1.0                  // `clang -fsyntax-only` ÷ warm C edit, p50s
	goal18GoplsRSS = 1.0                  // our gopls ÷ plain gopls, RSS
)

// measureIssue18 runs sections 9 to 13, those -only selects, filling rep.
func measureIssue18(ctx context.Context, b *bench, rep *report) error {
	var err error
	if b.opts.runs(secPeer) {
		rep.peer = &peerResult{}
		if err = b.peerSection(ctx, rep.peer); err != nil {
			return err
		}
	}
	if b.opts.runs(secWrite) {
		rep.writeEdit = &writeResult{}
		if err = b.writeSection(ctx, rep.writeEdit); err != nil {
			return err
		}
	}
	if b.opts.runs(secCFile) {
		res, err := b.cFileSection(ctx)
		if res.skipped != "" || len(res.hook.s) > 0 || err == nil {
			rep.cfile = &res
		}
		if err != nil {
			return fmt.Errorf("C edits on testregex.c: %w", err)
		}
	}
	if b.opts.runs(secGoplsMem) {
		rep.goplsMem = &goplsMemResult{}
		if err = b.goplsMemSection(ctx, rep.goplsMem); err != nil {
			return err
		}
	}
	if b.opts.runs(secWorktrees) {
		rep.trees = &worktreesResult{}
		err = b.worktreesSection(ctx, rep.trees)
	}
	return err
}

// row18 is one line of issue 18's table: the figure, what the issue
// measured when it was filed, what this run measured, the goal and the
// verdict (noGoal: a figure without a goal in this table).
type row18 struct {
	figure  string
	filed   string
	now     string
	goal    string
	verdict verdictKind
}

// issue18 is the table's rows, in the issue's order; a row whose section
// did not run is there, not measured.
func (r *report) issue18() []row18 {
	rows := []row18{r.json18()}
	rows = append(rows, overhead18(r.langs)...)
	rows = append(rows, r.write18())
	rows = append(rows, r.peer18()...)
	rows = append(rows, r.clang18()...)
	rows = append(rows, r.gopls18(), r.trees18())
	return rows
}

// json18 is the JSON edit's hook ÷ `lsp-hook version`.
func (r *report) json18() row18 {
	row := row18{figure: "JSON edit hook ÷ `lsp-hook version`, p50", filed: "1.24–1.40×",
		goal: fmt.Sprintf("≤ %g×", goal18JSON), verdict: notMeasured, now: "-"}
	if j := r.json; j != nil && len(j.hook.s) > 0 && len(j.version.s) > 0 {
		x := ratio(j.hook.s, j.version.s)
		row.now = fmt.Sprintf("%s (%s ÷ %s)", fmtRatio(x), fmtDur(j.hook.s.median()), fmtDur(j.version.s.median()))
		row.verdict = judge(x <= goal18JSON)
	}
	return row
}

// overhead18 is hook wall − the server's own time (server_ms), p50, per
// language of part 3.
func overhead18(langs []langResult) []row18 {
	filed := map[string]string{"go": "25 ms", "py": "25 ms", "ts": "10 ms", "c": "25 ms"}
	var rows []row18
	for _, l := range langs {
		if l.skipped != "" || len(l.overhead.s) == 0 {
			continue
		}
		d := l.overhead.s.median()
		now := fmtSample(l.overhead.s, d)
		if l.settleIn {
			now += " (settle included: no server_ms)"
		}
		rows = append(rows, row18{figure: "hook − server's own time (daemon log), p50, " + l.spec.name, filed: filed[l.spec.key],
			now: now, goal: "≤ " + fmtDur(goal18Overhead), verdict: judge(d <= goal18Overhead && !l.settleIn)})
	}
	if len(rows) == 0 {
		rows = append(rows, row18{figure: "hook − server's own time (daemon log), p50, each language", filed: "10–25 ms",
			now: "-", goal: "≤ " + fmtDur(goal18Overhead), verdict: notMeasured})
	}
	return rows
}

// write18 is a Write event ÷ an Edit event on the same Go type error.
func (r *report) write18() row18 {
	row := row18{figure: "a Write event ÷ an Edit event, same Go type error, p50", filed: "2.5× (238 vs 95 ms)",
		goal: fmt.Sprintf("≤ %g×", goalWriteRatio), now: "-", verdict: notMeasured}
	if w := r.writeEdit; w != nil && len(w.edit.s) > 0 && len(w.write.s) > 0 {
		x := w.ratio()
		row.now = fmt.Sprintf("%s (%s vs %s)", fmtRatio(x), fmtDur(w.write.s.median()), fmtDur(w.edit.s.median()))
		row.verdict = judge(x <= goalWriteRatio && w.edit.bad+w.write.bad == 0)
	}
	return row
}

// peer18 is the peer's warm edit ÷ ours, per language of section 9.
func (r *report) peer18() []row18 {
	filed := map[string]string{"go": "5.0×", "py": "3.6×", "ts": "11.5×", "c": "the peer has no C"}
	g := fmt.Sprintf("≥ %g×", goal18Peer)
	if r.peer == nil || r.peer.missing != "" || len(r.peer.langs) == 0 {
		why := "-"
		if r.peer != nil && r.peer.missing != "" {
			why = "peer not installed"
		}
		return []row18{{figure: "warm edit, peer ÷ lsp-hook, p50, each language", filed: "Go 5.0×, Python 3.6×, TS 11.5×", now: why, goal: g, verdict: notMeasured}}
	}
	var rows []row18
	for _, l := range r.peer.langs {
		row := row18{figure: "warm edit, " + peerName + " ÷ lsp-hook, p50, " + l.spec.name, filed: filed[l.spec.key], goal: g}
		switch {
		case l.skipped != "":
			row.now, row.verdict = l.skipped, noGoal
		case len(l.them.s) == 0:
			row.now, row.verdict = "-", notMeasured
		default:
			x := l.ratio()
			row.now = fmt.Sprintf("%s (%s ÷ %s)", fmtRatio(x), fmtDur(l.them.s.median()), fmtDur(l.us.s.median()))
			row.verdict = judge(x >= goal18Peer && l.us.bad == 0)
		}
		rows = append(rows, row)
	}
	return rows
}

// clang18 is `clang -fsyntax-only` ÷ the warm C edit on the same file:
// testdata/langs/c (part 3) and testregex.c (section 11).
func (r *report) clang18() []row18 {
	g := fmt.Sprintf("≥ %g×", goal18Clang)
	var rows []row18
	var cs []langResult
	for _, l := range r.langs {
		if l.spec.key == "c" {
			cs = append(cs, l)
		}
	}
	if r.cfile != nil {
		cs = append(cs, *r.cfile)
	}
	for _, l := range cs {
		row := row18{figure: "warm C edit vs `" + strings.Join(l.cmd.argv, " ") + "`: compiler ÷ hook, p50", filed: "0.37–0.40×", goal: g}
		if l.ws != nil {
			row.figure += ", " + l.ws.name
		}
		switch {
		case l.skipped != "":
			row.now, row.verdict = "skipped: "+l.skipped, notMeasured
		case len(l.hook.s) == 0 || len(l.base.s) == 0:
			row.now, row.verdict = "-", notMeasured
		default:
			x := l.speedup(samples.median)
			row.now = fmt.Sprintf("%s (%s vs %s)", fmtRatio(x), fmtDur(l.base.s.median()), fmtDur(l.hook.s.median()))
			row.verdict = judge(x >= goal18Clang && l.hook.bad == 0)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		rows = append(rows, row18{figure: "warm C edit vs `clang -fsyntax-only`, same file: compiler ÷ hook, p50", filed: "0.37–0.40×", now: "-", goal: g, verdict: notMeasured})
	}
	return rows
}

// gopls18 is our gopls's RSS ÷ plain gopls's on the same workspace.
func (r *report) gopls18() row18 {
	row := row18{figure: "gopls RSS, lsp-hook's ÷ plain gopls with a minimal client, same workspace",
		filed: "230–245 vs 96–200 MiB (peer's: 135–188)", goal: fmt.Sprintf("≤ %g×", goal18GoplsRSS), now: "-", verdict: notMeasured}
	g := r.goplsMem
	if g == nil || g.us.pid == 0 || g.plain.pid == 0 {
		return row
	}
	x := pRatio(g.us.rss, g.plain.rss)
	row.now = fmt.Sprintf("%s (%s vs %s", fmtRatio(x), fmtMiB(g.us.rss), fmtMiB(g.plain.rss))
	if g.peer.pid != 0 {
		row.now += "; peer's " + fmtMiB(g.peer.rss)
	}
	row.now += ")"
	row.verdict = judge(x <= goal18GoplsRSS)
	return row
}

// trees18 is the RSS of every daemon tree of section 13's worktrees.
func (r *report) trees18() row18 {
	row := row18{figure: "daemons + servers for 10 worktree sessions of one repository, total RSS",
		filed: "unbounded, not measured", goal: "within the budget (memory_budget)", now: "-", verdict: notMeasured}
	t := r.trees
	if t == nil || len(t.rows) == 0 {
		return row
	}
	row.figure = fmt.Sprintf("daemons + servers for %d worktree sessions of one repository, total RSS", len(t.rows))
	row.now = fmt.Sprintf("%s (%s each, %s)", fmtMiB(t.total()), fmtMiB(t.total()/int64(len(t.rows))), t.module)
	row.verdict = noGoal // the budget is lsp-hook's setting; its test is the budget test
	return row
}

// head18 is the table's column heads.
var head18 = []string{"figure", "at filing", "now (this run)", "goal", "met"}

// cells is the row's columns, in head18's order.
func (g row18) cells() []string {
	return []string{g.figure, g.filed, g.now, g.goal, orDefault(g.verdict.String(), "-")}
}

// writeIssue18 prints issue 18's table.
func writeIssue18(w io.Writer, rows []row18) {
	fmt.Fprintln(w, "\nIssue 18: every row of its table as measured in this run (\"at filing\": the issue's figure).")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "   "+strings.Join(head18, "\t"))
	for _, g := range rows {
		fmt.Fprintln(tw, "   "+strings.Join(g.cells(), "\t"))
	}
	tw.Flush()
}
