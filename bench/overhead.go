package main

import (
	"fmt"
	"strings"
	"time"
)

// Where a warm hook's time goes beyond the server's own, per run, from the
// records the daemon and the hook log (logtimes.go), in milliseconds as
// logged (whole, truncated: each difference is ±1 ms):
//
//	hook wall − server_ms                       overhead in all
//	  = daemon elapsed − server_ms − window     (a) daemon processing, the goal
//	  + window                                  (b) settle window
//	  + hook wall − daemon elapsed              (c) hook process + socket
//
// "daemon elapsed" is the notify_change record's elapsed_ms: the engine's
// time on the request, from its start to the result. The daemon does not
// log how long it waited in the settle window, so (b) is the window set for
// the edit (langSpec.settle), not the wait: what the wait ran over it (a
// follow-up publication restarts it, a timer fires late on a loaded
// machine) stays in (a), which is therefore the larger side of the truth.
// (a) is split further by the "server checked" record's elapsed_ms, which
// runs from acquiring the server to the end of its check: around the
// server ("server checked" elapsed − server_ms − window: acquiring it, the
// watcher sync before the change is sent, the settle overrun, collecting
// the answer) and after the servers (daemon elapsed − "server checked"
// elapsed: validators, merging, the lint block). (c) is split by the hook's
// own "hook answered" record: hook ↔ daemon (its socket round trip,
// request and answer encoded and decoded, the agent's JSON rendered) and
// the hook process's start and exit.

// breakdown holds the rows of those parts for one language.
type breakdown struct {
	process row // (a) daemon elapsed − server_ms − window
	around  row //     of which: "server checked" elapsed − server_ms − window
	engine  row //     of which: daemon elapsed − "server checked" elapsed
	settle  row // (b) the settle window
	client  row // (c) hook wall − daemon elapsed
	ipc     row //     of which: "hook answered" elapsed − daemon elapsed
	proc    row //     of which: hook wall − "hook answered" elapsed
}

// newBreakdown is a breakdown with its rows labelled for the section's
// table, each under the "overhead in all" row.
func newBreakdown() breakdown {
	sub := func(label string) row { return row{label: label, sub: true} }
	return breakdown{
		process: sub("  (a) daemon: elapsed − server − settle"),
		around:  sub("      around the server"),
		engine:  sub("      after the servers"),
		settle:  sub("  (b) settle window (as set; not logged)"),
		client:  sub("  (c) hook process + socket"),
		ipc:     sub("      hook ↔ daemon, render"),
		proc:    sub("      hook process start, exit"),
	}
}

// rows are the breakdown's rows that have samples, in table order.
func (bd breakdown) rows() []row {
	var out []row
	for _, r := range []row{bd.process, bd.around, bd.engine, bd.settle, bd.client, bd.ipc, bd.proc} {
		if len(r.s) > 0 || r.hasFirst {
			out = append(out, r)
		}
	}
	return out
}

// recordBreakdown splits run i's hook wall time by the log's records t,
// with window the settle window the daemon was set to wait: the server's
// own time, the overhead in all, and its parts. Without server_ms (an older
// daemon) the server's time is the "server checked" elapsed_ms, settle
// window and all, and (a) is what the daemon spent beyond that.
func (res *langResult) recordBreakdown(i int, wall time.Duration, t hookTimes, window time.Duration) {
	bd := &res.breakdown
	server := t.serverOnly
	if server < 0 {
		server, res.settleIn = t.server, true
	}
	res.server.record(i, msDuration(server), "")
	res.overhead.record(i, wall-msDuration(server), "")
	if t.daemon < 0 {
		return
	}
	process := msDuration(t.daemon - server)
	if t.serverOnly >= 0 {
		process -= window
		rest := msDuration(t.server - t.serverOnly)
		problem := ""
		if rest < window-time.Millisecond { // both logged values are truncated
			problem = fmt.Sprintf("the log shows %s from the server's answer to the end of its check, less than the %s settle window assumed (langSpec.settle)",
				fmtSample(samples{rest}, rest), fmtDur(window))
		}
		bd.settle.record(i, window, problem)
		bd.around.record(i, rest-window, "")
	}
	bd.process.record(i, process, "")
	bd.engine.record(i, msDuration(t.daemon-t.server), "")
	bd.client.record(i, wall-msDuration(t.daemon), "")
	if t.hook >= 0 {
		bd.ipc.record(i, msDuration(t.hook-t.daemon), "")
		bd.proc.record(i, wall-msDuration(t.hook), "")
	}
}

// processMet reports whether the daemon's processing at p50 meets its goal.
func (l langResult) processMet() bool {
	return len(l.process.s) > 0 && l.process.s.median() <= goalOverhead
}

// overheadRows are, per language measured, the goal row of the daemon's
// processing (a) over the server's own time, followed by the other parts of
// the hook's time beyond the server's, without a goal: the settle window
// (b), the hook process with its socket round trip (c) against a bare
// process start when part 1 ran (version: its `lsp-hook version` runs),
// and the overhead in all, a + b + c.
func overheadRows(langs []langResult, version samples) []goalRow {
	g := fmt.Sprintf("≤ %g ms", goalOverhead.Seconds()*1000)
	var rows []goalRow
	for _, l := range langs {
		metric := fmt.Sprintf("daemon processing, %s: p50 of (daemon's elapsed_ms − server_ms − settle window); baseline: server_ms p50", l.spec.name)
		if l.settleIn {
			metric = fmt.Sprintf("daemon processing, %s: p50 of (daemon's elapsed_ms − server's elapsed_ms, settle window and all: no server_ms logged)", l.spec.name)
		}
		if l.skipped != "" || len(l.process.s) == 0 {
			rows = append(rows, missing(metric, g))
			continue
		}
		p50 := func(r row) string { return fmtSample(r.s, r.s.median()) }
		rows = append(rows, goalRow{metric, p50(l.process), p50(l.server), "-", g, judge(l.processMet()), l.processParts()})
		if len(l.settle.s) > 0 {
			rows = append(rows, goalRow{
				metric:   fmt.Sprintf("settle window, %s: the daemon's wait after the server's answer, as set for an Edit (not logged)", l.spec.name),
				measured: p50(l.settle), baseline: "-", ratio: "-",
			})
		}
		client := goalRow{
			metric:   fmt.Sprintf("hook process + socket, %s: p50 of (hook wall − daemon's elapsed_ms)", l.spec.name),
			measured: p50(l.client), baseline: "-", ratio: "-",
		}
		if len(version) > 0 {
			client.metric += "; ratio ÷ `lsp-hook version` p50"
			client.baseline, client.ratio = fmtDur(version.median()), fmtRatio(ratio(l.client.s, version))
		}
		rows = append(rows, client, goalRow{
			metric:   fmt.Sprintf("overhead in all, %s: p50 of (hook wall − server_ms); ratio hook ÷ server", l.spec.name),
			measured: p50(l.overhead), baseline: p50(l.server), ratio: fmtRatio(ratio(l.hook.s, l.server.s)),
		})
	}
	if len(rows) == 0 {
		rows = append(rows, missing("daemon processing over the server's own time, p50", g))
	}
	return rows
}

// processParts is the p50 of each part of (a) and (c) the log tells apart
// ("Go, p50 of each part: …"), or "" when it tells none apart.
func (l langResult) processParts() string {
	var parts []string
	for _, p := range []struct {
		name string
		r    row
	}{
		{"daemon processing: around the server", l.around}, {"after the servers", l.engine},
		{"hook process + socket: hook ↔ daemon", l.ipc}, {"process start and exit", l.proc},
	} {
		if len(p.r.s) > 0 {
			parts = append(parts, p.name+" "+fmtSample(p.r.s, p.r.s.median()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return l.spec.name + ", p50 of each part: " + strings.Join(parts, ", ")
}
