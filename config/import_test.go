package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
