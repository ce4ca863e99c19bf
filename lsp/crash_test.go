//go:build unix

package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeClock is a Manager.Now that moves only when told: back-offs pass
// without sleeping.
type fakeClock struct {
	mu sync.Mutex // guards t
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Now()} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// crashOf returns o's *CrashError, failing t when o is not the answer of a
// crashed server: no diagnostics, freshness none, an error that is a
// CrashError and (a process that died) ErrBroken.
func crashOf(t *testing.T, o Outcome) *CrashError {
	t.Helper()
	var ce *CrashError
	if o.Freshness != None || !errors.As(o.Err, &ce) || !errors.Is(o.Err, ErrBroken) || len(o.Files) > 0 {
		t.Fatalf("outcome = %+v, want none with a CrashError that is ErrBroken", o)
	}
	return ce
}

// TestCrashedServerRestarts: a server killed between two changes is not
// started again during its back-off (1 s after the crash): a change then
// is answered at once, saying when it will be; the first change after the
// back-off starts a new process, which gets the document opened afresh
// (didOpen) and answers it. The killed process is gone.
func TestCrashedServerRestarts(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "normal", "-trace="+trace)
	clock := newFakeClock()
	m.Now = clock.Now
	path := writeFile(t, dir, "a.fake", "ERROR: one\n")
	check := func() Outcome {
		t.Helper()
		out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
		if len(out) != 1 {
			t.Fatalf("outcomes = %+v", out)
		}
		return out[0]
	}
	if o := check(); o.Freshness != Fresh {
		t.Fatalf("first check: %+v", o)
	}
	old := fakeStatus(t, m).Pid
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !eventually(5*time.Second, func() bool { return fakeStatus(t, m).State == StateBroken }) {
		t.Fatalf("status after SIGKILL = %+v, want broken", fakeStatus(t, m))
	}

	ce := crashOf(t, check())
	if ce.GaveUp || ce.Crashes != 1 || !ce.RestartAt.Equal(clock.Now().Add(DefaultRestartBackoff)) || ce.Wait != DefaultRestartBackoff {
		t.Errorf("crash during the back-off = %+v, want a restart 1 s after the crash", ce)
	}
	if !strings.Contains(ce.Error(), "signal: killed; it restarts on the next change after ") {
		t.Errorf("crash error = %q", ce.Error())
	}
	st := fakeStatus(t, m)
	if st.State != StateBroken || st.Crashes != 1 || !st.RestartAt.Equal(ce.RestartAt) || !strings.Contains(st.LastError, "it restarts on the next change after") {
		t.Errorf("status during the back-off = %+v", st)
	}
	if m.Serves(path) {
		t.Errorf("Serves during the back-off: compiler-mode fallbacks would not run")
	}
	if n := len(traceLines(t, trace, "start ")); n != 1 {
		t.Fatalf("%d starts during the back-off, want 1", n)
	}

	clock.Add(DefaultRestartBackoff)
	if !m.Serves(path) || m.Warm(path) {
		t.Errorf("after the back-off: Serves %v, Warm %v; want a live server that needs the first-touch budget", m.Serves(path), m.Warm(path))
	}
	o := check()
	if o.Freshness != Fresh || len(o.Files[path]) != 1 || o.Files[path][0].Message != "one" {
		t.Fatalf("check after the back-off: %+v", o)
	}
	if n := len(traceLines(t, trace, "start ")); n != 2 {
		t.Errorf("%d starts, want 2", n)
	}
	if n := len(traceLines(t, trace, "textDocument/didOpen")); n != 2 {
		t.Errorf("%d didOpen, want 2: the new server gets the document opened afresh", n)
	}
	st = fakeStatus(t, m)
	if st.State != StateActive || st.Pid == old || st.Crashes != 0 || st.LastError != "" {
		t.Errorf("status after the restart = %+v (killed %d)", st, old)
	}
	if err := syscall.Kill(-old, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group of the killed server %d: %v, want gone", old, err)
	}
}

// TestCrashLoopGivesUp: a server that crashes on every change (fakelsp
// crash-mid-request) is reported broken on the change it crashed on, with
// when it starts again; it is started again after 1, 2, 4 and 8 s, and
// after its 5th crash within 10 minutes no more: every later change says
// it crashed 5 times and `lsp-hook restart` brings it back, as status
// does, until Restart clears the count. No crashed process is left.
func TestCrashLoopGivesUp(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "crash-mid-request", "-trace="+trace)
	clock := newFakeClock()
	m.Now = clock.Now
	path := writeFile(t, dir, "a.fake", "ERROR: one\n")
	check := func() Outcome {
		t.Helper()
		out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
		if len(out) != 1 {
			t.Fatalf("outcomes = %+v", out)
		}
		return out[0]
	}
	starts := func() int { return len(traceLines(t, trace, "start ")) }
	var pids []int
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 0} {
		ce := crashOf(t, check())
		pids = append(pids, fakeStatus(t, m).Pid)
		if n := starts(); n != i+1 {
			t.Fatalf("crash %d: %d starts, want %d", i+1, n, i+1)
		}
		if ce.Crashes != i+1 || !strings.Contains(ce.Error(), "simulated crash") && !strings.Contains(ce.Error(), "exit status 3") {
			t.Errorf("crash %d: %+v (%v)", i+1, ce, ce)
		}
		if wait > 0 {
			if ce.GaveUp || ce.Wait != wait {
				t.Fatalf("crash %d: restart in %v (gave up %v), want in %v", i+1, ce.Wait, ce.GaveUp, wait)
			}
			// One step short of the back-off: still down, nothing started.
			clock.Add(wait - time.Millisecond)
			if ce := crashOf(t, check()); ce.Wait != time.Millisecond || starts() != i+1 {
				t.Fatalf("crash %d, 1 ms before its restart: %+v, %d starts", i+1, ce, starts())
			}
			clock.Add(time.Millisecond)
			continue
		}
		const plan = "it crashed 5 times in 10 minutes: run `lsp-hook restart fake` to start it again"
		if !ce.GaveUp || !strings.HasSuffix(ce.Error(), plan) {
			t.Fatalf("5th crash: %q, want it to end %q", ce.Error(), plan)
		}
	}
	clock.Add(time.Hour)
	ce := crashOf(t, check())
	if !ce.GaveUp || ce.Crashes != 5 || starts() != 5 {
		t.Errorf("an hour after giving up: %+v, %d starts; want still given up, 5 starts", ce, starts())
	}
	st := fakeStatus(t, m)
	if st.State != StateBroken || st.Crashes != 5 || !st.RestartAt.IsZero() || !strings.Contains(st.LastError, "it crashed 5 times in 10 minutes") {
		t.Errorf("status after giving up = %+v", st)
	}
	if m.Serves(path) {
		t.Errorf("Serves a server given up")
	}
	for _, pid := range pids {
		if !eventually(5*time.Second, func() bool { return syscall.Kill(-pid, 0) != nil }) {
			t.Errorf("crashed server %d's process group is still there", pid)
		}
	}

	if _, err := m.Restart("fake"); err != nil {
		t.Fatal(err)
	}
	ce = crashOf(t, check())
	if ce.GaveUp || ce.Crashes != 1 || starts() != 6 {
		t.Errorf("after Restart: %+v, %d starts; want a 6th start, counted as a first crash", ce, starts())
	}
}

// TestFailedStartRestarts: a start-up that fails counts as a crash: the
// next change after the back-off tries again.
func TestFailedStartRestarts(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace")
	m, dir := fakeManager(t, "never-answers", "-trace="+trace)
	clock := newFakeClock()
	m.Now = clock.Now
	m.StartTimeout = 300 * time.Millisecond
	path := writeFile(t, dir, "a.fake", "x")
	out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
	var ce *CrashError
	if len(out) != 1 || out[0].Freshness != None || !errors.As(out[0].Err, &ce) || ce.Wait != time.Second {
		t.Fatalf("outcome = %+v, want a crash restarting in 1s", out)
	}
	clock.Add(time.Second)
	m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if n := len(traceLines(t, trace, "start ")); n != 2 {
		t.Errorf("%d starts, want 2", n)
	}
}
