package lsp

import (
	"fmt"
	"strings"
	"time"
)

// This file is the rule for crashed servers (DESIGN.md "LSP client
// essentials", Crash): a server that crashed starts again on the next
// change that needs it, after a back-off, and stays broken after too many
// crashes in a short time.

// Defaults of CrashPolicy.
const (
	// DefaultRestartBackoff is how long after its first crash a server
	// stays down before the next change may start it again.
	DefaultRestartBackoff = 1 * time.Second
	// DefaultMaxRestartBackoff caps the back-off, however many crashes
	// came in a row.
	DefaultMaxRestartBackoff = 60 * time.Second
	// DefaultCrashLimit is how many crashes within DefaultCrashWindow make
	// lsp-hook stop restarting a server by itself.
	DefaultCrashLimit = 5
	// DefaultCrashWindow is the span in which DefaultCrashLimit crashes
	// give up, and the time a server must run without crashing before its
	// back-off starts over at DefaultRestartBackoff.
	DefaultCrashWindow = 10 * time.Minute
)

// CrashPolicy says when lsp-hook starts a crashed server again by itself.
// A server (one per server × root) whose process died, whose stream broke
// or whose start-up failed waits Backoff after its first crash, twice as
// long after each further crash in a row, at most MaxBackoff; crashes are
// in a row when each came within Window of the one before, so a server
// that ran Window without crashing starts over at Backoff. After Limit
// crashes within Window it is not started again until Manager.Restart.
// The back-off ends no check: a change arriving during it is answered at
// once without the server, saying when it starts again.
type CrashPolicy struct {
	Backoff    time.Duration // wait after a first crash
	MaxBackoff time.Duration // longest wait
	Limit      int           // crashes within Window that give up
	Window     time.Duration // span of Limit, and of "in a row"
}

// DefaultCrashPolicy is 1 s doubling to 60 s, giving up after 5 crashes
// in 10 minutes.
var DefaultCrashPolicy = CrashPolicy{
	Backoff: DefaultRestartBackoff, MaxBackoff: DefaultMaxRestartBackoff,
	Limit: DefaultCrashLimit, Window: DefaultCrashWindow,
}

// maxCrashesKept bounds a server's crash history: more than enough for
// any Limit and for the back-off to reach MaxBackoff.
const maxCrashesKept = 64

// next applies the policy to crashes, one server's crash times, oldest
// first, the last one its latest. It returns when the server may start
// again (its latest crash plus the back-off), or giveUp when it crashed
// Limit times within Window up to its latest crash. No crashes: the zero
// time, and false.
func (p CrashPolicy) next(crashes []time.Time) (at time.Time, giveUp bool) {
	if len(crashes) == 0 {
		return time.Time{}, false
	}
	last := crashes[len(crashes)-1]
	if p.Limit > 0 && p.inWindow(crashes) >= p.Limit {
		return time.Time{}, true
	}
	wait := p.Backoff
	for i := len(crashes) - 1; i > 0 && crashes[i].Sub(crashes[i-1]) < p.Window && wait < p.MaxBackoff; i-- {
		wait *= 2
	}
	return last.Add(min(wait, p.MaxBackoff)), false
}

// inWindow counts the crashes within Window up to the latest one.
func (p CrashPolicy) inWindow(crashes []time.Time) int {
	last := crashes[len(crashes)-1]
	n := 0
	for _, c := range crashes {
		if last.Sub(c) < p.Window {
			n++
		}
	}
	return n
}

// record returns crashes with one more at at, without the crashes that no
// longer count (those before a Window without crashes), at most
// maxCrashesKept.
func (p CrashPolicy) record(crashes []time.Time, at time.Time) []time.Time {
	out := append(crashes[:len(crashes):len(crashes)], at)
	start := 0
	for i := len(out) - 1; i > 0; i-- {
		if out[i].Sub(out[i-1]) >= p.Window {
			start = i
			break
		}
	}
	start = max(start, len(out)-maxCrashesKept)
	return out[start:]
}

// CrashError is the error of a check or request that a crashed server did
// not answer: why it broke (Err, ErrBroken for a process that died or a
// stream that broke, the start-up's error for one that failed to start)
// and what lsp-hook does about it, which its text ends with (see
// SplitCrashPlan): start it again on the next change after RestartAt, or,
// when GaveUp, nothing until `lsp-hook restart`.
type CrashError struct {
	Server    string
	Err       error
	Crashes   int           // crashes within Window, this one included
	Window    time.Duration // CrashPolicy.Window
	RestartAt time.Time     // when the next change may start it again; zero when GaveUp
	GaveUp    bool
	// Wait is how long from the check until RestartAt, for the note ("in
	// 2s"); 0 leaves it out.
	Wait time.Duration
}

// The plans a CrashError's text ends with, after "; ".
const (
	planRestarts = "it restarts on the next change after "
	planGaveUp   = "it crashed "
)

func (e *CrashError) Error() string {
	return e.Err.Error() + "; " + e.plan()
}

func (e *CrashError) plan() string {
	if e.GaveUp {
		return fmt.Sprintf("%s%d times in %s: run `lsp-hook restart %s` to start it again",
			planGaveUp, e.Crashes, humanDuration(e.Window), e.Server)
	}
	p := planRestarts + e.RestartAt.Format(time.TimeOnly)
	if e.Wait > 0 {
		p += fmt.Sprintf(" (in %v)", e.Wait.Round(100*time.Millisecond))
	}
	return p
}

func (e *CrashError) Unwrap() error { return e.Err }

// SplitCrashPlan splits the text of a broken server's error (an Outcome's
// Err as a string) into why it broke and, for a CrashError, what lsp-hook
// does about it: "it restarts on the next change after 15:04:05 (in 2s)"
// or "it crashed 5 times in 10 minutes: run `lsp-hook restart gopls` to
// start it again". plan is "" for any other error.
func SplitCrashPlan(msg string) (why, plan string) {
	for _, p := range []string{planRestarts, planGaveUp} {
		if i := strings.LastIndex(msg, "; "+p); i >= 0 {
			return msg[:i], msg[i+2:]
		}
	}
	return msg, ""
}

// humanDuration writes whole minutes as people do ("10 minutes", "1
// minute"), anything else as time.Duration does.
func humanDuration(d time.Duration) string {
	switch {
	case d == time.Minute:
		return "1 minute"
	case d > 0 && d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}
