//go:build unix

package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
)

// TestFaults runs one check against testdata/fakelsp in each fault mode and
// asserts the outcome, that it ended within its deadline, the recorded
// freshness, the state status then shows, and that Shutdown leaves no
// process behind. Deadlines (fakelsptest.Config): 1 s warm, 2 s first
// touch; every case is a first touch.
func TestFaults(t *testing.T) {
	tests := []struct {
		mode          string
		flags         []string
		text          string
		wantFreshness Freshness
		wantState     string
		wantErr       error
		wantMessages  []string // the changed file's diagnostics, exactly
		wantStderr    string   // in status's stderr lines
		minElapsed    time.Duration
		maxElapsed    time.Duration // 0: the first-touch deadline, plus 500 ms for scheduling
		slowCPU       bool          // CPU-bound: deadlines of 10 s, so the race detector does not turn it into a timeout
		check         func(t *testing.T, o Outcome)
	}{
		{mode: "normal", text: "ok\nERROR(E1): broken\n", wantFreshness: Fresh, wantState: StateActive,
			wantMessages: []string{"broken"}},
		// Exits 100 ms after didOpen while the check waits: the check ends
		// at once, not at its deadline, the server is broken, and status
		// has its last words.
		{mode: "crash-mid-request", text: "x", wantFreshness: None, wantState: StateBroken, wantErr: ErrBroken,
			wantStderr: "fatal error: simulated crash", maxElapsed: time.Second},
		// initialize never answered: the check gives up at first touch (2
		// s) as "timeout", the server is still starting (not broken).
		{mode: "never-answers", text: "x", wantFreshness: Timeout, wantState: StateStarting, wantErr: ErrStarting,
			minElapsed: 2 * time.Second},
		{mode: "never-publishes", text: "x", wantFreshness: Timeout, wantState: StateActive,
			minElapsed: 2 * time.Second},
		{mode: "pull-only", text: "ERROR(P1): pulled\n", wantFreshness: Fresh, wantState: StateActive,
			wantMessages: []string{"pulled"}},
		// The push for the previous version arrives first and never counts:
		// the answer is the right push, 300 ms later.
		{mode: "stale-version", text: "ERROR: current\n", wantFreshness: Fresh, wantState: StateActive,
			wantMessages: []string{"current"}, minElapsed: 300 * time.Millisecond},
		{mode: "slow-initialize", text: "x", wantFreshness: Timeout, wantState: StateStarting, wantErr: ErrStarting,
			minElapsed: 2 * time.Second},
		{mode: "flood", text: strings.Repeat("line\n", 500), wantFreshness: Fresh, wantState: StateActive,
			slowCPU: true, check: checkFlood},
		{mode: "stderr-flood", text: "ERROR: loud\n", wantFreshness: Fresh, wantState: StateActive,
			wantMessages: []string{"loud"}},
		// The stream is unframed: the server is broken and its process,
		// alive, is killed (after 200 ms), which ends the check before its
		// deadline.
		{mode: "garbage-stdout", text: "x", wantFreshness: None, wantState: StateBroken, wantErr: ErrBroken,
			maxElapsed: time.Second},
		// The server dies as it is written to: the write fails (a broken
		// pipe) before its exit status is known, and the reason given is
		// the exit status, as for any other crash.
		{mode: "close-stdin", text: "x", wantFreshness: None, wantState: StateBroken, wantErr: ErrBroken,
			maxElapsed: time.Second, check: func(t *testing.T, o Outcome) {
				if !strings.Contains(o.Err.Error(), "server process exited: exit status 4") {
					t.Errorf("err = %v, want the exit status as the reason", o.Err)
				}
			}},
		// 1 MiB of text fills the pipe of a server that does not read: the
		// write times out instead of blocking.
		{mode: "no-read", text: strings.Repeat("x", 1<<20), wantFreshness: None, wantState: StateBroken, wantErr: ErrBroken,
			minElapsed: DefaultWriteTimeout, maxElapsed: DefaultWriteTimeout + time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			dir := tempDir(t)
			path := writeFile(t, dir, "a.fake", tt.text)
			cfg := fakelsptest.Config(t, tt.mode, tt.flags...)
			if tt.slowCPU {
				cfg.LSP.Timeout, cfg.LSP.FirstTouchTimeout = 10*time.Second, 10*time.Second
			}
			if tt.maxElapsed == 0 {
				tt.maxElapsed = cfg.LSP.FirstTouchTimeout + 500*time.Millisecond
			}
			m := NewManager(cfg, dir, testLogger(t))
			t.Cleanup(m.Shutdown) // on failure; the test shuts it down itself, timed
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			begin := time.Now()
			out := m.Check(ctx, []Doc{{Path: path}}, 0)
			elapsed := time.Since(begin)
			t.Logf("%s: %s in %v (err: %v)", tt.mode, outFreshness(out), elapsed.Round(time.Millisecond), outErr(out))
			if len(out) != 1 {
				t.Fatalf("outcomes = %+v", out)
			}
			o := out[0]
			if o.Freshness != tt.wantFreshness {
				t.Errorf("freshness = %s, want %s (err %v)", o.Freshness, tt.wantFreshness, o.Err)
			}
			if tt.wantErr != nil && !errors.Is(o.Err, tt.wantErr) {
				t.Errorf("err = %v, want %v", o.Err, tt.wantErr)
			}
			if elapsed < tt.minElapsed || elapsed > tt.maxElapsed+schedulingSlack {
				t.Errorf("took %v, want %v to %v (+%v for a loaded machine)", elapsed, tt.minElapsed, tt.maxElapsed, schedulingSlack)
			}
			if tt.wantMessages != nil {
				var got []string
				for _, d := range o.Files[path] {
					got = append(got, d.Message)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.wantMessages) {
					t.Errorf("messages = %q, want %q", got, tt.wantMessages)
				}
			}
			if o.Freshness != Fresh && len(o.Files[path]) > 0 {
				t.Errorf("a %s outcome carries diagnostics for the changed file: %+v", o.Freshness, o.Files[path])
			}
			if tt.check != nil {
				tt.check(t, o)
			}
			st := fakeStatus(t, m)
			if st.State != tt.wantState {
				t.Errorf("status = %+v, want state %s", st, tt.wantState)
			}
			if tt.wantStderr != "" && !strings.Contains(strings.Join(st.Stderr, "\n"), tt.wantStderr) {
				t.Errorf("status stderr = %q, want it to contain %q", st.Stderr, tt.wantStderr)
			}
			pid := st.Pid
			begin = time.Now()
			m.Shutdown()
			if d := time.Since(begin); d > ShutdownGrace+time.Second {
				t.Errorf("shutdown took %v", d)
			}
			if pid != 0 {
				if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
					t.Errorf("server pid %d still exists after shutdown: %v", pid, err)
				}
			}
		})
	}
}

// checkFlood: all 10,000 diagnostics arrive, and the lint block built from
// them obeys every cap of DESIGN.md.
func checkFlood(t *testing.T, o Outcome) {
	t.Helper()
	var path string
	for p := range o.Files {
		path = p
	}
	ds := o.Files[path]
	if len(ds) != 10000 {
		t.Fatalf("got %d diagnostics, want 10000", len(ds))
	}
	block := diag.LintBlock([]diag.FileDiagnostics{{Path: path, Rel: "a.fake", Diagnostics: diag.SortDedupe(ds)}}, nil, diag.DefaultLimits)
	lines := strings.Split(block, "\n")
	if len(lines) > diag.DefaultLimits.MaxLines || len(block) > diag.DefaultLimits.MaxChars {
		t.Errorf("lint block has %d lines and %d chars, over the caps", len(lines), len(block))
	}
	if n := strings.Count(block, "\nERROR ["); n != diag.DefaultLimits.MaxPerFile {
		t.Errorf("lint block lists %d diagnostics, want %d", n, diag.DefaultLimits.MaxPerFile)
	}
	if !strings.Contains(block, "... and 9980 more") {
		t.Errorf("lint block does not count what it cut:\n%s", block)
	}
}

// TestCrashFailsPendingRequests: requests pending when the server dies fail
// at once with ErrBroken, not at their deadline.
func TestCrashFailsPendingRequests(t *testing.T) {
	dir := tempDir(t)
	c := startClient(context.Background(), t, fakelsptest.Server(t, "fake", "crash-mid-request"), dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errs := make(chan error, 3)
	begin := time.Now()
	for i := range 3 {
		go func() {
			errs <- c.call(ctx, "textDocument/hover", map[string]any{
				"textDocument": map[string]any{"uri": pathToURI(filepath.Join(dir, "a.fake"))},
				"position":     map[string]any{"line": i, "character": 0},
			}, nil)
		}()
	}
	for range 3 {
		// The connection may close (EOF on the server's stdout) a moment
		// before the process's exit marks the client broken.
		if err := <-errs; !errors.Is(err, ErrBroken) && !errors.Is(err, jsonrpc2.ErrClosed) {
			t.Errorf("pending call err = %v, want ErrBroken or a closed connection", err)
		}
	}
	elapsed := time.Since(begin)
	t.Logf("3 pending requests failed %v after the crash request", elapsed.Round(time.Millisecond))
	if elapsed > time.Second {
		t.Errorf("pending requests failed after %v, want at once", elapsed)
	}
	// Its stderr is copied until the process is reaped; wait for that.
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("crashed server not reaped")
	}
	if !strings.Contains(strings.Join(c.StderrLines(5), "\n"), "simulated crash during request textDocument/hover") {
		t.Errorf("stderr lines = %q", c.StderrLines(5))
	}
}

// TestUnansweredRequestCancelled: a request the server never answers
// returns at its context's end and is cancelled on the wire.
func TestUnansweredRequestCancelled(t *testing.T) {
	dir := tempDir(t)
	trace := filepath.Join(dir, "trace")
	c := startClient(context.Background(), t, fakelsptest.Server(t, "fake", "never-publishes", "-trace="+trace), dir)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	begin := time.Now()
	err := c.call(ctx, "textDocument/hover", map[string]any{}, nil)
	if elapsed := time.Since(begin); err == nil || elapsed > time.Second {
		t.Errorf("call = %v after %v, want a context error after 300ms", err, elapsed)
	}
	if !eventually(2*time.Second, func() bool { return len(traceLines(t, trace, "$/cancelRequest")) == 1 }) {
		t.Errorf("no $/cancelRequest sent; trace: %q", traceLines(t, trace, ""))
	}
	if c.Err() != nil {
		t.Errorf("an unanswered request broke the client: %v", c.Err())
	}
}

// TestStartTimeout: a server whose initialize outlasts StartTimeout is
// killed and broken, with its stderr in the error.
func TestStartTimeout(t *testing.T) {
	m, dir := fakeManager(t, "never-answers")
	path := writeFile(t, dir, "a.fake", "x")
	m.StartTimeout = 500 * time.Millisecond
	out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if len(out) != 1 || out[0].Freshness != None || out[0].Err == nil {
		t.Fatalf("outcome = %+v", out)
	}
	st := fakeStatus(t, m)
	if st.State != StateBroken || !strings.Contains(st.LastError, "deadline exceeded") ||
		!strings.Contains(st.LastError, "started in mode never-answers") {
		t.Errorf("status = %+v, want broken by the start deadline, with its stderr", st)
	}
}

// TestSlowInitializeServesNextCheck: a start-up slower than the request's
// budget goes on in the background, and the next check uses the server.
func TestSlowInitializeServesNextCheck(t *testing.T) {
	m, dir := fakeManager(t, "slow-initialize", "-init-delay=2500ms")
	path := writeFile(t, dir, "a.fake", "ERROR: late\n")
	out := m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if len(out) != 1 || out[0].Freshness != Timeout || !errors.Is(out[0].Err, ErrStarting) {
		t.Fatalf("first outcome = %+v, want timeout while starting", out)
	}
	if !eventually(3*time.Second, func() bool { return fakeStatus(t, m).State == StateActive }) {
		t.Fatalf("server not active after its slow start: %+v", fakeStatus(t, m))
	}
	out = m.Check(context.Background(), []Doc{{Path: path}}, 0)
	if len(out) != 1 || out[0].Freshness != Fresh || len(out[0].Files[path]) != 1 {
		t.Fatalf("second outcome = %+v, want fresh", out)
	}
}

// TestShutdownKillsStuckServer: a server that ignores shutdown is killed
// with its process group, and no process is left behind.
func TestShutdownKillsStuckServer(t *testing.T) {
	m, dir := fakeManager(t, "never-publishes")
	path := writeFile(t, dir, "a.fake", "x")
	m.Check(context.Background(), []Doc{{Path: path}}, 0)
	pid := fakeStatus(t, m).Pid
	if pid == 0 {
		t.Fatal("fake server not started")
	}
	// Stopped, it cannot answer shutdown.
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	m.Shutdown()
	if d := time.Since(begin); d > ShutdownGrace+2*time.Second {
		t.Errorf("shutdown took %v", d)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("server pid %d still exists after shutdown: %v", pid, err)
	}
}

func TestUnavailableServer(t *testing.T) {
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.Server{"nope": {
		Name: "nope", Command: []string{"lsp-hook-no-such-server"}, Extensions: []string{".nope"}, Enabled: true,
	}}
	dir := t.TempDir()
	m := NewManager(cfg, dir, testLogger(t))
	defer m.Shutdown()
	out := m.Check(context.Background(), []Doc{{Path: filepath.Join(dir, "a.nope"), Text: []byte("x")}}, 0)
	if len(out) != 1 || out[0].Freshness != None || out[0].Err == nil || !strings.Contains(out[0].Err.Error(), "not found") {
		t.Fatalf("outcome = %+v", out)
	}
	if st := m.Status(); len(st) != 1 || st[0].State != StateUnavailable {
		t.Fatalf("status = %+v", st)
	}
}

// TestStuckServerDoesNotDelayOthers: two servers check the same file; one
// has stopped reading its stdin. The healthy one answers fresh, within its
// first-touch deadline (2 s), which is shorter than the stuck one's write
// timeout (3 s), and the check as a whole ends within that write timeout
// (the deadline that bounds it), not later.
func TestStuckServerDoesNotDelayOthers(t *testing.T) {
	dir := tempDir(t)
	cfg := fakelsptest.Config(t, "normal")
	cfg.LSP.Servers["stuck"] = fakelsptest.Server(t, "stuck", "no-read")
	// 1 MiB fills the pipe of the server that does not read.
	path := writeFile(t, dir, "a.fake", strings.Repeat("x", 1<<20))
	m := NewManager(cfg, dir, testLogger(t))
	defer m.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	begin := time.Now()
	out := m.Check(ctx, []Doc{{Path: path}}, 0)
	elapsed := time.Since(begin)
	byName := make(map[string]Outcome)
	for _, o := range out {
		byName[o.Server] = o
	}
	if o := byName["fake"]; o.Freshness != Fresh {
		t.Errorf("healthy server: freshness %s (err %v); want fresh", o.Freshness, o.Err)
	}
	if o := byName["stuck"]; o.Freshness == Fresh {
		t.Errorf("stuck server answered fresh: %+v", o)
	}
	if limit := DefaultWriteTimeout + 2*time.Second + schedulingSlack; elapsed > limit {
		t.Errorf("check took %v, want at most %v", elapsed, limit)
	}
}

// schedulingSlack is added to the upper bounds of elapsed-time checks: they
// prove a fault is cut off by its deadline instead of hanging, and a CI
// machine running other packages' tests at the same time can be seconds
// late without that proof failing.
const schedulingSlack = 3 * time.Second
