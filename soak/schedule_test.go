package soak

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// schedule is how the agent's moves are made and timed: the odds of each
// variation, and the delays. Draws come from the runner's seeded source,
// so a seed replays the same moves (the timing of servers varies).
type schedule struct {
	shell     float64       // a step of several files made with one shell command (one Bash hook)
	batch     float64       // else, as one batch (PostToolBatch), else one call each
	race      float64       // a content move overtaking an older text of the same file, the two hooks overlapping
	format    float64       // a formatter rewrites the file between the tool and the hook
	restart   float64       // a scenario starts a new session: the daemon stopped, then SessionStart (it prewarms), and the first move at once
	startLate float64       // of those, the first move's change is made before SessionStart, and hooked after it (runner.startDeferred)
	idle      float64       // after a step, the daemon stops as at its idle timeout, mid-session: no SessionStart, the next hook starts one (runner.maybeIdle)
	crash     float64       // of those stops, the share that are a SIGKILL a second after the step, as the OOM killer's or a crash (runner.maybeIdle)
	stop      float64       // the agent ends its turn after a step: the Stop hook runs at once (stop_test.go)
	maxDelay  time.Duration // the longest time from a change to its hook
	verbose   bool          // log every call (SOAK_VERBOSE=1 with go test -v)
}

// defaultSchedule is the schedule of both forms: the long form only makes
// more calls.
var defaultSchedule = schedule{shell: 0.3, batch: 0.6, race: 0.12, format: 0.2, restart: 0.08, startLate: 0.5, idle: 0.04, crash: 0.5, stop: 0.3, maxDelay: 3 * time.Second}

// with returns s with the odds that pairs (name=value, comma-separated:
// "race=1,restart=0.5") name replaced; an unknown name or a value outside
// 0–1 is an error naming it.
func (s schedule) with(pairs string) (schedule, error) {
	odds := map[string]*float64{"shell": &s.shell, "batch": &s.batch, "race": &s.race, "format": &s.format,
		"restart": &s.restart, "startLate": &s.startLate, "idle": &s.idle, "crash": &s.crash, "stop": &s.stop}
	for pair := range strings.SplitSeq(pairs, ",") {
		if pair = strings.TrimSpace(pair); pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		p, ok := odds[name]
		if !ok {
			return s, fmt.Errorf("%q: no such odds (shell, batch, race, format, restart, startLate, idle, crash, stop)", name)
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || v < 0 || v > 1 {
			return s, fmt.Errorf("%q: want odds from 0 to 1", pair)
		}
		*p = v
	}
	return s, nil
}

// delay draws the time from a change to its hook: none half the time (the
// hook right after the tool), up to 400 ms a third of the time (another
// hook ran first), else up to maxDelay (the agent's own pause).
func (s schedule) delay(rng *rand.Rand) time.Duration {
	switch p := rng.Float64(); {
	case p < 0.5:
		return 0
	case p < 0.85:
		return time.Duration(rng.Int64N(int64(400 * time.Millisecond)))
	default:
		return 400*time.Millisecond + time.Duration(rng.Int64N(int64(s.maxDelay-400*time.Millisecond)))
	}
}

// raceGap draws the time between the two hooks of a race: 0–100 ms (the
// window in which issue 12 saw overlapping hooks answer nothing).
func raceGap(rng *rand.Rand) time.Duration {
	return time.Duration(rng.Int64N(int64(100 * time.Millisecond)))
}

// weighted is one choice of pick with its weight.
type weighted struct {
	tool   string
	weight int
}

// pick draws one of choices in proportion to its weight; choices with
// weight 0 are never drawn.
func pick(rng *rand.Rand, choices ...weighted) string {
	total := 0
	for _, c := range choices {
		total += c.weight
	}
	n := rng.IntN(total)
	for _, c := range choices {
		if n < c.weight {
			return c.tool
		}
		n -= c.weight
	}
	panic("pick: no choice")
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// toolFor draws the tool that makes o, for a file that exists or not:
// Write, Edit, MultiEdit, Bash (sed -i, git checkout, rm, mv, git mv) or
// Codex's apply_patch (an update, add, delete or move).
func toolFor(rng *rand.Rand, o op, exists bool) string {
	switch o.kind {
	case opEdit:
		return pick(rng, weighted{"Write", 3}, weighted{"Edit", 4}, weighted{"MultiEdit", 1},
			weighted{"Bash", 2 * b2i(sedable(o.subs))}, weighted{"apply_patch", 1})
	case opRevert:
		return pick(rng, weighted{"Write", 2}, weighted{"Edit", 2 * b2i(exists)}, weighted{"Bash", 2}, weighted{"apply_patch", 1})
	case opRemove, opMove:
		return pick(rng, weighted{"Bash", 2}, weighted{"apply_patch", 1})
	case opMoveDir:
		return "Bash" // a patch moves files, not directories
	}
	return pick(rng, weighted{"Write", 3}, weighted{"apply_patch", 1})
}

// sedable reports whether sed -i can make subs: one line each.
func sedable(subs []sub) bool {
	for _, s := range subs {
		if strings.Contains(s.old, "\n") || strings.Contains(s.new, "\n") {
			return false
		}
	}
	return len(subs) > 0
}

// sedScript is the sed script of subs: one s command each, with a
// delimiter neither side uses, the old text's BRE metacharacters and the
// new text's & and \ escaped.
func sedScript(subs []sub) string {
	var cmds []string
	for _, s := range subs {
		d := "|"
		for _, c := range []string{"|", "#", "%", "@", "~", ",", "!"} {
			if !strings.Contains(s.old+s.new, c) {
				d = c
				break
			}
		}
		old := strings.NewReplacer(`\`, `\\`, ".", `\.`, "*", `\*`, "[", `\[`, "]", `\]`, "^", `\^`, "$", `\$`, d, `\`+d).Replace(s.old)
		repl := strings.NewReplacer(`\`, `\\`, "&", `\&`, d, `\`+d).Replace(s.new)
		cmds = append(cmds, "s"+d+old+d+repl+d)
	}
	return strings.Join(cmds, "; ")
}

// shellQuote quotes s for sh as one word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
