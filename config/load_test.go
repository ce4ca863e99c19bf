package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
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
			name: "lifecycle and only_new",
			yaml: "only_new: true\nlsp:\n  idle_server_timeout: 2m\n  document_idle_timeout: 30s\n  max_open_documents: 50\n",
			check: func(t *testing.T, c *Config) {
				if !c.OnlyNew || c.LSP.IdleServerTimeout != 2*time.Minute || c.LSP.DocumentIdleTimeout != 30*time.Second || c.LSP.MaxOpenDocuments != 50 {
					t.Errorf("got only_new %v, %v %v %d", c.OnlyNew, c.LSP.IdleServerTimeout, c.LSP.DocumentIdleTimeout, c.LSP.MaxOpenDocuments)
				}
			},
		},
		{
			name: "lifecycle defaults",
			check: func(t *testing.T, c *Config) {
				if c.OnlyNew || c.LSP.IdleServerTimeout != 10*time.Minute || c.LSP.DocumentIdleTimeout != 5*time.Minute || c.LSP.MaxOpenDocuments != 200 {
					t.Errorf("got only_new %v, %v %v %d", c.OnlyNew, c.LSP.IdleServerTimeout, c.LSP.DocumentIdleTimeout, c.LSP.MaxOpenDocuments)
				}
			},
		},
		{
			name:         "bad max_open_documents",
			yaml:         "lsp:\n  max_open_documents: -3\n",
			wantProblems: []string{`lsp.max_open_documents: want a positive whole number, got "-3"`},
		},
		{
			name: "new server",
			yaml: `lsp:
  servers:
    mylang:
      command: [mylang-ls, --stdio]
      extensions: [.my, .myi]
      language_ids: {.myi: mylang-interface}
      root_markers: [my.toml]
      env: {MYLANG_LOG: "1"}
      initialization_options: {strict: true}
      settings: {mylang: {lint: {unused: warn}}}
`,
			check: func(t *testing.T, c *Config) {
				ss := c.ServersFor(".my")
				if len(ss) != 1 {
					t.Fatalf("servers for .my = %+v", ss)
				}
				s := ss[0]
				if s.Name != "mylang" || strings.Join(s.Command, " ") != "mylang-ls --stdio" || s.LanguageID(".my") != "my" ||
					s.LanguageID(".myi") != "mylang-interface" || s.RootMarkers[0] != "my.toml" || s.Env["MYLANG_LOG"] != "1" {
					t.Errorf("server = %+v", s)
				}
				if opts, _ := s.InitializationOptions.(map[string]any); opts["strict"] != true {
					t.Errorf("initialization_options = %#v", s.InitializationOptions)
				}
				if lint, _ := s.Settings["mylang"].(map[string]any)["lint"].(map[string]any); lint["unused"] != "warn" {
					t.Errorf("settings = %#v", s.Settings)
				}
			},
		},
		{
			name: "catalogue server overridden",
			yaml: "lsp:\n  servers:\n    gopls: {command: [/opt/gopls, serve], settings: {gopls: {staticcheck: true}}}\n",
			check: func(t *testing.T, c *Config) {
				s := c.LSP.Servers["gopls"]
				if strings.Join(s.Command, " ") != "/opt/gopls serve" || !s.Enabled || s.Extensions[0] != ".go" || s.LanguageID(".go") != "go" {
					t.Errorf("gopls = %+v", s)
				}
				if g, _ := s.Settings["gopls"].(map[string]any); g["staticcheck"] != true {
					t.Errorf("settings = %#v", s.Settings)
				}
			},
		},
		{
			name:         "new server without command",
			yaml:         "lsp:\n  servers:\n    gopl: {extensions: [.go]}\n",
			wantProblems: []string{`:3: lsp.servers.gopl: a server not in the catalogue needs command and extensions; did you mean "gopls"?`},
			check: func(t *testing.T, c *Config) {
				if _, ok := c.LSP.Servers["gopl"]; ok {
					t.Errorf("an incomplete server was added")
				}
			},
		},
		{
			name:         "bad extension",
			yaml:         "lsp:\n  servers:\n    mylang: {command: [x], extensions: [my]}\n",
			wantProblems: []string{`lsp.servers.mylang.extensions: want extensions with their dot, such as .my; got "my"`, "needs command and extensions"},
		},
		{
			name:         "unknown server field",
			yaml:         "lsp:\n  servers:\n    gopls: {comand: [x]}\n",
			wantProblems: []string{`lsp.servers.gopls.comand: unknown key; did you mean "command"?`},
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
		{
			name: "linters: DESIGN.md's ruff, a built-in off, a built-in tuned",
			yaml: "linters:\n  ruff: {command: [ruff, check, --output-format, json, \"{file}\"], parser: ruff, extensions: [.py]}\n" +
				"  mypy: false\n  shellcheck: {timeout: 5s, mode: fallback}\n",
			check: func(t *testing.T, c *Config) {
				r := c.Linters["ruff"]
				if !r.Enabled || r.Builtin || r.Parser != "ruff" || r.Timeout != DefaultLinterTimeout || r.Cwd != "{root}" ||
					r.Mode != LinterAlways || r.When != LinterOnEdit {
					t.Errorf("ruff = %+v", r)
				}
				if c.Linters["mypy"].Enabled {
					t.Errorf("mypy: false left it on")
				}
				if s := c.Linters["shellcheck"]; !s.Builtin || s.Timeout != 5*time.Second || s.Mode != LinterFallback || len(s.Command) == 0 {
					t.Errorf("shellcheck = %+v", s)
				}
			},
		},
		{
			name: "output, hooks, navigation_tools, auto_install",
			yaml: "output: {max_per_file: 2, max_chars: 500}\nnavigation_tools: false\nauto_install: true\n" +
				"hooks:\n  - id: auto_lint\n    \"on\": tool_end\n",
			check: func(t *testing.T, c *Config) {
				if c.Output.MaxPerFile != 2 || c.Output.MaxChars != 500 || c.Output.MaxLines != 0 ||
					c.NavigationTools || !c.AutoInstall || c.Hooks == nil || len(c.Hooks.Content) != 1 {
					t.Errorf("output %+v navigation %v auto_install %v hooks %v", c.Output, c.NavigationTools, c.AutoInstall, c.Hooks)
				}
			},
		},
		{
			name:         "output and hooks problems",
			yaml:         "output: {max_lines: -1, max_chrs: 5}\nhooks: {id: x}\n",
			wantProblems: []string{`:1: output.max_lines: want a positive whole number`, `:1: output.max_chrs: unknown key; did you mean "max_chars"?`, `:2: hooks: want a list`},
		},
		{
			name: "custom linter with errorformat",
			yaml: "linters:\n  mylint:\n    command: [mylint, \"{file}\"]\n    extensions: [.my]\n    errorformat: \"%f:%l: %m\"\n    when: diagnose\n",
			check: func(t *testing.T, c *Config) {
				l := c.Linters["mylint"]
				if l.Parser != "errorformat" || len(l.Errorformat) != 1 || l.When != LinterOnDiagnose || l.Mode != LinterFallback {
					t.Errorf("mylint = %+v", l)
				}
			},
		},
		{
			name: "linter with list placeholders and root markers",
			yaml: "linters:\n  gl:\n    command: [golangci-lint, run, \"{dirs}\"]\n    extensions: [.go]\n    root_markers: [go.mod]\n",
			check: func(t *testing.T, c *Config) {
				l := c.Linters["gl"]
				if !slices.Equal(l.Command, []string{"golangci-lint", "run", "{dirs}"}) || !slices.Equal(l.RootMarkers, []string{"go.mod"}) {
					t.Errorf("gl = %+v", l)
				}
			},
		},
		{
			name: "list placeholders misused",
			yaml: "linters:\n  a: {command: [a, \"--files={files}\"], extensions: [.a]}\n  b: {command: [b, \"{files}\"], extensions: [.b], cwd: \"{dirs}\"}\n",
			wantProblems: []string{
				`:2: linters.a.command: {files} stands for a whole argument (one per file or directory), not part of "--files={files}"`,
				`:3: linters.b.cwd: a directory cannot hold the list placeholder {dirs}: use {root} or {dir}`,
			},
		},
		{
			name: "linter problems",
			yaml: "linters:\n  ruf: {parser: ruff}\n  shellcheck: {mode: sometimes}\n  x: {command: [x], extensions: [.x], timout: 1s}\n",
			wantProblems: []string{
				`linters.ruf: a linter needs command and extensions`,
				`linters.shellcheck.mode: want fallback or always, got "sometimes"`,
				`linters.x.timout: unknown key; did you mean "timeout"?`,
			},
			check: func(t *testing.T, c *Config) {
				if _, ok := c.Linters["x"]; ok {
					t.Errorf("a linter with a broken field was added")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
			t.Setenv("XDG_STATE_HOME", testdir.New(t))
			root := testdir.New(t)
			if tt.yaml != "" {
				if err := os.WriteFile(filepath.Join(root, FileName), []byte(tt.yaml), 0o644); err != nil {
					t.Fatal(err)
				}
				if _, err := Trust(root); err != nil { // trust is tested on its own
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
