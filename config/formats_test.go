package config

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestFormats loads the same settings from YAML, TOML and JSON: values,
// sources with lines, and problems with lines.
func TestFormats(t *testing.T) {
	tests := []struct {
		file, text  string
		timeoutLine int
		problem     string // a problem expected, with its line
	}{
		{".lsp-hook.yaml", "severity: warning\nlsp:\n  timeout: 5s\n  tiemout: 1s\n", 3, ".lsp-hook.yaml:4: lsp.tiemout: unknown key"},
		{".lsp-hook.toml", "severity = \"warning\"\n\n[lsp]\ntimeout = \"5s\"\ntiemout = \"1s\"\n", 4, ".lsp-hook.toml:5: lsp.tiemout: unknown key"},
		{".lsp-hook.json", "{\n  \"severity\": \"warning\",\n  \"lsp\": {\n    \"timeout\": \"5s\",\n    \"tiemout\": \"1s\"\n  }\n}\n", 4, ".lsp-hook.json:5: lsp.tiemout: unknown key"},
		{".lsp-hook.toml", "severity = \"warning\"\nlsp = {timeout = \"5s\"}\nvalidators = \n", 0, ".lsp-hook.toml:3: parsing TOML: line 3"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
			root := testdir.New(t)
			if err := os.WriteFile(filepath.Join(root, tt.file), []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			c, problems := Load(root)
			if len(problems) != 1 || !strings.Contains(problems[0].Error(), tt.problem) {
				t.Fatalf("problems = %v, want one containing %q", problems, tt.problem)
			}
			if tt.timeoutLine == 0 {
				return
			}
			if c.Severity != "warning" || c.LSP.Timeout != 5*time.Second {
				t.Errorf("severity %q timeout %v", c.Severity, c.LSP.Timeout)
			}
			want := filepath.Join(root, tt.file) + ":" + strconv.Itoa(tt.timeoutLine)
			if got := c.sourceOf("lsp.timeout", "default"); got != want {
				t.Errorf("source of lsp.timeout = %q, want %q", got, want)
			}
			if got := c.sourceOf("lsp.first_touch_timeout", "default"); got != "default" {
				t.Errorf("source of an unset key = %q", got)
			}
		})
	}
}

// TestSeveralConfigFiles checks that only the first config file is read
// and the others are reported.
func TestSeveralConfigFiles(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	root := testdir.New(t)
	os.WriteFile(filepath.Join(root, ".lsp-hook.yaml"), []byte("severity: hint\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".lsp-hook.json"), []byte(`{"severity": "info"}`), 0o644)
	c, problems := Load(root)
	if c.Severity != "hint" || len(problems) != 1 || !strings.Contains(problems[0].Error(), ".lsp-hook.json: ignored") {
		t.Errorf("severity %q, problems %v", c.Severity, problems)
	}
}

// TestSettings checks config show's sources: file:line, catalogue,
// built-in, default.
func TestSettings(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	root := testdir.New(t)
	os.WriteFile(filepath.Join(root, ".lsp-hook.yaml"), []byte("lsp:\n  servers:\n    gopls: {enabled: false}\nlinters:\n  mypy: false\n"), 0o644)
	c, _ := Load(root)
	want := map[string]string{
		"lsp.servers.gopls.enabled": filepath.Join(root, ".lsp-hook.yaml") + ":3",
		"lsp.servers.gopls.command": "catalogue",
		"linters.mypy.enabled":      filepath.Join(root, ".lsp-hook.yaml") + ":5",
		"linters.ruff.parser":       "built-in",
		"severity":                  "default",
	}
	got := map[string]Setting{}
	for _, s := range c.Settings() {
		got[s.Key] = s
	}
	for k, src := range want {
		if got[k].Source != src {
			t.Errorf("%s: source %q, want %q", k, got[k].Source, src)
		}
	}
	if got["lsp.servers.gopls.enabled"].Value != "false" || got["lsp.timeout"].Value != "3s" {
		t.Errorf("values: %+v %+v", got["lsp.servers.gopls.enabled"], got["lsp.timeout"])
	}
}

// TestPrecedence: the workspace file wins over the user file, which wins
// over the defaults, key by key; config show names each value's file.
func TestPrecedence(t *testing.T) {
	user := testdir.New(t)
	t.Setenv("XDG_CONFIG_HOME", user)
	t.Setenv("XDG_STATE_HOME", testdir.New(t))
	root := testdir.New(t)
	userFile := filepath.Join(user, "lsp-hook", "config.yaml")
	os.MkdirAll(filepath.Dir(userFile), 0o755)
	os.WriteFile(userFile, []byte("severity: warning\nlsp:\n  timeout: 7s\nonly_new: true\n"), 0o644)
	project := filepath.Join(root, ".lsp-hook.toml")
	os.WriteFile(project, []byte("severity = \"hint\"\n"), 0o644)
	c, problems := Load(root)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	want := map[string][2]string{
		"severity":                {`"hint"`, project + ":1"},
		"lsp.timeout":             {"7s", userFile + ":3"},
		"only_new":                {"true", userFile + ":4"},
		"lsp.first_touch_timeout": {"10s", "default"},
	}
	for _, s := range c.Settings() {
		if w, ok := want[s.Key]; ok && (s.Value != w[0] || s.Source != w[1]) {
			t.Errorf("%s = %s from %s, want %s from %s", s.Key, s.Value, s.Source, w[0], w[1])
		}
	}
	if !slices.Equal(c.Files, []string{project, userFile}) {
		t.Errorf("Files = %v", c.Files)
	}
}
