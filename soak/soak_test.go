package soak

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// defaultCalls is the short form's number of judged hook calls, over the
// four languages (`go test ./soak`, `make test`); `make soak` sets
// SOAK_CALLS for the long form.
const defaultCalls = 208

// options are the soak's settings, from the environment.
type options struct {
	seed    uint64 // SOAK_SEED; random when unset, and printed
	calls   int    // SOAK_CALLS: judged hook calls over all languages
	verbose bool   // SOAK_VERBOSE=1: log every call (with go test -v)
	logDir  string // SOAK_LOGDIR: where each language's daemon log is copied at the end
	langs   string // SOAK_LANGS: the languages to run, comma-separated (default all)
	// scenarios is SOAK_SCENARIOS: the scenarios drawn, comma-separated
	// names (default all); a language that has none of them plays all
	// of its own.
	scenarios string
	// schedule is SOAK_SCHEDULE: odds of defaultSchedule replaced, as
	// comma-separated name=value pairs (race=1,restart=0.5), to play one
	// timing far more often than a run would.
	schedule string
}

// loadOptions reads SOAK_SEED, SOAK_CALLS, SOAK_VERBOSE, SOAK_LOGDIR,
// SOAK_LANGS, SOAK_SCENARIOS and SOAK_SCHEDULE.
func loadOptions(t *testing.T) options {
	t.Helper()
	o := options{seed: rand.Uint64() >> 1, calls: defaultCalls, verbose: os.Getenv("SOAK_VERBOSE") == "1", logDir: os.Getenv("SOAK_LOGDIR"), langs: os.Getenv("SOAK_LANGS"),
		scenarios: os.Getenv("SOAK_SCENARIOS"), schedule: os.Getenv("SOAK_SCHEDULE")}
	if s := os.Getenv("SOAK_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("SOAK_SEED=%q: %v", s, err)
		}
		o.seed = n
	}
	if s := os.Getenv("SOAK_CALLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("SOAK_CALLS=%q: want a positive number", s)
		}
		o.calls = n
	}
	return o
}

// TestSoak plays a seeded random schedule of agent moves against each
// language's project through the real binary, judges every hook answer
// against the compiler, prints the counts, and fails on any stale line,
// false clean, ghost, bad answer or missed cross-file error after a file
// tool (see thresholds). The four languages run in parallel, each with
// its own workspace, daemon and servers.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak: runs the binary, four language servers and their compilers")
	}
	o := loadOptions(t)
	root := moduleRoot(t)
	path := toolPath(root)
	requireTools(t, path, []string{"git", "sh", "sed"})
	bin := buildBinary(t, root)
	t.Logf("soak: seed %d (SOAK_SEED=%d replays its moves), %d calls", o.seed, o.seed, o.calls)
	langs := languages()
	quota := (o.calls + len(langs) - 1) / len(langs)
	tallies := make([]*tally, len(langs))
	sched, err := defaultSchedule.with(o.schedule)
	if err != nil {
		t.Fatalf("SOAK_SCHEDULE=%q: %v", o.schedule, err)
	}
	sched.verbose = o.verbose
	t.Run("lang", func(t *testing.T) {
		for i, l := range langs {
			t.Run(l.name, func(t *testing.T) {
				t.Parallel()
				if o.langs != "" && !slices.Contains(strings.Split(o.langs, ","), l.name) {
					t.Skipf("not in SOAK_LANGS=%s", o.langs)
				}
				requireTools(t, path, l.tools)
				l = l.only(o.scenarios)
				r := newRunner(t, l, bin, path, o.seed, i, sched)
				if o.logDir != "" {
					t.Cleanup(func() { copyLog(t, r.ws, filepath.Join(o.logDir, l.name+".log")) })
				}
				begin := time.Now()
				r.play(quota)
				played := time.Since(begin)
				tallies[i] = r.judgeAll()
				var hooks, longest time.Duration
				for _, c := range r.calls {
					hooks += c.run.elapsed
					longest = max(longest, c.run.elapsed)
				}
				t.Logf("%s: %d calls in %d sessions (%d daemon stops mid-session, %d of them a kill) played in %v (hooks %v in all, the longest %v), judged %v later",
					l.name, len(r.calls), r.starts, r.idles, r.crashes, played.Round(time.Millisecond), hooks.Round(time.Millisecond),
					longest.Round(time.Millisecond), (time.Since(begin) - played).Round(time.Millisecond))
			})
		}
	})
	ran := false
	for _, tl := range tallies {
		ran = ran || tl != nil
	}
	if !ran {
		t.Skip("no language could run")
	}
	report(t, o, quota, tallies)
}

// copyLog copies the daemon's log of ws to dst, for a look by hand.
func copyLog(t *testing.T, ws *workspace, dst string) {
	b, err := os.ReadFile(ws.logFile())
	if err == nil {
		err = os.MkdirAll(filepath.Dir(dst), 0o755)
	}
	if err == nil {
		err = os.WriteFile(dst, b, 0o644)
	}
	if err != nil {
		t.Logf("copying the daemon log: %v", err)
	}
}
