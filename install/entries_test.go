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

// TestInstallSessionHooks: install claude adds the session entries
// (SessionStart, Stop, SubagentStop, SessionEnd) and codex its
// SessionStart and Stop, each running the hook command;
// --no-stop-gate leaves out the end-of-turn ones and keeps the rest;
// uninstall removes them all.
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
	} {
		root := testdir.New(t)
		opts := installProjectOpts(root, tc.agent)
		opts.NoSession, opts.NoStopGate = false, tc.noStopGate
		res := mustInstall(t, tc.agent, opts)
		var doc struct {
			Hooks map[string][]struct {
				Hooks []struct{ Command string }
			}
		}
		if err := json.Unmarshal(readInstallFile(t, res.Path), &doc); err != nil {
			t.Fatal(err)
		}
		for _, ev := range tc.want {
			g := doc.Hooks[ev]
			if len(g) != 1 || len(g[0].Hooks) != 1 || g[0].Hooks[0].Command != installTestCommand(tc.agent) {
				t.Errorf("%s (no-stop-gate %v): hooks.%s = %+v, want the hook command", tc.agent, tc.noStopGate, ev, g)
			}
		}
		for _, ev := range tc.wantN {
			if _, ok := doc.Hooks[ev]; ok {
				t.Errorf("%s --no-stop-gate: hooks.%s written", tc.agent, ev)
			}
		}
		if un := mustUninstall(t, tc.agent, opts); un.Action != Removed {
			t.Errorf("%s: uninstall %s, want the file removed (only lsp-hook's entries)", tc.agent, un.Action)
		}
	}
}
