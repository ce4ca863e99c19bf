package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordedCLIPayloads decodes every payload a real agent CLI sent to
// its hook in the real-agent suite (testdata/agents/<agent>/cli-*.json,
// written by `go test ./agentsuite -args -record`): a tool's event
// changes the files the suite wrote ({{ROOT}}/main.go, and notes.json in
// Claude Code's batch), a session event (SessionStart, Stop, SessionEnd)
// is a lifecycle event and no change, a shell tool's event (Claude Code's
// Bash) is a shell run, Copilot's agentStop takes the spool.
func TestRecordedCLIPayloads(t *testing.T) {
	adapters := map[string]Adapter{"claude": Claude{}, "gemini": Gemini{}, "codex": Codex{}, "copilot": Copilot{}, "opencode": OpenCode{}}
	files, err := filepath.Glob("../testdata/agents/*/cli-*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no recorded CLI payloads (go test ./agentsuite -args -record writes them)")
	}
	// pending are payloads an adapter does not read yet, with the change
	// that will make it: the test skips them until then.
	pending := map[string]string{}
	// lifecycles are the session events, by their hook_event_name.
	lifecycles := map[string]Lifecycle{"SessionStart": LifecycleStart, "Stop": LifecycleStop,
		"SubagentStop": LifecycleStop, "SessionEnd": LifecycleEnd}
	const root = "/ws"
	for _, f := range files {
		agent := filepath.Base(filepath.Dir(f))
		name := agent + "/" + filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			a, ok := adapters[agent]
			if !ok {
				t.Fatalf("no adapter for %s", agent)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in := strings.ReplaceAll(string(b), "{{ROOT}}", root)
			ev, err := a.Decode(strings.NewReader(in))
			if err != nil {
				t.Fatalf("decoding: %v", err)
			}
			checkEvent(t, in, ev)
			if strings.Contains(f, "agent-stop") {
				if ev.Spool != SpoolTake || len(ev.Changes) != 0 {
					t.Errorf("agentStop: spool %d with %d changes, want SpoolTake (%d) and none", ev.Spool, len(ev.Changes), SpoolTake)
				}
				return
			}
			var named struct {
				Event string `json:"hook_event_name"`
			}
			if err := json.Unmarshal([]byte(in), &named); err != nil {
				t.Fatal(err)
			}
			if want, ok := lifecycles[named.Event]; ok {
				if ev.Lifecycle != want || len(ev.Changes) != 0 {
					t.Errorf("lifecycle %q with %d changes, want %q and none", ev.Lifecycle, len(ev.Changes), want)
				}
				return
			}
			if ev.Lifecycle != "" {
				t.Fatalf("lifecycle %q from a tool's event", ev.Lifecycle)
			}
			if len(ev.Changes) == 0 && ev.Shell {
				return // a shell tool's files come from the daemon's watcher
			}
			if len(ev.Changes) == 0 {
				if why := pending[name]; why != "" {
					t.Skipf("no change yet (%s)", why)
				}
				t.Fatal("no change")
			}
			if why := pending[name]; why != "" {
				t.Errorf("decoded now: remove %s from pending (%s)", name, why)
			}
			for _, c := range ev.Changes {
				if c.Path != root+"/main.go" && c.Path != root+"/notes.json" {
					t.Errorf("change of %s, want %s/main.go or %s/notes.json (the files the suite writes)", c.Path, root, root)
				}
			}
		})
	}
}
