package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
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

// TestCheckConfigFiles: a check of one of lsp-hook's own config files (the
// workspace's under each of its names, the user's) lists what loading it
// would report, each an error at its line, so that an agent that wrote a
// mistake into it hears of it; a file that does not parse gets its
// validator's error once; a file of another name is not read as config.
func TestCheckConfigFiles(t *testing.T) {
	userDir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", userDir)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	user := filepath.Join(userDir, "lsp-hook", "config.yaml")
	tests := []struct {
		name, path, text string
		want             []string // the lint block's ERROR lines, in order
	}{
		{"mistakes", ".lsp-hook.yaml", "severty: warning\nlsp:\n  timeout: 3x\nlinters:\n  mine: {command: [x], parser: nosuch, extensions: [.q]}\n",
			[]string{`ERROR [1:1] severty: unknown key; did you mean "severity"?`,
				`ERROR [3:1] lsp.timeout: want a positive duration such as 3s or 1m30s, got "3x"`,
				`ERROR [5:1] linters.mine.parser: unknown parser "nosuch"`}},
		{"clean", ".lsp-hook.yaml", "severity: warning\n", nil},
		{"does not parse: its validator's error alone", ".lsp-hook.yaml", "severity: [\n", []string{"ERROR [1:"}},
		{"json name", ".lsp-hook.json", `{"only_new": "maybe"}`, []string{"ERROR [1:1] only_new: "}},
		{"toml name", ".lsp-hook.toml", "stop_gate = \"sometimes\"\n", []string{"ERROR [1:1] stop_gate: "}},
		{"user file: a per-user key is fine", user, "memory_budget: 2GiB\n", nil},
		{"workspace file: a per-user key is not", ".lsp-hook.yaml", "memory_budget: 2GiB\n", []string{"ERROR [1:1] memory_budget: "}},
		{"not a config file", "other.yaml", "severty: warning\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.path
			if !filepath.IsAbs(p) {
				p = filepath.Join(root, p)
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(p)
			cfg := config.Default()
			cfg.LSP.Enabled = false
			e := NewEngine(root, cfg, nil, testdaemon.Log(t))
			res := e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: p}}})
			var got []string
			for _, l := range strings.Split(res.Lint, "\n") {
				if strings.HasPrefix(l, "ERROR ") {
					got = append(got, l)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("lint block:\n%s\nwant %d errors: %q", res.Lint, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("error %d: %q, want it to begin %q", i, got[i], w)
				}
			}
		})
	}
}
