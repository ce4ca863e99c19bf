package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// This file is section 8, prewarm (issue 16, "Must-holds"): the first
// edit of a session with and without prewarm, per live language, on fresh
// copies of the projects of testdata/langs:
//
//  1. no prewarm: the first edit of a fresh session, no daemon running:
//     the hook starts it, and the daemon the server (the first touch of
//     part 3);
//  2. the Claude Code SessionStart hook, no daemon running (it starts
//     `lsp-hook serve --prewarm` detached and returns), then the first edit
//     2 s later, and on another copy 10 s later; in two cases, each run
//     prewarmRuns times, interleaved: the file the user touched last (the
//     newest, which prewarm checks) is the edited one, or another one (a
//     file of another package, module or translation unit, so the edit's
//     file is new to the server);
//  3. warm edits in the workspace of 1, once its daemon is idle;
//
// each first edit's p50 ÷ the warm p50 (goal ≤ 1.5× at 10 s), and the
// SessionStart hook's own wall time: with no daemon running (each copy
// of 2) and to a running daemon (the workspace of 1), against `lsp-hook
// version`, a bare process start. Every first edit is a type error the
// answer must name. Each copy has its own root, so its own socket and
// daemon, which is stopped once the copy is measured, so no daemon of one
// measurement runs during the next. The copies of 2 go first: the server's
// files are read from disk on its first start, and charging that to the
// prewarmed edits, not to the edit without prewarm, keeps the ratios from
// flattering prewarm.

// secPrewarm is 8: the first edit of a session with and without prewarm.
const secPrewarm section = "prewarm"

// goalPrewarmRatio: the first edit 10 s after a session's start takes
// at most 1.5 × a warm edit, p50 (issue 16).
const goalPrewarmRatio = 1.5

// prewarmDelays are the pauses between a session's start and its first
// edit (issue 16: 2 s and 10 s); the goal is for the last.
var prewarmDelays = []time.Duration{2 * time.Second, 10 * time.Second}

// prewarmWarmN is how many warm edits each language times, startWarmN
// how many SessionStart hooks it sends to a running daemon, and
// prewarmRuns how many fresh copies each case and delay of 2 gets.
const (
	prewarmWarmN = 9
	startWarmN   = 5
	prewarmRuns  = 5
)

// prewarmCase is which file the user touched last before the session,
// the one prewarm checks (lsp.Manager.Prewarm): the file the first edit
// goes to (the session resumes the user's work), or another one
// (langSpec.other: the edit's file is new to the server).
type prewarmCase struct {
	label  string
	newest func(spec langSpec) string // the file made newest, slash-separated, relative to the project
}

// prewarmCases are section 8's cases, in report order.
var prewarmCases = []prewarmCase{
	{"edited file last touched", func(s langSpec) string { return s.target }},
	{"another file last touched", func(s langSpec) string { return s.other }},
}

// prewarmResult is section 8.
type prewarmResult struct {
	langs   []prewarmLang
	version samples       // `lsp-hook version`, a bare process start, right before each SessionStart hook
	took    time.Duration // the section's wall time
	notes   []string      // problems stopping the daemons between measurements
}

// prewarmLang is section 8 for one language.
type prewarmLang struct {
	spec      langSpec
	cold      firstEdit      // 1: no prewarm, no daemon running
	after     [][]firstEdits // 2: per prewarmCases and prewarmDelays, the first edits that long after SessionStart
	warm      row            // 3: warm edits
	startCold samples        // the SessionStart hooks of 2, no daemon running
	startWarm samples        // SessionStart hooks to the running daemon of 1
}

// firstEdits are the runs of one case and delay of 2.
type firstEdits []firstEdit

// wall is the runs' median wall time.
func (fs firstEdits) wall() time.Duration {
	var s samples
	for _, f := range fs {
		s = append(s, f.wall)
	}
	return s.median()
}

// times is the runs' median server times by the daemon log, each over
// the runs whose record was found (-1 when none was).
func (fs firstEdits) times() hookTimes {
	var server, only []float64
	for _, f := range fs {
		if f.times.server >= 0 {
			server = append(server, f.times.server)
		}
		if f.times.serverOnly >= 0 {
			only = append(only, f.times.serverOnly)
		}
	}
	return hookTimes{server: medianOr(server, -1), serverOnly: medianOr(only, -1)}
}

// right reports whether every run's answer was right.
func (fs firstEdits) right() bool {
	return !slices.ContainsFunc(fs, func(f firstEdit) bool { return f.problem != "" })
}

// medianOr is the median of xs, or none when xs is empty.
func medianOr(xs []float64, none float64) float64 {
	if len(xs) == 0 {
		return none
	}
	xs = slices.Sorted(slices.Values(xs))
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}

// firstEdit is the first edit of a session: the hook's wall time, what
// the daemon log says of the server's part, and what was wrong with the
// answer ("" when nothing).
type firstEdit struct {
	wall    time.Duration
	times   hookTimes // server: its wait, start included; serverOnly: change sent → fresh
	problem string
}

// ratio is a first edit's wall time over the warm edits' p50.
func (l prewarmLang) ratio(wall time.Duration) float64 { return pRatio(wall, l.warm.s.median()) }

// last is the first edits of case c after the last of prewarmDelays.
func (l prewarmLang) last(c int) firstEdits { return l.after[c][len(prewarmDelays)-1] }

// prewarmMet reports whether the first edits of case c after the last
// delay met their goal: every answer right, their p50 within
// goalPrewarmRatio of the warm p50.
func (l prewarmLang) prewarmMet(c int) bool {
	f := l.last(c)
	return f.right() && l.ratio(f.wall()) <= goalPrewarmRatio
}

// prewarmSection measures section 8 into res for every language -langs
// selects; an error in one ends the section.
func (b *bench) prewarmSection(ctx context.Context, res *prewarmResult) error {
	begin := time.Now()
	defer func() { res.took = time.Since(begin) }()
	if _, err := b.exec(ctx, b.tmp, nil, b.opts.bin, "version"); err != nil { // faults in the binary's pages
		return err
	}
	for _, spec := range langSpecs {
		if !b.opts.langs.has(spec.key) {
			continue
		}
		b.progressf("8. %s: first edits with and without prewarm on fresh copies of testdata/langs/%s", spec.name, spec.dir)
		l := prewarmLang{spec: spec, warm: row{label: "warm edit"}}
		err := b.prewarmLang(ctx, &l, res)
		if err == nil && len(l.warm.s) > 0 {
			res.langs = append(res.langs, l)
		}
		if err != nil {
			return fmt.Errorf("prewarm, %s: %w", spec.name, err)
		}
	}
	return nil
}

// prewarmLang measures one language into l: the copies of 2 first, run
// by run, each case and delay in turn, then the copy of 1 and 3.
func (b *bench) prewarmLang(ctx context.Context, l *prewarmLang, res *prewarmResult) error {
	l.after = make([][]firstEdits, len(prewarmCases))
	for c := range prewarmCases {
		l.after[c] = make([]firstEdits, len(prewarmDelays))
	}
	for run := range prewarmRuns {
		for c, pc := range prewarmCases {
			for i, d := range prewarmDelays {
				f, err := b.prewarmRun(ctx, l, res, pc.newest(l.spec), fmt.Sprintf("pw-%s-%d-%ds-%d", l.spec.key, c, d/time.Second, run), d)
				if err != nil {
					return err
				}
				l.after[c][i] = append(l.after[c][i], f)
			}
		}
	}
	ws, err := b.langCopy(ctx, l.spec, "pw-"+l.spec.key+"-none")
	if err != nil {
		return err
	}
	if l.cold, err = b.firstEdit(ctx, ws, l.spec); err != nil {
		return err
	}
	if err := b.warmEdits(ctx, ws, l, res); err != nil {
		return err
	}
	res.notes = append(res.notes, b.stopDaemon(ctx, ws)...)
	return nil
}

// prewarmRun is one run of 2 on a fresh copy named base whose file newest
// (slash-separated, relative to the project) the user touched last: the
// SessionStart hook, then the first edit d after it.
func (b *bench) prewarmRun(ctx context.Context, l *prewarmLang, res *prewarmResult, newest, base string, d time.Duration) (firstEdit, error) {
	ws, err := b.langCopy(ctx, l.spec, base)
	if err != nil {
		return firstEdit{}, err
	}
	if err := testdir.TouchedLast(ws.dir, newest); err != nil {
		return firstEdit{}, err
	}
	begin, err := b.timeSessionStart(ctx, ws, &l.startCold, res)
	if err != nil {
		return firstEdit{}, err
	}
	// The agent's pause before its first edit is what is measured, not a
	// wait for an event: the edit comes d after the session's start,
	// whether the server is ready or not.
	select {
	case <-ctx.Done():
		return firstEdit{}, ctx.Err()
	case <-time.After(time.Until(begin.Add(d))):
	}
	f, err := b.firstEdit(ctx, ws, l.spec)
	if err != nil {
		return firstEdit{}, err
	}
	res.notes = append(res.notes, b.stopDaemon(ctx, ws)...)
	b.pause(ctx)
	return f, nil
}

// warmEdits times prewarmWarmN edits in ws, each once the daemon is idle,
// then startWarmN SessionStart hooks to its running daemon.
func (b *bench) warmEdits(ctx context.Context, ws *workspace, l *prewarmLang, res *prewarmResult) error {
	line := ws.declLine()
	for i := 1; i <= prewarmWarmN; i++ {
		b.quiet(ctx, ws)
		broken := i%2 == 0
		wall, lint, _, err := b.editHook(ctx, ws, l.spec.decl(i, broken), l.spec.server)
		if err != nil {
			return fmt.Errorf("warm edit %d: %w", i, err)
		}
		l.warm.record(i, wall, checkLint(ws, lint, line, broken))
	}
	for range startWarmN {
		b.quiet(ctx, ws)
		if _, err := b.timeSessionStart(ctx, ws, &l.startWarm, res); err != nil {
			return err
		}
	}
	return nil
}

// firstEdit runs the first edit of a session in ws, a type error, and
// reads from the daemon log the server's part in it.
func (b *bench) firstEdit(ctx context.Context, ws *workspace, spec langSpec) (firstEdit, error) {
	wall, lint, t, err := b.editHook(ctx, ws, spec.decl(0, true), spec.server)
	if err != nil {
		return firstEdit{}, fmt.Errorf("first edit: %w", err)
	}
	return firstEdit{wall: wall, times: t, problem: checkLint(ws, lint, ws.declLine(), true)}, nil
}

// sessionEvent is the SessionStart event Claude Code sends when a session
// starts in cwd (the hooks package documents the shape).
func sessionEvent(cwd string) []byte {
	ev := map[string]any{
		"session_id":      "lsp-hook-bench",
		"cwd":             cwd,
		"hook_event_name": "SessionStart",
		"source":          "startup",
	}
	data, err := json.Marshal(ev)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return data
}

// timeSessionStart runs `lsp-hook version`, a bare process start, then
// the SessionStart hook in ws, so that the hook and its baseline are
// interleaved, the version first, before any daemon the hook starts is
// running. It appends the hook's wall time to to, the version's to
// res.version, and returns when the hook started.
func (b *bench) timeSessionStart(ctx context.Context, ws *workspace, to *samples, res *prewarmResult) (time.Time, error) {
	r, err := b.exec(ctx, ws.dir, nil, b.opts.bin, "version")
	if err != nil {
		return time.Time{}, err
	}
	begin := time.Now()
	wall, err := b.sessionStart(ctx, ws)
	if err != nil {
		return begin, err
	}
	*to, res.version = append(*to, wall), append(res.version, r.wall)
	return begin, nil
}

// sessionStart runs `lsp-hook hook claude` in ws for a SessionStart, as
// Claude Code would, and returns its wall time. The hook must exit 0 and
// print nothing. It marks ws as having a daemon to stop.
func (b *bench) sessionStart(ctx context.Context, ws *workspace) (time.Duration, error) {
	ws.daemon = true
	r, err := b.exec(ctx, ws.dir, sessionEvent(ws.dir), b.opts.bin, "hook", "claude")
	if err != nil {
		return 0, err
	}
	if r.code != 0 || len(strings.TrimSpace(string(r.stdout))) > 0 {
		return 0, fmt.Errorf("SessionStart hook: exit %d, output %q (want 0 and none)", r.code, r.combined())
	}
	return r.wall, nil
}
