package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestEngineFaults is the hook's view of each testdata/fakelsp fault: the
// lint block the agent gets, that it came within its deadline, and the
// freshness and state recorded for the server. A server that fails never
// fails the answer: its absence is said in the block, never passed off as
// a clean file. Every case is the server's first touch (2 s deadline in
// fakelsptest.Config).
func TestEngineFaults(t *testing.T) {
	tests := []struct {
		mode          string
		text          string
		wantLines     []string // the lint block's diagnostic lines, exactly
		wantNote      string   // in the lint block
		wantFreshness lsp.Freshness
		wantState     string
		minElapsed    time.Duration
		maxElapsed    time.Duration // 0: the first-touch deadline, plus 500 ms for scheduling
		slowCPU       bool          // CPU-bound: deadlines of 10 s, so the race detector does not turn it into a timeout
		check         func(t *testing.T, res wire.Result)
	}{
		{mode: "normal", text: "ok\n  ERROR(E1): broken\n", wantLines: []string{"ERROR [2:3] broken (E1)"},
			wantFreshness: lsp.Fresh, wantState: lsp.StateActive},
		// Crashes while the check waits: the check ends at once, not at its
		// deadline.
		{mode: "crash-mid-request", text: "ERROR: x\n", wantNote: "no fresh diagnostics from fake (not running)",
			wantFreshness: lsp.None, wantState: lsp.StateBroken, maxElapsed: time.Second},
		{mode: "never-answers", text: "ERROR: x\n", wantNote: "no fresh diagnostics from fake (timeout)",
			wantFreshness: lsp.Timeout, wantState: lsp.StateStarting, minElapsed: 2 * time.Second},
		{mode: "never-publishes", text: "ERROR: x\n", wantNote: "no fresh diagnostics from fake (timeout)",
			wantFreshness: lsp.Timeout, wantState: lsp.StateActive, minElapsed: 2 * time.Second},
		{mode: "pull-only", text: "ERROR(P1): pulled\n", wantLines: []string{"ERROR [1:1] pulled (P1)"},
			wantFreshness: lsp.Fresh, wantState: lsp.StateActive},
		{mode: "stale-version", text: "ERROR: current\n", wantLines: []string{"ERROR [1:1] current"},
			wantFreshness: lsp.Fresh, wantState: lsp.StateActive, minElapsed: 300 * time.Millisecond},
		{mode: "slow-initialize", text: "ERROR: x\n", wantNote: "no fresh diagnostics from fake (timeout)",
			wantFreshness: lsp.Timeout, wantState: lsp.StateStarting, minElapsed: 2 * time.Second},
		{mode: "flood", text: strings.Repeat("line\n", 500), wantFreshness: lsp.Fresh, wantState: lsp.StateActive,
			slowCPU: true, check: checkFloodBlock},
		{mode: "stderr-flood", text: "ERROR: loud\n", wantLines: []string{"ERROR [1:1] loud"},
			wantFreshness: lsp.Fresh, wantState: lsp.StateActive},
		// Not LSP on stdout: the server is killed, which ends the check
		// before its deadline.
		{mode: "garbage-stdout", text: "ERROR: x\n", wantNote: "no fresh diagnostics from fake (not running)",
			wantFreshness: lsp.None, wantState: lsp.StateBroken, maxElapsed: time.Second},
		{mode: "no-read", text: strings.Repeat("x", 1<<20), wantNote: "no fresh diagnostics from fake (not running)",
			wantFreshness: lsp.None, wantState: lsp.StateBroken, minElapsed: lsp.DefaultWriteTimeout, maxElapsed: lsp.DefaultWriteTimeout + time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			e := fakeEngine(t, tt.mode)
			if tt.slowCPU {
				e.Config.LSP.Timeout, e.Config.LSP.FirstTouchTimeout = 10*time.Second, 10*time.Second
			}
			if tt.maxElapsed == 0 {
				tt.maxElapsed = e.Config.LSP.FirstTouchTimeout + 500*time.Millisecond
			}
			testdaemon.WriteFile(t, e.Root, "a.fake", tt.text)
			begin := time.Now()
			res := e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: "a.fake"}}})
			elapsed := time.Since(begin)
			t.Logf("%s: answered in %v: %+v", tt.mode, elapsed.Round(time.Millisecond), res.Servers)
			if elapsed < tt.minElapsed || elapsed > tt.maxElapsed+3*time.Second {
				t.Errorf("took %v, want %v to %v (+3s for a loaded machine)", elapsed, tt.minElapsed, tt.maxElapsed)
			}
			if len(res.Servers) != 1 || res.Servers[0].Freshness != string(tt.wantFreshness) || res.Servers[0].State != tt.wantState {
				t.Errorf("servers = %+v, want fake %s, %s", res.Servers, tt.wantFreshness, tt.wantState)
			}
			if tt.check == nil && strings.Join(testdaemon.LintLines(res.Lint), "\n") != strings.Join(tt.wantLines, "\n") {
				t.Errorf("lint block:\n%s\nwant lines %q", res.Lint, tt.wantLines)
			}
			if tt.wantNote != "" && !strings.Contains(res.Lint, tt.wantNote) {
				t.Errorf("lint block:\n%s\nwant the note %q", res.Lint, tt.wantNote)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}

// checkFloodBlock: 10,000 diagnostics of one file reach the model as a
// block within every cap, saying how many were cut.
func checkFloodBlock(t *testing.T, res wire.Result) {
	t.Helper()
	lim := diag.DefaultLimits
	if len(res.Files) != 1 || len(res.Files[0].Diagnostics) != 10000 {
		t.Fatalf("files = %d, want one file with all 10000 diagnostics", len(res.Files))
	}
	lines := strings.Split(res.Lint, "\n")
	if len(lines) > lim.MaxLines || len(res.Lint) > lim.MaxChars {
		t.Errorf("lint block: %d lines, %d chars; caps %d and %d", len(lines), len(res.Lint), lim.MaxLines, lim.MaxChars)
	}
	if n := len(testdaemon.LintLines(res.Lint)); n != lim.MaxPerFile {
		t.Errorf("lint block lists %d diagnostics, want %d", n, lim.MaxPerFile)
	}
	if !strings.Contains(res.Lint, "... and 9980 more") {
		t.Errorf("lint block does not count what it cut:\n%s", res.Lint)
	}
}
