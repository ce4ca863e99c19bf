package lsp

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCrashPolicy: the back-off and give-up rule of DESIGN.md (1 s
// doubling to 60 s; 5 crashes in 10 minutes stay broken), as a table of
// crash histories, given in seconds after t0.
func TestCrashPolicy(t *testing.T) {
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	const minute = 60
	tests := []struct {
		name    string
		policy  CrashPolicy
		crashes []int // seconds after t0, oldest first
		wait    time.Duration
		giveUp  bool
	}{
		{name: "no crash", crashes: nil},
		{name: "first crash: 1 s", crashes: []int{0}, wait: time.Second},
		{name: "second in a row: 2 s", crashes: []int{0, 1}, wait: 2 * time.Second},
		{name: "third: 4 s", crashes: []int{0, 1, 3}, wait: 4 * time.Second},
		{name: "fourth: 8 s", crashes: []int{0, 1, 3, 7}, wait: 8 * time.Second},
		{name: "fifth within 10 minutes: broken", crashes: []int{0, 1, 3, 7, 15}, giveUp: true},
		{name: "fifth just inside the window", crashes: []int{0, 100, 200, 300, 10*minute - 1}, giveUp: true},
		{name: "five spread over more than 10 minutes: 16 s, still in a row", crashes: []int{0, 3 * minute, 6 * minute, 9 * minute, 12 * minute},
			wait: 16 * time.Second},
		{name: "in a row, capped at 60 s", crashes: []int{0, 3 * minute, 6 * minute, 9 * minute, 12 * minute, 15 * minute, 18 * minute, 21 * minute},
			wait: 60 * time.Second},
		{name: "10 minutes without a crash start over at 1 s", crashes: []int{0, 1, 3, 7, 7 + 10*minute}, wait: time.Second},
		{name: "after a quiet window the count starts over too", crashes: []int{0, 1, 3, 7, 20 * minute, 20*minute + 1}, wait: 2 * time.Second},
		{name: "limit and window overridden", policy: CrashPolicy{Backoff: time.Millisecond, MaxBackoff: time.Second, Limit: 2, Window: time.Second},
			crashes: []int{0, 0}, giveUp: true},
		{name: "overridden window lets crashes apart count alone", policy: CrashPolicy{Backoff: time.Millisecond, MaxBackoff: time.Second, Limit: 2, Window: time.Second},
			crashes: []int{0, 2}, wait: time.Millisecond},
		{name: "no limit never gives up", policy: CrashPolicy{Backoff: time.Second, MaxBackoff: 4 * time.Second, Window: time.Hour},
			crashes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, wait: 4 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.policy
			if p == (CrashPolicy{}) {
				p = DefaultCrashPolicy
			}
			var crashes []time.Time
			for _, s := range tt.crashes {
				crashes = p.record(crashes, t0.Add(time.Duration(s)*time.Second))
			}
			at, giveUp := p.next(crashes)
			var want time.Time
			if len(tt.crashes) > 0 && !tt.giveUp {
				want = t0.Add(time.Duration(tt.crashes[len(tt.crashes)-1])*time.Second + tt.wait)
			}
			if giveUp != tt.giveUp || !at.Equal(want) {
				t.Errorf("next = %v, give up %v; want %v, give up %v", at, giveUp, want, tt.giveUp)
			}
		})
	}
}

// TestCrashPolicyRecordBounded: the history keeps no crash before a quiet
// window and never more than maxCrashesKept.
func TestCrashPolicyRecordBounded(t *testing.T) {
	p := DefaultCrashPolicy
	t0 := time.Now()
	var crashes []time.Time
	for i := range 3 * maxCrashesKept {
		crashes = p.record(crashes, t0.Add(time.Duration(i)*time.Minute))
	}
	if len(crashes) != maxCrashesKept {
		t.Errorf("kept %d crashes, want %d", len(crashes), maxCrashesKept)
	}
	crashes = p.record(crashes, crashes[len(crashes)-1].Add(p.Window))
	if len(crashes) != 1 {
		t.Errorf("after a quiet window kept %d crashes, want 1", len(crashes))
	}
}

// TestCrashErrorText: what a crashed server's error says, and that
// SplitCrashPlan takes it apart again, whatever the reason holds.
func TestCrashErrorText(t *testing.T) {
	at := time.Date(2025, 1, 2, 15, 4, 5, 0, time.Local)
	reason := fmt.Errorf("%w: server process exited: signal: killed", ErrBroken)
	tests := []struct {
		err      *CrashError
		text     string
		why      string
		plan     string
		wantBase error
	}{
		{&CrashError{Server: "gopls", Err: reason, Crashes: 1, Window: 10 * time.Minute, RestartAt: at, Wait: 1200 * time.Millisecond},
			"language server is broken: server process exited: signal: killed; it restarts on the next change after 15:04:05 (in 1.2s)",
			"language server is broken: server process exited: signal: killed",
			"it restarts on the next change after 15:04:05 (in 1.2s)", ErrBroken},
		{&CrashError{Server: "gopls", Err: reason, Crashes: 5, Window: 10 * time.Minute, GaveUp: true},
			"language server is broken: server process exited: signal: killed; it crashed 5 times in 10 minutes: run `lsp-hook restart gopls` to start it again",
			"language server is broken: server process exited: signal: killed",
			"it crashed 5 times in 10 minutes: run `lsp-hook restart gopls` to start it again", ErrBroken},
		{&CrashError{Server: "fake", Err: errors.New("initializing fake: x; it crashed y"), Crashes: 2, Window: time.Second, GaveUp: true},
			"initializing fake: x; it crashed y; it crashed 2 times in 1s: run `lsp-hook restart fake` to start it again",
			"initializing fake: x; it crashed y",
			"it crashed 2 times in 1s: run `lsp-hook restart fake` to start it again", nil},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.text {
			t.Errorf("Error() =\n%q\nwant\n%q", got, tt.text)
		}
		why, plan := SplitCrashPlan(tt.err.Error())
		if why != tt.why || plan != tt.plan {
			t.Errorf("SplitCrashPlan = %q, %q; want %q, %q", why, plan, tt.why, tt.plan)
		}
		if tt.wantBase != nil && !errors.Is(tt.err, tt.wantBase) {
			t.Errorf("%v is not %v", tt.err, tt.wantBase)
		}
	}
	if why, plan := SplitCrashPlan("language server is broken: exit status 2"); plan != "" || !strings.HasSuffix(why, "exit status 2") {
		t.Errorf("SplitCrashPlan of a plain error = %q, %q", why, plan)
	}
}
