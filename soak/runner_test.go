package soak

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// call is one judged hook call: what the agent did, what the hook
// printed, and the snapshots its answer is judged against.
type call struct {
	n        int      // its number in the language's run, from 1
	scenario string   // the scenario and step it belongs to
	move     string   // what the agent did, for the report
	tool     string   // "Write", "Edit", "MultiEdit", "Bash", "Batch" or "apply_patch" (Codex's)
	changed  []string // the files the move changed, workspace-relative
	before   string   // key of the snapshot before the move
	after    string   // key of the snapshot when the hook returned
	older    string   // for the older hook of a race, the key of the text it was for; else ""
	run      hookRun
}

// runner plays one language's schedule against its workspace.
type runner struct {
	t       *testing.T
	lang    *language
	ws      *workspace
	oracle  *oracle
	rng     *rand.Rand
	sched   schedule
	session string
	base    snapshot // the committed project
	state   string   // key of the snapshot after the last move
	calls   []*call
	starts  int         // sessions started (SessionStart hooks)
	stopRng *rand.Rand  // draws the ends of turn (maybeStop), apart from the moves
	stops   []*stopCall // the ends of turn played
	// lateRng draws whether a new session's first move is made before
	// its SessionStart (schedule.startLate), apart from the moves.
	lateRng *rand.Rand
	// idleRng draws the daemon's stops mid-session (maybeIdle), apart
	// from the moves; idles counts them, crashes those that were a kill.
	idleRng        *rand.Rand
	idles, crashes int
	// startDue says the session's SessionStart is still to come: the
	// next move's change is made first, then SessionStart, then its hook
	// (startDeferred); startedLate marks that move's call.
	startDue, startedLate bool
}

// newRunner sets up lang's workspace and mirror and submits the committed
// project to the compiler.
func newRunner(t *testing.T, lang *language, bin, path string, seed uint64, langIndex int, sched schedule) *runner {
	t.Helper()
	files := lang.files(t)
	ws := newWorkspace(t, bin, path, files)
	mirror, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{
		t: t, lang: lang, ws: ws, sched: sched,
		oracle:  newOracle(lang, mirror, ws.env),
		rng:     rand.New(rand.NewPCG(seed, uint64(langIndex))),
		stopRng: rand.New(rand.NewPCG(seed, uint64(langIndex)+1<<32)),
		lateRng: rand.New(rand.NewPCG(seed, uint64(langIndex)+2<<32)),
		idleRng: rand.New(rand.NewPCG(seed, uint64(langIndex)+3<<32)),
		session: fmt.Sprintf("soak-%s-%d", lang.name, seed),
	}
	r.base = r.snapshot()
	r.state = r.oracle.submit(r.base)
	return r
}

// snapshot reads the workspace's files.
func (r *runner) snapshot() snapshot {
	r.t.Helper()
	s, err := takeSnapshot(r.ws.root)
	if err != nil {
		r.t.Fatalf("reading the workspace: %v", err)
	}
	return s
}

// play starts the session as Claude Code does (SessionStart: lsp-hook
// starts its daemon, which prewarms the servers and checks a file in the
// background), then at once runs scenarios drawn at random until quota
// hook calls were made (the last scenario may stop half way), checking
// after each whole scenario that the project is back to its committed
// state. After a step the agent may end its turn (maybeStop). The first
// moves race the prewarm's checks, and so do those of a scenario that
// starts a new session (schedule.restart) — half of those only after the
// first move's change is made, so that the new servers load it from disk
// before its hook comes (schedule.startLate, startDeferred).
func (r *runner) play(quota int) {
	r.t.Helper()
	r.startSession()
	for len(r.calls) < quota {
		sc := r.lang.scenarios[r.rng.IntN(len(r.lang.scenarios))]
		if r.rng.Float64() < r.sched.restart {
			r.ws.stop(r.t) // the daemon and its servers gone, as after the idle timeout
			if r.lateRng.Float64() < r.sched.startLate {
				r.startDue = true // the first move's change is made with no daemon running
			} else {
				r.startSession()
			}
		}
		for i, st := range sc.steps {
			if len(r.calls) >= quota {
				return
			}
			name := fmt.Sprintf("%s %d/%d", sc.name, i+1, len(sc.steps))
			if err := r.step(name, st); err != nil {
				r.t.Fatalf("%s: scenario %s step %d: %v (a fault of the soak)", r.lang.name, sc.name, i+1, err)
			}
			r.maybeIdle()
			r.maybeStop(name)
		}
		if s := r.snapshot(); s.key() != r.base.key() {
			r.t.Fatalf("%s: scenario %s did not end with the committed project; differing files: %s (a fault of the soak)",
				r.lang.name, sc.name, strings.Join(diffFiles(r.base, s), ", "))
		}
		// A git mv there and a plain mv back leave the index naming the
		// other path; the next git checkout needs the committed one.
		if out, err := r.ws.command("git", "reset", "-q").CombinedOutput(); err != nil {
			r.t.Fatalf("git reset: %v\n%s", err, out)
		}
	}
}

// maybeIdle stops the daemon, with the odds schedule.idle, as its idle
// timeout (shorter than a session's) or `lsp-hook stop` would mid-session,
// or, with the odds schedule.crash of those, kills it a second after the
// step as the OOM killer or a crash would: the session goes on with no
// SessionStart, and its next hook — a move's, or the end of turn's —
// starts a daemon that knows the session only from what the stopped one
// left (its sessions' record and hook marks, which a killed daemon wrote
// as it ran).
func (r *runner) maybeIdle() {
	if r.idleRng.Float64() >= r.sched.idle || r.startDue {
		return
	}
	r.idles++
	if r.idleRng.Float64() < r.sched.crash {
		r.crashes++
		time.Sleep(time.Second)
		r.ws.kill(r.t)
		return
	}
	r.ws.stop(r.t)
}

// startSession runs the SessionStart hook, which must exit 0 and print
// nothing; with no daemon running it starts one that prewarms.
func (r *runner) startSession() {
	r.t.Helper()
	r.starts++
	if run := r.ws.startHook(sessionStart(r.ws, r.session))(); run.err != nil || run.exit != 0 || strings.TrimSpace(run.stdout) != "" {
		r.t.Errorf("%s: SessionStart hook: exit %d, error %v, stdout %q (want 0, none, none)", r.lang.name, run.exit, run.err, run.stdout)
	}
}

// startDeferred runs the SessionStart hook a restart left for after the
// next move's change (startDue), right before that move's hook waits:
// the new daemon's servers then load a workspace that already holds the
// change, and answer the prewarm's file before the change's hook comes
// (TestChangeOlderThanServer plays it for one edit).
func (r *runner) startDeferred() {
	if !r.startDue {
		return
	}
	r.startDue, r.startedLate = false, true
	r.startSession()
}

// step makes one step: a single op, or several files with one shell
// command, as one batch or one after another.
func (r *runner) step(name string, st step) error {
	if len(st) == 1 {
		return r.single(name, st[0])
	}
	if shellable(st) && r.rng.Float64() < r.sched.shell {
		return r.shell(name, st)
	}
	allContent := true
	for _, o := range st {
		allContent = allContent && o.kind != opRemove && o.kind != opMove && o.kind != opMoveDir
	}
	if allContent && r.rng.Float64() < r.sched.batch {
		return r.batch(name, st)
	}
	for _, o := range st {
		if err := r.single(name, o); err != nil {
			return err
		}
	}
	return nil
}

// record takes the snapshot the hook's answer is judged against and adds
// the call; its before is the last state unless set.
func (r *runner) record(c *call) {
	c.n = len(r.calls) + 1
	if c.before == "" {
		c.before = r.state
	}
	if r.startedLate {
		r.startedLate = false
		c.move += ", made before SessionStart"
	}
	c.after = r.oracle.submit(r.snapshot())
	r.state = c.after
	r.calls = append(r.calls, c)
	if testing.Verbose() && r.sched.verbose {
		r.t.Logf("%s #%d %s (hook at %s UTC): %s → %s", r.lang.name, c.n, c.scenario, c.run.begin.UTC().Format("15:04:05.000"), c.move, strings.ReplaceAll(c.run.stdout, "\n", " "))
	}
}

// hook waits d, then runs the hook with event and waits for it.
func (r *runner) hook(d time.Duration, event string) hookRun {
	return r.hookAs("claude", d, event)
}

// hookAs is hook for the agent's adapter (`lsp-hook hook <agent>`).
func (r *runner) hookAs(agent string, d time.Duration, event string) hookRun {
	r.startDeferred()
	time.Sleep(d) // sets up the timing an agent gives the hook; never waits for a result
	return r.ws.startHookAs(agent, event)()
}

// diffFiles lists the files that differ between a and b.
func diffFiles(a, b snapshot) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(a)) {
		if b[p] != a[p] {
			out = append(out, p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	return out
}
