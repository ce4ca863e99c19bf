package install

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestInstallIsHookCommand is the rule uninstall finds lsp-hook's entries
// by.
func TestInstallIsHookCommand(t *testing.T) {
	tests := []struct {
		cmd, agent string
		want       bool
	}{
		{"lsp-hook hook claude", "claude", true},
		{"lsp-hook hook claude-code", "claude", true},
		{"/usr/local/bin/lsp-hook hook claude --mode block", "claude", true},
		{"'/opt/my tools/lsp-hook' hook cursor", "cursor", true},
		{`"/opt/my tools/lsp-hook" hook cursor`, "cursor", true},
		{`/opt/my\ tools/lsp-hook hook gemini`, "gemini", true},
		{"LSP_HOOK_SOCKET=/tmp/s lsp-hook hook codex", "codex", true},
		{`C:\bin\lsp-hook.exe hook copilot`, "copilot", false}, // backslashes escape in a POSIX shell
		{"lsp-hook.exe hook copilot", "copilot", true},
		{"./dist/lsp-hook_linux_amd64 hook windsurf", "windsurf", true},
		{"lsp-hook hook cursor", "claude", false},
		{"lsp-hook notify x.go", "claude", false},
		{"lsp-hook hook", "claude", false},
		{"my-lsp-hook hook claude", "claude", false},
		{"echo lsp-hook hook claude", "claude", false},
		{"", "claude", false},
	}
	for _, tt := range tests {
		if got := IsHookCommand(tt.cmd, tt.agent); got != tt.want {
			t.Errorf("IsHookCommand(%q, %q) = %v, want %v", tt.cmd, tt.agent, got, tt.want)
		}
	}
}

// TestInstallHookProgram: the bare name when lsp-hook is on PATH, else the
// running binary's absolute path, quoted in the command when needed.
func TestInstallHookProgram(t *testing.T) {
	found := func(string) (string, error) { return "/usr/bin/lsp-hook", nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }
	exe := func() (string, error) { return "/home/me/dl/lsp hook/lsp-hook", nil }
	if prog, onPath, err := hookProgram(found, exe); prog != "lsp-hook" || !onPath || err != nil {
		t.Errorf("on PATH: %q %v %v", prog, onPath, err)
	}
	prog, onPath, err := hookProgram(missing, exe)
	if prog != "/home/me/dl/lsp hook/lsp-hook" || onPath || err != nil {
		t.Errorf("not on PATH: %q %v %v", prog, onPath, err)
	}
	cmd := HookCommand(prog, "gemini")
	if cmd != `'/home/me/dl/lsp hook/lsp-hook' hook gemini` || !IsHookCommand(cmd, "gemini") {
		t.Errorf("command %q", cmd)
	}
	lh := testdir.Abs("/tmp/lh") // C:\tmp\lh on Windows
	renamed := func() (string, error) { return lh, nil }
	if _, _, err := hookProgram(missing, renamed); err == nil || !strings.Contains(err.Error(), lh+", is not named lsp-hook") {
		t.Errorf("renamed binary: %v", err)
	}
	if got := hookShellWords(HookCommand("/it's/lsp-hook", "x")); !slices.Equal(got, []string{"/it's/lsp-hook", "hook", "x"}) {
		t.Errorf("quote round trip: %q", got)
	}
}
