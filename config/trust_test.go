package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestTrust: commands from an untrusted workspace file are skipped, other
// keys apply; trust lets them in; a changed file needs trust again; the
// user file is always trusted.
func TestTrust(t *testing.T) {
	user := testdir.New(t)
	t.Setenv("XDG_CONFIG_HOME", user)
	t.Setenv("XDG_STATE_HOME", testdir.New(t))
	root := testdir.New(t)
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	project := filepath.Join(root, ".lsp-hook.yaml")
	write(project, `severity: warning
lsp:
  servers:
    gopls: {command: [sh, -c, "touch pwned"]}
    evil: {command: [sh, -c, "touch pwned"], extensions: [.ev]}
    pyright: {env: {PATH: /tmp/evil}}
    clangd: {settings: {python: {pythonPath: /tmp/evil/python}}}
linters:
  shellcheck: {command: [sh, -c, "touch pwned"]}
  mine: {command: [sh, -c, "touch pwned"], extensions: [.x]}
`)
	write(filepath.Join(user, "lsp-hook", "config.yaml"), "linters:\n  userlint: {command: [userlint], extensions: [.u]}\n")

	c, problems := Load(root)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	want := []string{"linters.mine.command", "linters.shellcheck.command", "lsp.servers.clangd.settings",
		"lsp.servers.evil.command", "lsp.servers.gopls.command", "lsp.servers.pyright.env"}
	if !slices.Equal(c.Untrusted, want) {
		t.Errorf("Untrusted = %v, want %v", c.Untrusted, want)
	}
	if c.Severity != "warning" {
		t.Errorf("a key without commands did not apply")
	}
	if got := c.LSP.Servers["gopls"].Command; !slices.Equal(got, []string{"gopls"}) {
		t.Errorf("gopls command = %v, want the catalogue's", got)
	}
	if _, ok := c.LSP.Servers["evil"]; ok {
		t.Errorf("untrusted new server kept")
	}
	if len(c.LSP.Servers["pyright"].Env) != 0 {
		t.Errorf("untrusted env kept")
	}
	if got := c.Linters["shellcheck"].Command[0]; got != "shellcheck" {
		t.Errorf("shellcheck command = %v", c.Linters["shellcheck"].Command)
	}
	if _, ok := c.Linters["mine"]; ok {
		t.Errorf("untrusted new linter kept")
	}
	if _, ok := c.Linters["userlint"]; !ok {
		t.Errorf("the user file's linter was dropped")
	}

	if f, err := Trust(root); err != nil || !slices.Equal(f, []string{project}) {
		t.Fatalf("Trust = %q, %v", f, err)
	}
	c, _ = Load(root)
	if len(c.Untrusted) != 0 || c.LSP.Servers["evil"].Command[0] != "sh" || c.Linters["mine"].Command[0] != "sh" {
		t.Errorf("after trust: untrusted %v, evil %+v", c.Untrusted, c.LSP.Servers["evil"])
	}

	write(project, "lsp:\n  servers:\n    gopls: {command: [sh, -c, \"touch pwned2\"]}\n")
	c, _ = Load(root)
	if !slices.Equal(c.Untrusted, []string{"lsp.servers.gopls.command"}) {
		t.Errorf("a changed file kept its trust: %v", c.Untrusted)
	}
}

// TestTrustAutoInstall: a workspace file's `auto_install: true` installs
// software, so it applies only once the file is trusted, and says so in
// Untrusted until then; turning it off needs no trust, and the user's own
// file turns it on without any.
func TestTrustAutoInstall(t *testing.T) {
	tests := []struct {
		name, user, project string
		trust               bool
		want                bool
		untrusted           []string
	}{
		{name: "untrusted on", project: "auto_install: true\n", want: false, untrusted: []string{"auto_install"}},
		{name: "trusted on", project: "auto_install: true\n", trust: true, want: true},
		{name: "untrusted off", user: "auto_install: true\n", project: "auto_install: false\n", want: false},
		{name: "user on, untrusted on", user: "auto_install: true\n", project: "auto_install: true\n", want: true},
		{name: "user on", user: "auto_install: true\n", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := testdir.New(t)
			t.Setenv("XDG_CONFIG_HOME", user)
			t.Setenv("XDG_STATE_HOME", testdir.New(t))
			root := testdir.New(t)
			if tt.user != "" {
				if err := os.MkdirAll(filepath.Join(user, "lsp-hook"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(user, "lsp-hook", "config.yaml"), []byte(tt.user), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.project != "" {
				if err := os.WriteFile(filepath.Join(root, ".lsp-hook.yaml"), []byte(tt.project), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tt.trust {
				if _, err := Trust(root); err != nil {
					t.Fatal(err)
				}
			}
			c, problems := Load(root)
			if len(problems) != 0 {
				t.Fatal(problems)
			}
			if c.AutoInstall != tt.want || !slices.Equal(c.Untrusted, tt.untrusted) {
				t.Errorf("auto_install %v, untrusted %v; want %v, %v", c.AutoInstall, c.Untrusted, tt.want, tt.untrusted)
			}
		})
	}
}

// TestTrustWorkspace: `lsp-hook trust` in a workspace with no config file
// still records the workspace (its own programs may run), under its real
// path whichever way it was named; another workspace stays untrusted.
func TestTrustWorkspace(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	t.Setenv("XDG_STATE_HOME", testdir.New(t))
	root, other := testdir.New(t), testdir.New(t)
	link := filepath.Join(testdir.New(t), "link")
	testdir.Symlink(t, root, link)
	if c, _ := Load(root); c.WorkspaceTrusted || TrustedWorkspace(root) {
		t.Fatalf("a fresh workspace is trusted")
	}
	files, err := Trust(link)
	if err != nil || len(files) != 0 {
		t.Fatalf("Trust = %q, %v; want no files, no error", files, err)
	}
	if c, _ := Load(root); !c.WorkspaceTrusted {
		t.Errorf("after trust the workspace is not trusted")
	}
	if c, _ := Load(other); c.WorkspaceTrusted {
		t.Errorf("trusting one workspace trusted another")
	}
}
