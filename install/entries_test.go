package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestInstallRetiresCopilotAgentStop: installing over an older Copilot
// install takes lsp-hook's agentStop handler out (postToolUse now delivers
// in the same turn) and leaves the user's own agentStop handler.
func TestInstallRetiresCopilotAgentStop(t *testing.T) {
	root := testdir.New(t)
	opts := installProjectOpts(root, "copilot")
	cmd := opts.Command
	old := `{
  "version": 1,
  "hooks": {
    "postToolUse": [{"type": "command", "bash": "` + cmd + `"}],
    "agentStop": [
      {"type": "command", "bash": "` + cmd + `"},
      {"type": "command", "bash": "./notify.sh"}
    ]
  }
}
`
	path := filepath.Join(root, ".github", "hooks", "lsp-hook.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := mustInstall(t, "copilot", opts); res.Action != Updated {
		t.Fatalf("install over the old entries: %s", res.Action)
	}
	got := string(readInstallFile(t, path))
	if strings.Count(got, cmd) != 1 || !strings.Contains(got, "./notify.sh") || !strings.Contains(got, `"agentStop"`) {
		t.Errorf("after install:\n%s", got)
	}
	if again := mustInstall(t, "copilot", opts); again.Action != Unchanged {
		t.Errorf("second install: %s\n%s", again.Action, again.Diff)
	}
}

// TestInstallShellTools: by default each agent's hook sees its shell tool
// (in the matcher, or a handler that sees every tool); --no-shell leaves
// it out of the matcher, or has the hook ignore it (--no-shell on the
// command), and switching back and forth replaces the entry.
func TestInstallShellTools(t *testing.T) {
	for agent, want := range map[string][2]string{
		"claude":  {`"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash"`, `"matcher": "Write|Edit|MultiEdit|NotebookEdit"`},
		"gemini":  {`"matcher": "write_file|replace|run_shell_command"`, `"matcher": "write_file|replace"`},
		"codex":   {`"matcher": "apply_patch|Bash"`, `"matcher": "apply_patch"`},
		"copilot": {`"bash": "lsp-hook hook copilot"`, `"bash": "lsp-hook hook copilot --no-shell"`},
		"cursor":  {`"command": "lsp-hook hook cursor"`, `"command": "lsp-hook hook cursor --no-shell"`},
	} {
		root := testdir.New(t)
		opts := installProjectOpts(root, agent)
		opts.Command = "lsp-hook hook " + agent
		res := mustInstall(t, agent, opts)
		if got := string(readInstallFile(t, res.Path)); !strings.Contains(got, want[0]+"\n") && !strings.Contains(got, want[0]+",") {
			t.Errorf("%s default:\n%s\nwant %s", agent, got, want[0])
		}
		opts.NoShell = true
		if res := mustInstall(t, agent, opts); res.Action != Updated {
			t.Errorf("%s --no-shell over the default: %s", agent, res.Action)
		}
		got := string(readInstallFile(t, res.Path))
		if !strings.Contains(got, want[1]+"\n") && !strings.Contains(got, want[1]+",") {
			t.Errorf("%s --no-shell:\n%s\nwant %s", agent, got, want[1])
		}
		if strings.Count(got, "lsp-hook hook "+agent) != strings.Count(string(readInstallFile(t, res.Path)), "lsp-hook hook") {
			t.Errorf("%s: another agent's command in\n%s", agent, got)
		}
		if agent == "cursor" && strings.Count(got, "--no-shell") != 1 {
			t.Errorf("cursor: --no-shell on an entry without a shell tool (afterFileEdit):\n%s", got)
		}
		if un := mustUninstall(t, agent, opts); un.Action == Unchanged || strings.Contains(string(readInstallFileIfAny(res.Path)), "lsp-hook hook") {
			t.Errorf("%s uninstall after --no-shell: %s\n%s", agent, un.Action, readInstallFileIfAny(res.Path))
		}
	}
}

// readInstallFileIfAny returns the file's bytes, or nil when it is gone.
func readInstallFileIfAny(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

// TestInstallSessionHooks: install adds each agent's session entries
// (claude SessionStart, Stop, SubagentStop, SessionEnd; codex SessionStart
// and Stop; gemini SessionStart, AfterAgent, SessionEnd; copilot
// sessionStart, agentStop, sessionEnd; cursor sessionStart, stop,
// sessionEnd), each running the hook command once; --no-stop-gate leaves
// out the end-of-turn ones and keeps the rest; uninstall removes them all.
func TestInstallSessionHooks(t *testing.T) {
	for _, tc := range []struct {
		agent       string
		noStopGate  bool
		want, wantN []string
	}{
		{"claude", false, []string{"SessionStart", "Stop", "SubagentStop", "SessionEnd"}, nil},
		{"claude", true, []string{"SessionStart", "SessionEnd"}, []string{"Stop", "SubagentStop"}},
		{"codex", false, []string{"SessionStart", "Stop"}, nil},
		{"codex", true, []string{"SessionStart"}, []string{"Stop"}},
		{"gemini", false, []string{"SessionStart", "AfterAgent", "SessionEnd"}, nil},
		{"gemini", true, []string{"SessionStart", "SessionEnd"}, []string{"AfterAgent"}},
		{"copilot", false, []string{"sessionStart", "agentStop", "sessionEnd"}, nil},
		{"copilot", true, []string{"sessionStart", "sessionEnd"}, []string{"agentStop"}},
		{"cursor", false, []string{"sessionStart", "stop", "sessionEnd"}, nil},
		{"cursor", true, []string{"sessionStart", "sessionEnd"}, []string{"stop"}},
	} {
		root := testdir.New(t)
		opts := installProjectOpts(root, tc.agent)
		opts.NoSession, opts.NoStopGate = false, tc.noStopGate
		res := mustInstall(t, tc.agent, opts)
		var doc struct {
			Hooks map[string]json.RawMessage
		}
		if err := json.Unmarshal(readInstallFile(t, res.Path), &doc); err != nil {
			t.Fatal(err)
		}
		cmd, _ := json.Marshal(installTestCommand(tc.agent))
		for _, ev := range tc.want {
			if g := doc.Hooks[ev]; strings.Count(string(g), string(cmd)) != 1 {
				t.Errorf("%s (no-stop-gate %v): hooks.%s = %s, want the hook command once", tc.agent, tc.noStopGate, ev, g)
			}
		}
		for _, ev := range tc.wantN {
			if _, ok := doc.Hooks[ev]; ok {
				t.Errorf("%s --no-stop-gate: hooks.%s written", tc.agent, ev)
			}
		}
		if again := mustInstall(t, tc.agent, opts); again.Action != Unchanged {
			t.Errorf("%s (no-stop-gate %v): second install %s\n%s", tc.agent, tc.noStopGate, again.Action, again.Diff)
		}
		if un := mustUninstall(t, tc.agent, opts); un.Action != Removed {
			t.Errorf("%s: uninstall %s, want the file removed (only lsp-hook's entries)", tc.agent, un.Action)
		}
	}
}

// TestInstallCopilotStopGateKeepsAgentStop: over an older Copilot install
// whose agentStop handler delivered spooled blocks, install with the
// session entries keeps one lsp-hook agentStop handler (now the Stop
// gate) beside the user's own; --no-stop-gate then retires it.
func TestInstallCopilotStopGateKeepsAgentStop(t *testing.T) {
	root := testdir.New(t)
	opts := installProjectOpts(root, "copilot")
	opts.NoSession = false
	cmd := opts.Command
	old := `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "` + cmd + `"}, {"type": "command", "bash": "./notify.sh"}]}}`
	path := filepath.Join(root, ".github", "hooks", "lsp-hook.json")
	writeInstallFile(t, path, []byte(old))
	mustInstall(t, "copilot", opts)
	var doc struct{ Hooks map[string]json.RawMessage }
	if err := json.Unmarshal(readInstallFile(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	stop := string(doc.Hooks["agentStop"])
	if strings.Count(stop, cmd) != 1 || !strings.Contains(stop, "./notify.sh") {
		t.Errorf("agentStop after install: %s", stop)
	}
	opts.NoStopGate = true
	mustInstall(t, "copilot", opts)
	got := string(readInstallFile(t, path))
	if !strings.Contains(got, "./notify.sh") || strings.Count(got, cmd) != 3 { // postToolUse, sessionStart, sessionEnd
		t.Errorf("after install --no-stop-gate:\n%s", got)
	}
}
