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

// TestImport: opencode's lsp section and a Claude Code plugin's .lsp.json
// become servers, lsp-hook config wins by name, disabled entries and bad
// ones are handled, and imported commands need trust.
func TestImport(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	t.Setenv("XDG_STATE_HOME", testdir.New(t))
	root := testdir.New(t)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("opencode.jsonc", `{
  // opencode config
  "lsp": {
    "mylang": {"command": ["mylang-ls", "--stdio"], "extensions": [".my"], "env": {"A": "1"}},
    "off": {"command": ["x"], "extensions": [".off"], "disabled": true},
    "mine": {"command": ["from-opencode"], "extensions": [".mine"],},
  },
}`)
	write(".lsp.json", `{
  "go": {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"}},
  "bad": {"command": "b", "extensionToLanguage": {"nodot": "x"}}
}`)
	write(".lsp-hook.yaml", "lsp:\n  servers:\n    mine: {command: [from-lsp-hook], extensions: [.mine]}\n")
	if _, err := Trust(root); err != nil {
		t.Fatal(err)
	}
	c, problems := Load(root)
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), ".lsp.json:3: bad: extension \"nodot\"") {
		t.Errorf("problems = %v", problems)
	}
	my := c.LSP.Servers["mylang"]
	if !slices.Equal(my.Command, []string{"mylang-ls", "--stdio"}) || my.LanguageID(".my") != "my" || my.Env["A"] != "1" || !my.Enabled {
		t.Errorf("mylang = %+v", my)
	}
	if g := c.LSP.Servers["go"]; !slices.Equal(g.Command, []string{"gopls", "serve"}) || g.LanguageID(".go") != "go" {
		t.Errorf("go = %+v", g)
	}
	if _, ok := c.LSP.Servers["off"]; ok {
		t.Errorf("a disabled opencode server was imported")
	}
	if got := c.LSP.Servers["mine"].Command[0]; got != "from-lsp-hook" {
		t.Errorf("lsp-hook config did not win over the import: %s", got)
	}
	if src := c.sourceOf("lsp.servers.mylang.command", ""); src != filepath.Join(root, "opencode.jsonc")+":4" {
		t.Errorf("source = %q", src)
	}

	write(".lsp.json", `{"go": {"command": "evil", "extensionToLanguage": {".go": "go"}}}`)
	c, _ = Load(root)
	if _, kept := c.LSP.Servers["go"]; !slices.Contains(c.Untrusted, "lsp.servers.go.command") || kept {
		t.Errorf("a changed .lsp.json kept its trust: untrusted %v, go %v", c.Untrusted, c.LSP.Servers["go"].Command)
	}
}

// TestImportDoesWhatTheFileMeant loads the examples of opencode's LSP
// page (opencode.ai/docs/lsp) and Claude Code's plugin reference (LSP
// servers, .lsp.json), one workspace each, trusted, and checks the
// servers that result: one per language, the spec's language IDs,
// disabled entries honoured, variables expanded or the entry refused, and
// every key lsp-hook cannot honour listed as a problem.
func TestImportDoesWhatTheFileMeant(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	t.Setenv("XDG_STATE_HOME", testdir.New(t))
	t.Setenv("LSP_HOOK_TEST_HOME_VAR", "/opt/ls")
	load := func(t *testing.T, name, text string) (*Config, []string) {
		t.Helper()
		root := testdir.New(t)
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "token.txt"), []byte("s3cret\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Trust(root); err != nil {
			t.Fatal(err)
		}
		c, problems := Load(root)
		var ps []string
		for _, p := range problems {
			ps = append(ps, strings.TrimPrefix(p.Error(), root+string(filepath.Separator)))
		}
		return c, ps
	}
	// serving lists the enabled servers for ext.
	serving := func(c *Config, ext string) []string {
		var out []string
		for name, s := range c.LSP.Servers {
			if s.Enabled && s.Serves(ext) {
				out = append(out, name)
			}
		}
		slices.Sort(out)
		return out
	}

	t.Run("opencode: a custom server replaces the catalogue's for its extensions", func(t *testing.T) {
		c, problems := load(t, "opencode.json", `{
  "$schema": "https://opencode.ai/config.json",
  "lsp": {
    "custom-lsp": {
      "command": ["custom-lsp-server", "--stdio"],
      "extensions": [".ts", ".tsx"],
      "env": {"TOKEN": "{file:token.txt}", "HOME_DIR": "{env:LSP_HOOK_TEST_HOME_VAR}"}
    }
  }
}`)
		if len(problems) > 0 {
			t.Errorf("problems: %v", problems)
		}
		s := c.LSP.Servers["custom-lsp"]
		if got := serving(c, ".ts"); !slices.Equal(got, []string{"custom-lsp"}) {
			t.Errorf(".ts served by %v, want custom-lsp alone", got)
		}
		if got := serving(c, ".js"); !slices.Contains(got, "typescript-language-server") {
			t.Errorf(".js served by %v: the catalogue's server should keep the extensions it was not replaced for", got)
		}
		if s.LanguageID(".ts") != "typescript" || s.LanguageID(".tsx") != "typescriptreact" {
			t.Errorf("language IDs %v, want typescript and typescriptreact (LSP 3.17)", s.LanguageIDs)
		}
		if s.Env["TOKEN"] != "s3cret" || s.Env["HOME_DIR"] != "/opt/ls" {
			t.Errorf("env %v: {file:} and {env:} not substituted", s.Env)
		}
	})
	t.Run("opencode: luau-lsp with its sourcemap autogenerated gets rojo as its companion", func(t *testing.T) {
		c, problems := load(t, "opencode.json", `{
  "lsp": {
    "luau-lsp": {
      "command": ["luau-lsp", "lsp"],
      "extensions": [".luau"],
      "initialization": {"luau-lsp": {"sourcemap": {"autogenerate": true, "rojoProjectFile": "game.project.json"}}}
    }
  }
}`)
		if len(problems) > 0 {
			t.Errorf("problems: %v", problems)
		}
		want := []string{"rojo", "sourcemap", "game.project.json", "--watch", "--output", "sourcemap.json", "--include-non-scripts"}
		if got := c.LSP.Servers["luau-lsp"].Watch; !slices.Equal(got, want) {
			t.Errorf("watch = %q, want %q", got, want)
		}
	})
	t.Run(`opencode: "lsp": false`, func(t *testing.T) {
		c, _ := load(t, "opencode.json", `{"$schema": "https://opencode.ai/config.json", "lsp": false}`)
		for _, ext := range []string{".go", ".py", ".ts"} {
			if got := serving(c, ext); len(got) > 0 {
				t.Errorf("%s still served by %v", ext, got)
			}
		}
	})
	t.Run("opencode: a built-in disabled, another configured", func(t *testing.T) {
		c, problems := load(t, "opencode.json", `{
  "lsp": {
    "typescript": {"disabled": true},
    "rust": {"env": {"RUST_LOG": "debug"}},
    "pyright": {"initialization": {"python": {"analysis": {"typeCheckingMode": "strict"}}}}
  }
}`)
		if len(problems) > 0 {
			t.Errorf("problems: %v", problems)
		}
		if c.LSP.Servers["typescript-language-server"].Enabled {
			t.Errorf("typescript-language-server still enabled")
		}
		if ra := c.LSP.Servers["rust-analyzer"]; !ra.Enabled || ra.Env["RUST_LOG"] != "debug" {
			t.Errorf("rust-analyzer = enabled %v, env %v", ra.Enabled, ra.Env)
		}
		if c.LSP.Servers["pyright"].InitializationOptions == nil {
			t.Errorf("pyright's initialization not applied")
		}
	})
	t.Run("Claude Code: the docs' gopls entry replaces the catalogue's gopls", func(t *testing.T) {
		c, problems := load(t, ".lsp.json", `{
  "go": {
    "command": "gopls",
    "args": ["serve"],
    "extensionToLanguage": {".go": "go"},
    "startupTimeout": 20000
  }
}`)
		if len(problems) > 0 {
			t.Errorf("problems: %v", problems)
		}
		if got := serving(c, ".go"); !slices.Equal(got, []string{"go"}) {
			t.Errorf(".go served by %v, want the imported go alone", got)
		}
		if got := c.LSP.Servers["go"].FirstTouchTimeout; got != 20*time.Second {
			t.Errorf("startupTimeout 20000 ms became %v", got)
		}
	})
	t.Run("Claude Code: plugin variables refuse the entry, others expand", func(t *testing.T) {
		c, problems := load(t, ".lsp.json", `{
  "python": {
    "command": "pyright-langserver",
    "args": ["--stdio"],
    "extensionToLanguage": {".py": "python", ".pyi": "python"},
    "env": {"PYTHONPATH": "${CLAUDE_PLUGIN_ROOT}/lib"}
  },
  "mylang": {
    "command": "${LSP_HOOK_TEST_HOME_VAR}/bin/mylang-ls",
    "args": ["--log=${LSP_HOOK_TEST_UNSET:-off}"],
    "extensionToLanguage": {".my": "mylang"},
    "transport": "stdio",
    "restartOnCrash": true,
    "maxRestarts": 3
  },
  "sock": {"command": "s", "extensionToLanguage": {".sk": "sk"}, "transport": "socket"}
}`)
		if _, ok := c.LSP.Servers["python"]; ok {
			t.Errorf("the entry using ${CLAUDE_PLUGIN_ROOT} was imported")
		}
		if got := serving(c, ".py"); !slices.Contains(got, "pyright") {
			t.Errorf(".py served by %v: a refused import must not take the catalogue's server away", got)
		}
		if my := c.LSP.Servers["mylang"]; !slices.Equal(my.Command, []string{"/opt/ls/bin/mylang-ls", "--log=off"}) {
			t.Errorf("mylang command %q, want the variables expanded", my.Command)
		}
		if _, ok := c.LSP.Servers["sock"]; ok {
			t.Errorf("a socket-transport server was imported")
		}
		want := []string{
			`.lsp.json:2: python: uses ${CLAUDE_PLUGIN_ROOT}, which only an installed Claude Code plugin defines; not imported`,
			`.lsp.json:8: mylang.maxRestarts: not honoured`,
			`.lsp.json:8: mylang.restartOnCrash: not honoured`,
			`.lsp.json:16: sock.transport: "socket": lsp-hook talks to servers over stdio only; not imported`,
		}
		for _, w := range want {
			found := false
			for _, p := range problems {
				found = found || strings.HasPrefix(p, w)
			}
			if !found {
				t.Errorf("no problem %q among\n%s", w, strings.Join(problems, "\n"))
			}
		}
	})
}
