package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestLoadConfigTenMistakes: a config with ten kinds of mistakes gets ten
// problems, each with its line and key, and the rest of the file applies.
func TestLoadConfigTenMistakes(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	text := `severty: warning
severity: loud
only_new: maybe
idle_timeout: -5m
lsp:
  timeout: soon
  max_open_documents: 0
  servers:
    gopls: {comand: [x]}
    newls: {extensions: [.n]}
validators: {xml: true}
linters:
  mylint: {command: [mylint, "{file}"], extensions: [.x], parser: gcc-ish}
  shellcheck: {mode: sometimes}
  ok: {command: [ok], extensions: [.ok]}
`
	if err := os.WriteFile(filepath.Join(root, ".lsp-hook.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if _, err := config.Trust(root); err != nil {
		t.Fatal(err)
	}
	cfg, problems := LoadConfig(root)
	want := []string{
		`:1: severty: unknown key; did you mean "severity"?`,
		`:2: severity: want error, warning, info or hint, got "loud"`,
		`:3: only_new: want true or false, got "maybe"`,
		`:4: idle_timeout: want a positive duration`,
		`:6: lsp.timeout: want a positive duration such as 3s or 1m30s, got "soon"`,
		`:7: lsp.max_open_documents: want a positive whole number, got "0"`,
		`:9: lsp.servers.gopls.comand: unknown key; did you mean "command"?`,
		`:10: lsp.servers.newls: a server not in the catalogue needs command and extensions`,
		`:11: validators.xml: unknown key`,
		`:14: linters.shellcheck.mode: want fallback or always, got "sometimes"`,
		`:13: linters.mylint.parser: unknown parser "gcc-ish"`,
	}
	if len(problems) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(problems), len(want), problems)
	}
	for i, p := range problems {
		if !strings.Contains(p.Error(), want[i]) {
			t.Errorf("problem %d = %q, want it to contain %q", i, p.Error(), want[i])
		}
	}
	if _, ok := cfg.Linters["ok"]; !ok {
		t.Errorf("a good linter next to broken ones was dropped")
	}
}
