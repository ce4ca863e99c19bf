package soak

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// examplesPerClass is how many calls of each failing class a language's
// report shows in full.
const examplesPerClass = 3

// tally is one language's counts.
type tally struct {
	lang     string
	calls    int           // hook calls judged
	counts   [nClasses]int // calls that earned each class
	broken   int           // calls judged against a broken state (an error in a changed or broken file)
	clean    int           // calls judged against a clean project
	unjudged int           // lines shown in files the compiler did not get to check
	harness  int           // calls the compiler could not judge (a fault of the soak or the compiler)
	examples [nClasses][]string
	stop     *stopTally // the ends of turn (stop_test.go)
}

// judgeAll waits for the compiler's truth of every call's snapshots and
// judges each answer.
func (r *runner) judgeAll() *tally {
	tl := &tally{lang: r.lang.name}
	if base, err := r.oracle.get(r.base.key()); err != nil || len(base.errs) > 0 {
		r.t.Fatalf("%s: the committed project must compile clean, or nothing can be judged: %v\n%v", r.lang.name, err, base)
	}
	for _, c := range r.calls {
		tl.calls++
		if msg := hookError(c.run); msg != "" {
			tl.count(badAnswer, r.example(c, msg, nil))
			continue
		}
		a, err := parseAnswer(c.run.stdout)
		if err != nil {
			tl.count(badAnswer, r.example(c, err.Error(), nil))
			continue
		}
		j, err := r.judgement(c, a)
		if err != nil {
			r.t.Errorf("%s #%d: the compiler could not judge: %v", r.lang.name, c.n, err)
			tl.harness++
			continue
		}
		v := judge(j)
		tl.unjudged += v.unjudged
		tl.broken += b2i(v.broken)
		tl.clean += b2i(v.clean)
		for cl, why := range v.found {
			tl.count(cl, r.example(c, strings.Join(why, "; "), j.now))
		}
	}
	tl.stop = r.judgeStops()
	return tl
}

// judgement gathers the truths c is judged against.
func (r *runner) judgement(c *call, a answer) (judgement, error) {
	j := judgement{tool: c.tool, changed: c.changed, answer: a}
	var err error
	if j.now, err = r.oracle.get(c.after); err != nil {
		return j, err
	}
	if j.before, err = r.oracle.get(c.before); err != nil {
		return j, err
	}
	if c.older != "" {
		if j.older, err = r.oracle.get(c.older); err != nil {
			return j, err
		}
	}
	snap := r.oracle.snapshot(c.after)
	j.exists = func(f string) bool { _, ok := snap[f]; return ok }
	return j, nil
}

// count adds a call of class c, keeping its example when fewer than
// examplesPerClass (one for a note) are kept.
func (tl *tally) count(c class, example string) {
	tl.counts[c]++
	keep := examplesPerClass
	if c < stale {
		keep = b2i(c != correct)
	}
	if len(tl.examples[c]) < keep {
		tl.examples[c] = append(tl.examples[c], example)
	}
}

// example describes c for the report: the move, what was wrong, the
// answer, and the compiler's errors in the files involved.
func (r *runner) example(c *call, why string, now *truth) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s call #%d (%s): %s\n    %s\n    answer: %s\n", r.lang.name, c.n, c.scenario, c.move, why, indent(c.run.stdout))
	if now != nil {
		for _, f := range slices.Sorted(maps.Keys(now.errs)) {
			fmt.Fprintf(&b, "    compiler: %s errors on lines %v\n", f, now.lines(f))
		}
		if len(now.errs) == 0 {
			b.WriteString("    compiler: no errors\n")
		}
	}
	return b.String()
}

func indent(s string) string {
	if s == "" {
		return "(nothing)"
	}
	a, err := parseAnswer(s)
	if err == nil {
		s = a.block
	}
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n      ")
}

// threshold is the most calls of a class the soak allows.
type threshold struct {
	c   class
	max int
}

// thresholds fail the soak: no stale line, false clean, missed line,
// ghost or bad answer ever; no missed cross-file error after any tool
// (Write, Edit, MultiEdit, apply_patch, a batch or Bash, counted apart);
// timeouts and notes are honest and reported only.
var thresholds = []threshold{{stale, 0}, {falseClean, 0}, {missedLine, 0}, {ghost, 0}, {badAnswer, 0}, {missedCross, 0}, {missedCrossBash, 0}}

// report prints the table of counts and the examples, and fails t on any
// threshold crossed or a language that was not really judged.
func report(t *testing.T, o options, quota int, tallies []*tally) {
	var b strings.Builder
	fmt.Fprintf(&b, "soak: seed %d, %d calls asked (replay: SOAK_SEED=%d SOAK_CALLS=%d go test ./soak -run TestSoak)\n",
		o.seed, o.calls, o.seed, o.calls)
	fmt.Fprintf(&b, "%-10s %5s", "language", "calls")
	for c := range nClasses {
		fmt.Fprintf(&b, " %*s", len(c.String()), c)
	}
	fmt.Fprintf(&b, " %6s %5s %8s\n", "broken", "clean", "unjudged")
	var total tally
	total.lang = "total"
	for _, tl := range tallies {
		if tl == nil {
			continue
		}
		row(&b, tl)
		total.calls += tl.calls
		total.broken += tl.broken
		total.clean += tl.clean
		total.unjudged += tl.unjudged
		for c := range nClasses {
			total.counts[c] += tl.counts[c]
		}
	}
	row(&b, &total)
	b.WriteString("\n")
	stopHeader(&b)
	stops := &stopTally{decisions: make(map[string]int)}
	for _, tl := range tallies {
		if tl == nil || tl.stop == nil {
			continue
		}
		stopRow(&b, tl.lang, tl.stop)
		stops.calls += tl.stop.calls
		for d, n := range tl.stop.decisions {
			stops.decisions[d] += n
		}
		for c := range nStopClasses {
			stops.counts[c] += tl.stop.counts[c]
		}
		stops.committed += tl.stop.committed
		stops.examples = append(stops.examples, tl.stop.examples...)
	}
	stopRow(&b, "total", stops)
	fmt.Fprintf(&b, "(%d of the %d ends of turn followed a commit of the session's work)\n", stops.committed, stops.calls)
	t.Log(b.String())
	for _, e := range stops.examples {
		t.Logf("Stop gate:\n  %s", e)
	}
	for _, c := range stopThresholds {
		if n := stops.counts[c]; n > 0 {
			t.Errorf("Stop gate: %s: %d ends of turn, none allowed (seed %d)", c, n, o.seed)
		}
	}
	for _, tl := range tallies {
		if tl == nil {
			continue
		}
		for c := timeoutNote; c < nClasses; c++ {
			for _, e := range tl.examples[c] {
				t.Logf("%s:\n  %s", c, e)
			}
		}
		if tl.calls < quota || tl.harness > 0 {
			t.Errorf("%s: %d calls judged, want %d (%d the compiler could not judge)", tl.lang, tl.calls-tl.harness, quota, tl.harness)
		}
		if want := max(3, quota/10); tl.broken < want || tl.clean < want {
			t.Errorf("%s: %d calls judged against a broken state and %d against a clean one, want at least %d of each", tl.lang, tl.broken, tl.clean, want)
		}
	}
	for _, th := range thresholds {
		if n := total.counts[th.c]; n > th.max {
			t.Errorf("%s: %d calls, at most %d allowed (seed %d)", th.c, n, th.max, o.seed)
		}
	}
}

// row prints one line of the table.
func row(b *strings.Builder, tl *tally) {
	fmt.Fprintf(b, "%-10s %5d", tl.lang, tl.calls)
	for c := range nClasses {
		fmt.Fprintf(b, " %*d", len(c.String()), tl.counts[c])
	}
	fmt.Fprintf(b, " %6d %5d %8d\n", tl.broken, tl.clean, tl.unjudged)
}
