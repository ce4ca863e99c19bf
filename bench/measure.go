package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// jsonWarmups is how many untimed runs of each side precede the timed ones
// in part 1, after the daemon's first touch: they fault in the binary's
// pages and the daemon's code paths.
const jsonWarmups = 3

// samples are the wall times of one measurement's timed runs.
type samples []time.Duration

// median is the middle value (the mean of the two middle ones for an even
// count); 0 without samples.
func (s samples) median() time.Duration {
	if len(s) == 0 {
		return 0
	}
	x := slices.Sorted(slices.Values(s))
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// p90 is the 90th percentile by nearest rank; 0 without samples.
func (s samples) p90() time.Duration { return s.percentile(0.90) }

// p95 is the 95th percentile by nearest rank; 0 without samples.
func (s samples) p95() time.Duration { return s.percentile(0.95) }

// p99 is the 99th percentile by nearest rank; 0 without samples.
func (s samples) p99() time.Duration { return s.percentile(0.99) }

// maximum is the largest sample; 0 without samples.
func (s samples) maximum() time.Duration { return s.percentile(1) }

// percentile is the q-th quantile (0 < q ≤ 1) by nearest rank; 0 without
// samples.
func (s samples) percentile(q float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	x := slices.Sorted(slices.Values(s))
	return x[max(int(math.Ceil(q*float64(len(x))))-1, 0)]
}

// row is one measurement of the report: its timed samples, its untimed
// first (cold) run, and how many of its runs gave a wrong answer.
type row struct {
	label     string
	sub       bool          // a breakdown of the row above it (indented)
	s         samples       // timed runs
	first     time.Duration // the first run, excluded from s
	hasFirst  bool          // first was recorded (it may be 0 when read from a log)
	firstNote string        // what made the first run cold
	bad       int           // runs whose answer was wrong
	badNote   string        // the first wrong answer, explained
	errS      samples       // the timed runs after a type-error edit (part 2)
	fixS      samples       // the timed runs after its fix (part 2)
}

// recordEdit is record for part 2, which also keeps the samples of
// type-error edits and of fixes apart: the two cost go build very
// different times (a failed type check stops early), so the median of
// their mix would sit on the boundary between them.
func (r *row) recordEdit(i int, broken bool, d time.Duration, problem string) {
	r.record(i, d, problem)
	switch {
	case i == 0:
	case broken:
		r.errS = append(r.errS, d)
	default:
		r.fixS = append(r.fixS, d)
	}
}

// record adds run i's time to r: run 0 is the first touch, the rest are
// samples. problem, when not "", says what was wrong with the run's answer.
func (r *row) record(i int, d time.Duration, problem string) {
	if problem != "" {
		r.bad++
		if r.badNote == "" {
			r.badNote = fmt.Sprintf("run %d: %s", i, problem)
		}
	}
	if i == 0 {
		r.first, r.hasFirst = d, true
	} else {
		r.s = append(r.s, d)
	}
}

// ratio is a's median over b's; 0 when b has none.
func ratio(a, b samples) float64 { return pRatio(a.median(), b.median()) }

// pRatio is a over b; 0 when b is 0.
func pRatio[T ~int64](a, b T) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// jsonResult is part 1: the hook round trip on a JSON file with a syntax
// error against a bare process start, and the lint block the hook gave.
type jsonResult struct {
	ws      *workspace
	hook    row
	version row
	lint    string
}

// jsonRoundTrip measures part 1 in ws. Its first hook starts the daemon
// (reported as the first touch); after warm-ups, the hook and `lsp-hook
// version` alternate, swapping which goes first each time, so a drift in
// the machine's state bills both alike.
func (b *bench) jsonRoundTrip(ctx context.Context, ws *workspace) (jsonResult, error) {
	res := jsonResult{
		ws:      ws,
		hook:    row{label: "lsp-hook hook claude  (Edit of the .json)", firstNote: "daemon autostart"},
		version: row{label: "lsp-hook version  (bare process start)"},
	}
	path := filepath.Join(ws.dir, badJSONName)
	hookRun := func(i int) error {
		d, lint, err := b.hook(ctx, ws, path)
		if err != nil {
			return err
		}
		if i == 0 {
			res.lint = lint
		}
		problem := ""
		if !strings.Contains(lint, `file="`+badJSONName+`"`) || !strings.Contains(lint, "ERROR [3:") {
			problem = fmt.Sprintf("want the syntax error on line 3 of %s, got %q", badJSONName, lint)
		}
		if i >= 0 {
			res.hook.record(i, d, problem)
		}
		return nil
	}
	versionRun := func(i int) error {
		r, err := b.exec(ctx, ws.dir, nil, b.opts.bin, "version")
		if err != nil {
			return err
		}
		problem := ""
		if r.code != 0 || !strings.HasPrefix(string(r.stdout), "lsp-hook ") {
			problem = fmt.Sprintf("exit %d, output %q", r.code, r.combined())
		}
		if i >= 0 {
			res.version.record(i, r.wall, problem)
		}
		return nil
	}
	if err := hookRun(0); err != nil { // the first touch: starts the daemon
		return res, err
	}
	// Runs numbered below 0 are warm-ups, recorded nowhere; 0 was the first
	// touch; 1…jsonN are timed.
	for i := -jsonWarmups; i <= b.opts.jsonN; i++ {
		if i == 0 {
			continue
		}
		runs := []func(int) error{hookRun, versionRun}
		if i%2 != 0 {
			slices.Reverse(runs)
		}
		for _, run := range runs {
			if err := run(i); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// pause waits the cooldown between two measurements (or until ctx ends),
// so the background work one leaves (gopls publishing its last wave, the
// page cache settling) is not billed to the next.
func (b *bench) pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(b.opts.cooldown):
	}
}
