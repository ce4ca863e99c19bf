package agentsuite

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// This file judges the Stop gate (issue 16): the request after a blocked
// end of turn (for judge, which finds it), and from the hook's side every
// Stop event the CLI sent and what lsp-hook answered.

// judgeStopTurn judges the request next that follows an end of turn
// (step name, request prev) the Stop gate blocked: it must carry want,
// the compiler's block, at least once (Claude Code shows a Stop reason
// twice) — verbatim, or for an agent with the verbatim block in its plain
// rendering, as a CLI that escapes a Stop reason would get it. It returns
// the failure ("" for none); with a.pendingStop the failure is logged
// instead, and its absence is an error.
func judgeStopTurn(t *testing.T, a agent, name, want string, prev, next turn) string {
	t.Helper()
	n := strings.Count(next.Text, want) - strings.Count(prev.Text, want)
	if !a.plain {
		n += strings.Count(next.Text, plainBlock(want)) - strings.Count(prev.Text, plainBlock(want))
	}
	t.Logf("%s %s: end of turn blocked → next request %s carries the compiler's block %d time(s):\n%s",
		a.name, name, next.Gap.Round(time.Millisecond), n, around(next.Text, blockMarker))
	if n >= 1 {
		if a.pendingStop != "" {
			t.Errorf("%s: the Stop gate's block arrived as it should: remove pendingStop %q from the agent's row", a.name, a.pendingStop)
		}
		return ""
	}
	why := "the Stop gate's request does not carry the compiler's block"
	if strings.Contains(next.Text, "&lt;diagnostics") {
		why += " (the model reads it with entities: &lt;diagnostics …&gt;)"
	}
	msg := fmt.Sprintf("%s after %s: %s\n--- the compiler's block\n%s\n--- what the model read\n%s",
		a.name, name, why, want, around(next.Text, blockMarker))
	if a.pendingStop != "" {
		t.Logf("%s: KNOWN GAP (%s): %s", a.name, a.pendingStop, msg)
		return ""
	}
	return msg
}

// stopAnswer is the part of a Stop hook's answer the gate sets (Claude
// Code's and Codex's Stop output: decision "block" with a reason, or a
// systemMessage).
type stopAnswer struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	SystemMessage string `json:"systemMessage"`
}

// judgeStops checks the Stop events of a session of one prompt (one
// turn): at most two, the second with stop_hook_active true; a block only
// for the first; and as many blocks as the model saw Stop requests
// (judge). It logs each event and answer.
func judgeStops(t *testing.T, a agent, pl []payload) {
	t.Helper()
	var stops []payload
	for _, p := range pl {
		if p.Event == "Stop" || p.Event == "SubagentStop" {
			stops = append(stops, p)
		}
	}
	if !a.stopGate {
		if len(stops) > 0 {
			t.Logf("%s: %d Stop event(s) without a Stop gate row", a.name, len(stops))
		}
		return
	}
	var problems []string
	for k, p := range stops {
		var ev struct {
			Active bool `json:"stop_hook_active"`
		}
		if err := json.Unmarshal(p.JSON, &ev); err != nil {
			problems = append(problems, fmt.Sprintf("Stop event %d: %v", k+1, err))
			continue
		}
		var ans stopAnswer
		if out := strings.TrimSpace(p.Out); out != "" {
			if err := json.Unmarshal([]byte(out), &ans); err != nil {
				problems = append(problems, fmt.Sprintf("Stop answer %d is not JSON: %v: %q", k+1, err, out))
			}
		}
		t.Logf("%s: Stop event %d (stop_hook_active %v, hook %s) → decision %q reason %q systemMessage %q",
			a.name, k+1, ev.Active, p.Took.Round(1e6), ans.Decision, ans.Reason, ans.SystemMessage)
		switch {
		case ans.Decision == "block" && (k > 0 || ev.Active):
			problems = append(problems, fmt.Sprintf("Stop event %d (stop_hook_active %v) was blocked: the gate blocks a turn's end once", k+1, ev.Active))
		case ans.Decision == "block" && !strings.Contains(ans.Reason, blockMarker):
			problems = append(problems, fmt.Sprintf("Stop event %d was blocked without a lint block: %q", k+1, ans.Reason))
		case k > 0 && !ev.Active:
			problems = append(problems, fmt.Sprintf("Stop event %d has stop_hook_active false: a second turn?", k+1))
		}
	}
	if len(stops) > 2 {
		problems = append(problems, fmt.Sprintf("%d Stop events in one turn, want at most 2 (no loop)", len(stops)))
	}
	for _, p := range problems {
		if a.pending != "" {
			t.Logf("%s: KNOWN GAP (%s): %s", a.name, a.pending, p)
			continue
		}
		t.Errorf("%s: %s", a.name, p)
	}
}
