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
	// verbatim: the model reads the lint block exactly as lsp-hook renders
	// it (DESIGN.md); otherwise the agent has its own rendering, judged by
	// its error lines and the absence of HTML entities.
	verbatim bool
	// pending names the product change an agent's row still waits for
	// (judge logs its failures instead of failing).
	pending string
	// recordOnly: drive the CLI and record what it sends, but do not judge
	// the blocks (the product side is not there yet).
	recordOnly bool
}

// prompt is the user's request in every session.
const prompt = "Create main.go as planned, then edit it, then rewrite it cleanly."

// agents is the table of CLIs, in priority order.
var agents = []agent{
	claudeAgent,
	claudeBatchAgent,
	claudeBashAgent,
	geminiAgent,
	codexAgent,
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
	out, err := s.lspHook(append([]string{"install", a.name, "--project"}, a.install...)...)
	switch {
	case err != nil && a.recordOnly:
		t.Logf("%s: no hook installed (the product side is not there yet): %v", a.name, err)
	case err != nil:
		t.Fatal(err)
	default:
		t.Logf("lsp-hook install %s --project:\n%s", a.name, out)
	}
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
	if t.Failed() || r.err != nil || len(turns) < len(script) {
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
	logLatency(t, a, script, turns, pl)
	if a.recordOnly && len(turns) > 0 {
		last := turns[len(turns)-1]
		t.Logf("%s: the model's last request (%d in all) holds %d lint block(s):\n%s",
			a.name, len(turns), strings.Count(last.Text, blockMarker), around(last.Text, blockMarker))
	}
	if !strings.Contains(r.stdout, "Done.") {
		t.Errorf("%s did not print the model's last answer (Done.):\nstdout:\n%s\nstderr:\n%s", a.name, tail(r.stdout), tail(r.stderr))
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, blockMarker) || strings.Contains(strings.ToLower(out), "hook error") {
			t.Errorf("%s showed the user hook output:\n%s", a.name, tail(out))
		}
	}
}

// logLatency logs, per tool step, the gap from the model's tool call to
// its next request and the hook process's own time (the step's first
// tool event; "-" when the agent ran none), the first step cold.
func logLatency(t *testing.T, a agent, script []step, turns []turn, pl []payload) {
	var hooks []time.Duration
	for _, p := range pl {
		var ev map[string]any
		if json.Unmarshal(p.JSON, &ev) != nil {
			continue
		}
		if ev["tool_name"] != nil || ev["toolName"] != nil {
			hooks = append(hooks, p.Took)
		}
	}
	var parts []string
	k := 0
	for i := 1; i < len(turns) && i < len(script); i++ {
		st := script[i-1]
		hook := "-"
		if k < len(hooks) {
			hook = hooks[k].Round(time.Millisecond).String()
		}
		k += 1 + len(st.Also)
		parts = append(parts, fmt.Sprintf("%s gap %s hook %s", st.Name, turns[i].Gap.Round(time.Millisecond), hook))
	}
	t.Logf("latency %s (first cold): %s", a.rowName(), strings.Join(parts, "; "))
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
