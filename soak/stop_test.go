package soak

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// The Stop gate under the soak's timing (DESIGN.md "Sessions"): after a
// step, with the odds schedule.stop, the agent ends its turn and Claude
// Code's Stop hook runs at once, its event carrying stop_hook_active
// false. The committed project compiles clean and every session starts
// from it, so every error the compiler reports then in a committed file
// was introduced by the session: the gate must report it (block, or warn
// when it blocked the session's previous end of turn), and must never
// block a turn that leaves no error at all. Errors only in files the
// session created are not judged: the gate does not gate a file with no
// state before the session (an untracked file the event said nothing
// about).

// stopClass is one way a Stop hook's answer is judged.
type stopClass int

const (
	stopCorrect    stopClass = iota // allowed a clean turn, or reported the errors the session left
	stopUnchecked                   // warned that a server gave no fresh answer (honest)
	stopUnjudged                    // errors only where the compiler did not get to, or in created files
	stopFalseAllow                  // allowed, in silence, a turn that left errors in committed files
	stopFalseBlock                  // blocked a turn that left no error anywhere
	stopStale                       // named an error line the compiler does not report
	stopMissed                      // reported errors but left out a committed file the compiler reports errors in, with no note owning up to it
	stopBad                         // exited non-zero, hung, or printed something outside the format
	nStopClasses
)

var stopClassNames = [nStopClasses]string{"correct", "unchecked", "unjudged", "false allow", "false block", "stale", "missed file", "bad answer"}

func (c stopClass) String() string { return stopClassNames[c] }

// stopThresholds fail the soak: the classes no end of turn may earn.
var stopThresholds = []stopClass{stopFalseAllow, stopFalseBlock, stopStale, stopMissed, stopBad}

// stopCall is one judged end of turn.
type stopCall struct {
	n        int    // its number among the language's Stop hooks, from 1
	scenario string // the scenario and step it followed
	state    string // key of the snapshot it is judged against
	run      hookRun
	// committed says the session committed its work before this end of
	// turn (maybeStop).
	committed bool
}

// stopEvent is Claude Code's Stop event of a turn not already continued
// by a Stop hook (https://code.claude.com/docs/en/hooks#stop-input).
func stopEvent(w *workspace, session string) string {
	return event(w, session, "Stop", map[string]any{"stop_hook_active": false})
}

// maybeStop ends the agent's turn after the step named name, with the odds
// sched.stop (drawn from a source of its own, so that a seed replays the
// same moves with or without Stop hooks). One end of turn in commitOdds
// first commits the work tree, as agents do (`git add -A && git commit`):
// the gate must still judge against the project as the session began,
// not against HEAD, which the commit moved. The commit is undone after
// the Stop hook (`git reset` to the base commit: HEAD and index back,
// the work tree as it is), so the scenario's reverts still check out the
// committed project.
func (r *runner) maybeStop(name string) {
	if r.stopRng.Float64() >= r.sched.stop {
		return
	}
	committed := r.stopRng.IntN(commitOdds) == 0 && r.commitWork()
	run := r.ws.startHook(stopEvent(r.ws, r.session))()
	r.stops = append(r.stops, &stopCall{n: len(r.stops) + 1, scenario: name, state: r.state, run: run, committed: committed})
	if committed {
		if out, err := r.ws.command("git", "reset", "-q", r.ws.base).CombinedOutput(); err != nil {
			r.t.Fatalf("%s: git reset %s after the session's commit: %v\n%s (a fault of the soak)", r.lang.name, r.ws.base, err, out)
		}
	}
}

// commitOdds: one end of turn in commitOdds follows a commit of the
// session's work (maybeStop).
const commitOdds = 4

// commitWork commits the work tree on top of the base commit, as an
// agent's `git add -A && git commit` does, and reports whether there was
// anything to commit.
func (r *runner) commitWork() bool {
	if out, err := r.ws.command("git", "add", "-A").CombinedOutput(); err != nil {
		r.t.Fatalf("%s: git add -A: %v\n%s (a fault of the soak)", r.lang.name, err, out)
	}
	if r.ws.command("git", "diff", "--cached", "--quiet").Run() == nil {
		return false // nothing changed since the base commit
	}
	if out, err := r.ws.command("git", "-c", "user.name=soak", "-c", "user.email=soak@example.invalid", "commit", "-qm", "session").CombinedOutput(); err != nil {
		r.t.Fatalf("%s: git commit: %v\n%s (a fault of the soak)", r.lang.name, err, out)
	}
	return true
}

// stopAnswer is a Stop hook's answer: its decision ("block", "warn" for a
// systemMessage, "" for nothing printed: allow) and the lint block.
type stopAnswer struct {
	decision string
	answer
}

// parseStop reads what `lsp-hook hook claude` printed for a Stop event:
// nothing, {"decision": "block", "reason": "<lint block>"}, or
// {"systemMessage": "<lint block>"} (hooks/claude.go stopAnswer), and
// nothing else.
func parseStop(stdout string) (stopAnswer, error) {
	if stdout == "" {
		return stopAnswer{}, nil
	}
	var out struct {
		Decision      string `json:"decision"`
		Reason        string `json:"reason"`
		SystemMessage string `json:"systemMessage"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil || dec.More() {
		return stopAnswer{}, fmt.Errorf("stdout is not one Stop answer object (%v): %q", err, stdout)
	}
	var s stopAnswer
	var block string
	switch {
	case out.Decision == "block" && out.Reason != "" && out.SystemMessage == "":
		s.decision, block = "block", out.Reason
	case out.Decision == "" && out.Reason == "" && out.SystemMessage != "":
		s.decision, block = "warn", out.SystemMessage
	default:
		return stopAnswer{}, fmt.Errorf("a Stop answer neither a block with a reason nor a warning: %q", stdout)
	}
	a, err := parseBlock(block)
	s.answer = a
	return s, err
}

// judgeStop classifies one end of turn against the compiler's truth now,
// base being the committed project (which compiles clean).
func judgeStop(s stopAnswer, now *truth, base snapshot) (stopClass, string) {
	var introduced, elsewhere []string
	for _, f := range slices.Sorted(maps.Keys(now.errs)) {
		if _, committed := base[f]; committed && !now.unknown[f] {
			introduced = append(introduced, f)
		} else {
			elsewhere = append(elsewhere, f)
		}
	}
	switch {
	case s.decision == "" && len(introduced) > 0:
		return stopFalseAllow, fmt.Sprintf("allowed in silence; the compiler reports errors in %s", strings.Join(introduced, ", "))
	case s.decision == "block" && len(now.errs) == 0 && len(now.unknown) == 0:
		return stopFalseBlock, "blocked; the compiler reports no error"
	}
	shown := s.files()
	for _, f := range slices.Sorted(maps.Keys(shown)) {
		for _, n := range slices.Sorted(maps.Keys(shown[f])) {
			if !now.errs[f][n] && !now.unknown[f] && !now.partial[f] {
				return stopStale, fmt.Sprintf("%s:%d named; the compiler reports errors on %v", f, n, now.lines(f))
			}
		}
	}
	if s.decision != "" {
		for _, f := range introduced {
			if len(shown[f]) == 0 && !s.excuses(f, false) {
				return stopMissed, fmt.Sprintf("%s: the compiler reports errors on %v; the %s names errors only in %s and no note owns up to it%s",
					f, now.lines(f), s.decision, strings.Join(slices.Sorted(maps.Keys(shown)), ", "), notesSaid(s.answer))
			}
		}
	}
	switch {
	case s.decision == "warn" && len(shown) == 0 && len(s.notes) > 0:
		return stopUnchecked, s.notes[0]
	case len(introduced) == 0 && (len(elsewhere) > 0 || len(now.unknown) > 0) && (s.decision == "" || len(shown) == 0):
		return stopUnjudged, fmt.Sprintf("errors only in %s, or where the compiler did not get to", strings.Join(elsewhere, ", "))
	}
	return stopCorrect, ""
}

// stopTally is one language's counts of ends of turn.
type stopTally struct {
	calls     int
	decisions map[string]int // "block", "warn", "" (allow) → calls
	counts    [nStopClasses]int
	committed int      // ends of turn after the session committed its work
	examples  []string // of the failing classes, at most examplesPerClass
}

// judgeStops judges every end of turn the runner played.
func (r *runner) judgeStops() *stopTally {
	tl := &stopTally{decisions: make(map[string]int)}
	for _, c := range r.stops {
		tl.calls++
		cl, why := stopBad, hookError(c.run)
		var s stopAnswer
		if why == "" {
			var err error
			if s, err = parseStop(c.run.stdout); err != nil {
				why = err.Error()
			}
		}
		if why == "" {
			now, err := r.oracle.get(c.state)
			if err != nil {
				r.t.Errorf("%s Stop #%d: the compiler could not judge: %v", r.lang.name, c.n, err)
				continue
			}
			tl.decisions[s.decision]++
			cl, why = judgeStop(s, now, r.base)
		}
		tl.counts[cl]++
		if c.committed {
			tl.committed++
		}
		if slices.Contains(stopThresholds, cl) && len(tl.examples) < examplesPerClass {
			after := c.scenario
			if c.committed {
				after += ", the session's work committed"
			}
			tl.examples = append(tl.examples, fmt.Sprintf("%s Stop #%d after %s: %s: %s\n    answer: %s",
				r.lang.name, c.n, after, cl, why, strings.ReplaceAll(strings.TrimSpace(c.run.stdout), "\n", "\n      ")))
		}
	}
	return tl
}

// stopRow prints one language's line of the Stop table.
func stopRow(b *strings.Builder, lang string, tl *stopTally) {
	fmt.Fprintf(b, "%-10s %5d %5d %4d %5d", lang, tl.calls, tl.decisions["block"], tl.decisions["warn"], tl.decisions[""])
	for c := range nStopClasses {
		fmt.Fprintf(b, " %*d", len(c.String()), tl.counts[c])
	}
	b.WriteString("\n")
}

// stopHeader is the Stop table's header line.
func stopHeader(b *strings.Builder) {
	fmt.Fprintf(b, "%-10s %5s %5s %4s %5s", "Stop", "calls", "block", "warn", "allow")
	for c := range nStopClasses {
		fmt.Fprintf(b, " %*s", len(c.String()), c)
	}
	b.WriteString("\n")
}

// TestJudgeStop runs parseStop and judgeStop over one answer of each
// class, against a committed project of a.go and b.go.
func TestJudgeStop(t *testing.T) {
	base := snapshot{"a.go": "package a\n", "b.go": "package a\n"}
	block := func(reason string) string { return mustJSON(map[string]any{"decision": "block", "reason": reason}) }
	warn := func(msg string) string { return mustJSON(map[string]any{"systemMessage": msg}) }
	unknownB := truthOf(nil)
	unknownB.unknown["b.go"] = true
	tests := []struct {
		name   string
		stdout string
		now    *truth
		want   stopClass
	}{
		{"a clean turn allowed", "", truthOf(nil), stopCorrect},
		{"an error blocked", block(blockAThis), truthOf(map[string][]int{"a.go": {3}}), stopCorrect},
		{"an error warned (the turn after a block)", warn(blockAThis), truthOf(map[string][]int{"a.go": {3}}), stopCorrect},
		{"an error in another file blocked", block(blockBOther), truthOf(map[string][]int{"b.go": {7}}), stopCorrect},
		{"an error allowed in silence", "", truthOf(map[string][]int{"a.go": {3}}), stopFalseAllow},
		{"a clean turn blocked", block(blockAThis), truthOf(nil), stopFalseBlock},
		{"a line the compiler does not report", block(blockAThis), truthOf(map[string][]int{"a.go": {4}}), stopStale},
		{"an error blocked, another file's left out", block(blockAThis), truthOf(map[string][]int{"a.go": {3}, "b.go": {7}}), stopMissed},
		{"an error blocked, another file's owned up to", block(blockAThis + "\n" + noteTimeout), truthOf(map[string][]int{"a.go": {3}, "b.go": {7}}), stopCorrect},
		{"could not check: said so", warn(noteTimeout), truthOf(map[string][]int{"a.go": {3}}), stopUnchecked},
		{"an error only in a created file, allowed", "", truthOf(map[string][]int{"new.go": {1}}), stopUnjudged},
		{"a file the compiler did not get to, blocked", block(blockBOther), unknownB, stopCorrect},
		{"a file the compiler did not get to, allowed", "", unknownB, stopUnjudged},
		{"not an answer", `{"decision":"approve"}`, truthOf(nil), stopBad},
		{"another field", `{"decision":"block","reason":"x","continue":false}`, truthOf(nil), stopBad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parseStop(tt.stdout)
			got, why := stopBad, fmt.Sprint(err)
			if err == nil {
				got, why = judgeStop(s, tt.now, base)
			}
			if got != tt.want {
				t.Errorf("%s (%s), want %s", got, why, tt.want)
			}
		})
	}
}
