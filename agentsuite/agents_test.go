package agentsuite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An agent is one CLI as the suite drives it.
type agent struct {
	// name is lsp-hook's name for it (install and hook).
	name string
	// row names the test when one agent has several rows ("" for name).
	row string
	// install are more `lsp-hook install` flags (--batch).
	install []string
	// exe is its program, relative to .tools/agents/node_modules/.bin
	// (OpenCode's is its platform package's binary).
	exe string
	// dialect is the provider API its model requests use.
	dialect func() dialect
	// script is the scripted session in the agent's own tools, for the
	// workspace ws.
	script func(ws string) []step
	// setup writes the agent's own configuration (provider, telemetry,
	// trust) into the session's home and workspace, after `lsp-hook
	// install`, and returns the command line and extra environment.
	setup func(s *session, modelURL string) (args, env []string)
	// plain: the agent HTML-escapes the hook text its model reads, and
	// lsp-hook renders the block for it without tags, < and > as their
	// fullwidth forms (diag.PlainLintBlock: Gemini CLI); otherwise the
	// model reads the block exactly as lsp-hook renders it (DESIGN.md).
	// Either way the judge wants the rendering verbatim, and no entities.
	plain bool
	// showsToolOutput: the CLI prints each tool's output to the user, and
	// the block reaches its model in that output (OpenCode: the plugin's
	// tool.execute.after appends it to output.output, the one text of a
	// tool result its model reads), so the user sees the block too.
	showsToolOutput bool
	// stopGate: `lsp-hook install` gives the agent a Stop hook that blocks
	// an end of turn once while errors the session introduced remain
	// (issue 16), and the CLI feeds the block's reason to the model.
	stopGate bool
	// before is main.go's content before the CLI starts ("": no main.go);
	// commit commits the workspace in a new git repository first.
	before string
	commit bool
	// pending names the product change an agent's row still waits for
	// (judge logs its failures instead of failing); pendingStop is the
	// same for the Stop gate's request only.
	pending, pendingStop string
}

// prompt is the user's request in every session.
const prompt = "Create main.go as planned, then edit it, then rewrite it cleanly."

// agents is the table of CLIs, in priority order.
var agents = []agent{
	claudeAgent,
	claudeBatchAgent,
	claudeBashAgent,
	claudeStopAgent,
	claudeStopAgainAgent,
	claudePreBrokenAgent,
	claudePreBrokenCommittedAgent,
	geminiAgent,
	codexAgent,
	codexStopAgent,
	codexStopNewAgent,
	copilotAgent,
	copilotPatchAgent,
	opencodeAgent,
}

// TestAgents runs every CLI's scripted session and judges each request
// that follows a tool call.
func TestAgents(t *testing.T) {
	for _, a := range agents {
		t.Run(a.rowName(), func(t *testing.T) {
			exe := requireAgent(t, a.exe)
			runAgent(t, a, exe)
		})
	}
}

// rowName is the row's test name: row, else name.
func (a agent) rowName() string {
	if a.row != "" {
		return a.row
	}
	return a.name
}

// runAgent is one CLI's session: set up, run, judge, record.
func runAgent(t *testing.T, a agent, exe string) {
	s := newSession(t)
	if a.before != "" {
		writeFile(t, filepath.Join(s.ws, "main.go"), a.before)
	}
	if a.commit {
		s.gitCommit()
	}
	out, err := s.lspHook(append([]string{"install", a.name, "--project"}, a.install...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("lsp-hook install %s --project:\n%s", a.name, out)
	script := a.script(s.ws)
	m := newModelServer(t, a.dialect(), script, filepath.Join(s.ws, "main.go"), s.logDir)
	args, env := a.setup(s, m.URL())
	r := s.run(exe, args, env, "")
	t.Logf("%s ran %s (exit: %v); model requests: %v", a.name, r.elapsed.Round(time.Millisecond), r.err, m.Paths())
	turns := m.Turns()
	if len(turns) > 0 {
		var body map[string]any
		_ = json.Unmarshal(turns[0].Body, &body)
		t.Logf("%s offers the model: %v", a.name, toolNames(body))
	}
	if a.pending != "" && r.err == nil && len(turns) < len(script) {
		t.Logf("%s: KNOWN GAP (%s): %d of %d scripted turns reached the model", a.name, a.pending, len(turns), len(script))
	} else if t.Failed() || r.err != nil || len(turns) < len(script) {
		t.Errorf("%s: %d of %d scripted turns reached the model (exit: %v); requests: %v\nstdout:\n%s\nstderr:\n%s\nrequest bodies in %s",
			a.name, len(turns), len(script), r.err, m.Paths(), tail(r.stdout), tail(r.stderr), s.logDir)
	}
	pl := s.payloads()
	for _, p := range pl {
		t.Logf("hook payload (lsp-hook %s, ran %s): %s", p.Args, p.Took.Round(time.Millisecond), p.JSON)
	}
	if *recordFlag {
		record(t, a, s, script, pl)
	}
	judge(t, a, script, turns)
	judgeStops(t, a, pl)
	logLatency(t, a, script, turns, pl)
	logSessionStart(t, a, pl)
	if !strings.Contains(r.stdout, "Done.") {
		t.Errorf("%s did not print the model's last answer (Done.):\nstdout:\n%s\nstderr:\n%s", a.name, tail(r.stdout), tail(r.stderr))
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(strings.ToLower(out), "hook error") {
			t.Errorf("%s showed the user a hook error:\n%s", a.name, tail(out))
		}
		if strings.Contains(out, blockMarker) && !a.showsToolOutput {
			t.Errorf("%s showed the user hook output:\n%s", a.name, tail(out))
		}
	}
}

// logLatency logs, per step, the gap from the model's reply to its next
// request and the hook process's own time (the step's first tool event,
// or for an end of turn the Stop event; "-" when the agent ran none), the
// first step cold.
func logLatency(t *testing.T, a agent, script []step, turns []turn, pl []payload) {
	var tools, stops []time.Duration
	for _, p := range pl {
		switch {
		case p.Tool:
			tools = append(tools, p.Took)
		case p.Event == "Stop":
			stops = append(stops, p.Took)
		}
	}
	took := func(ds []time.Duration, k int) string {
		if k < len(ds) {
			return ds[k].Round(time.Millisecond).String()
		}
		return "-"
	}
	var parts []string
	k, n := 0, 0
	for i := 1; i < len(turns); i++ {
		st := script[min(i-1, len(script)-1)]
		if st.Tool == "" {
			parts = append(parts, fmt.Sprintf("%s (Stop blocked) gap %s hook %s", st.Name, turns[i].Gap.Round(time.Millisecond), took(stops, n)))
			n++
			continue
		}
		if st.Quiet { // a Read: no hook runs for it
			parts = append(parts, fmt.Sprintf("%s gap %s hook -", st.Name, turns[i].Gap.Round(time.Millisecond)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s gap %s hook %s", st.Name, turns[i].Gap.Round(time.Millisecond), took(tools, k)))
		k += 1 + len(st.Also)
	}
	t.Logf("latency %s (first cold): %s", a.rowName(), strings.Join(parts, "; "))
}

// logSessionStart logs the SessionStart hook's own time (it prewarms the
// daemon: the CLI waits for it before the first request).
func logSessionStart(t *testing.T, a agent, pl []payload) {
	for _, p := range pl {
		if p.Event == "SessionStart" {
			t.Logf("session start %s: hook %s, answer %q", a.rowName(), p.Took.Round(time.Millisecond), p.Out)
			return
		}
	}
	t.Logf("session start %s: no SessionStart hook ran", a.rowName())
}

// around returns the part of s from 300 bytes before the last marker to
// 700 after it, or the start of s when there is none.
func around(s, marker string) string {
	i := strings.LastIndex(s, marker)
	if i < 0 {
		return s[:min(len(s), 1000)]
	}
	return s[max(0, i-300):min(len(s), i+700)]
}

// tail is the last 4000 bytes of s.
func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}
