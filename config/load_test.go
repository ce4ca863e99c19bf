package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoad(t *testing.T) {
	tests := []struct {
		name         string
		yaml         string
		check        func(t *testing.T, c *Config)
		wantProblems []string // substrings, one per problem, in order
	}{
		{
			name: "no file gives defaults",
			check: func(t *testing.T, c *Config) {
				if !c.LSP.Enabled || c.LSP.Timeout != 3*time.Second || c.LSP.FirstTouchTimeout != 10*time.Second || c.Severity != "error" {
					t.Errorf("defaults wrong: %+v", c.LSP)
				}
				if len(c.ServersFor(".go")) != 1 {
					t.Errorf("gopls not in defaults")
				}
			},
		},
		{
			name: "lsp false",
			yaml: "lsp: false\n",
			check: func(t *testing.T, c *Config) {
				if c.LSP.Enabled || len(c.ServersFor(".go")) != 0 {
					t.Errorf("lsp: false did not turn servers off")
				}
			},
		},
		{
			name: "timeouts and severity",
			yaml: "lsp:\n  timeout: 5s\n  first_touch_timeout: 1m\nseverity: warning\n",
			check: func(t *testing.T, c *Config) {
				if c.LSP.Timeout != 5*time.Second || c.LSP.FirstTouchTimeout != time.Minute || c.Severity != "warning" {
					t.Errorf("got %v %v %q", c.LSP.Timeout, c.LSP.FirstTouchTimeout, c.Severity)
				}
			},
		},
		{
			name:         "bad duration keeps default",
			yaml:         "lsp:\n  timeout: soon\n",
			wantProblems: []string{`.lsp-hook.yaml:2: lsp.timeout: want a positive duration such as 3s or 1m30s, got "soon"`},
			check: func(t *testing.T, c *Config) {
				if c.LSP.Timeout != DefaultTimeout {
					t.Errorf("timeout = %v, want default", c.LSP.Timeout)
				}
			},
		},
		{
			name:         "typo suggests",
			yaml:         "severty: warning\n",
			wantProblems: []string{`.lsp-hook.yaml:1: severty: unknown key; did you mean "severity"?`},
		},
		{
			name:         "bad severity",
			yaml:         "\n\nseverity: fatal\n",
			wantProblems: []string{`:3: severity: want error, warning, info or hint, got "fatal"`},
		},
		{
			name:         "syntax error",
			yaml:         "lsp:\n  timeout: [3s\n",
			wantProblems: []string{"parsing YAML"},
		},
		{
			name: "server off",
			yaml: "lsp:\n  servers:\n    gopls: {enabled: false}\n",
			check: func(t *testing.T, c *Config) {
				if len(c.ServersFor(".go")) != 0 {
					t.Errorf("gopls still on")
				}
			},
		},
		{
			name:         "unknown server",
			yaml:         "lsp:\n  servers:\n    gopl: false\n",
			wantProblems: []string{`lsp.servers.gopl: unknown server; did you mean "gopls"?`},
		},
		{
			name: "validators",
			yaml: "validators: {yaml: false}\n",
			check: func(t *testing.T, c *Config) {
				if c.ValidatorEnabled("yaml") || !c.ValidatorEnabled("jsonc") {
					t.Errorf("validators wrong: %v", c.Validators)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			root := t.TempDir()
			if tt.yaml != "" {
				if err := os.WriteFile(filepath.Join(root, FileName), []byte(tt.yaml), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c, problems := Load(root)
			if len(problems) != len(tt.wantProblems) {
				t.Fatalf("problems = %v, want %d", problems, len(tt.wantProblems))
			}
			for i, p := range problems {
				if !strings.Contains(p.Error(), tt.wantProblems[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, p.Error(), tt.wantProblems[i])
				}
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}
