package install

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The Claude Code plugin of this repository (claude-plugin/) and the
// marketplace at its root (.claude-plugin/marketplace.json), checked
// against the fields Claude Code's plugin documentation gives
// (https://code.claude.com/docs/en/plugins-reference, "Plugin manifest
// schema", "Standard plugin layout", "Hooks", "MCP servers";
// https://code.claude.com/docs/en/plugin-marketplaces, "Marketplace
// schema", "Plugin entries", "Plugin sources"). Each file is decoded with
// unknown fields refused, so a misspelt key fails here rather than being
// ignored by Claude Code.

const (
	pluginDir       = "../claude-plugin"
	marketplaceFile = "../.claude-plugin/marketplace.json"
)

// pluginManifest is .claude-plugin/plugin.json: name is required; the
// component paths (commands, agents, skills, hooks, mcpServers, …) are
// left out, since the plugin keeps its components where Claude Code looks
// by default (hooks/hooks.json, .mcp.json), and naming a default path
// again loads it twice.
type pluginManifest struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Description string `json:"description"`
	Author      struct {
		Name  string `json:"name"`
		Email string `json:"email,omitempty"`
		URL   string `json:"url,omitempty"`
	} `json:"author"`
	Homepage   string   `json:"homepage"`
	Repository string   `json:"repository"`
	License    string   `json:"license,omitempty"`
	Keywords   []string `json:"keywords"`
}

// pluginHooks is hooks/hooks.json: an optional description and the same
// "hooks" object as in settings.json.
type pluginHooks struct {
	Description string `json:"description"`
	Hooks       map[string][]struct {
		Matcher string `json:"matcher,omitempty"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout int    `json:"timeout,omitempty"`
		} `json:"hooks"`
	} `json:"hooks"`
}

// pluginMCP is .mcp.json: the servers by name.
type pluginMCP struct {
	MCPServers map[string]struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	} `json:"mcpServers"`
}

// marketplace is .claude-plugin/marketplace.json: name, owner and
// plugins are required, and so are each entry's name and source.
type marketplace struct {
	Name  string `json:"name"`
	Owner struct {
		Name  string `json:"name"`
		Email string `json:"email,omitempty"`
		URL   string `json:"url,omitempty"`
	} `json:"owner"`
	Metadata struct {
		Description string `json:"description,omitempty"`
		Version     string `json:"version,omitempty"`
		PluginRoot  string `json:"pluginRoot,omitempty"`
	} `json:"metadata"`
	Plugins []struct {
		Name        string `json:"name"`
		Source      string `json:"source"`
		Description string `json:"description"`
		Version     string `json:"version"`
		Category    string `json:"category"`
		Homepage    string `json:"homepage"`
	} `json:"plugins"`
}

// kebabName is the documented form of plugin and marketplace names.
var kebabName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// semver is MAJOR.MINOR.PATCH with an optional pre-release.
var semver = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// claudeHookEvents are the hook events Claude Code documents
// (https://code.claude.com/docs/en/hooks, "Hook events").
var claudeHookEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
	"PostToolUseFailure", "PostToolBatch", "Notification", "SubagentStart", "SubagentStop", "Stop", "PreCompact", "SessionEnd"}

// decodeManifest decodes the JSON file at path into v, refusing unknown
// fields and trailing data.
func decodeManifest(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if dec.More() {
		t.Fatalf("%s: trailing data", path)
	}
}

func TestClaudePluginManifest(t *testing.T) {
	var m pluginManifest
	decodeManifest(t, filepath.Join(pluginDir, ".claude-plugin", "plugin.json"), &m)
	if !kebabName.MatchString(m.Name) || !semver.MatchString(m.Version) || m.Description == "" || m.Author.Name == "" {
		t.Errorf("plugin.json: name %q, version %q, description %q, author %q: want a kebab-case name, a semver version, a description and an author name",
			m.Name, m.Version, m.Description, m.Author.Name)
	}
	if !strings.Contains(m.Description, "PATH") {
		t.Errorf("plugin.json description does not say lsp-hook must be on PATH: %q", m.Description)
	}
}

// TestClaudePluginHooks: the plugin's hooks are what `lsp-hook install
// claude --batch` writes (the same PostToolUse matcher, PostToolBatch,
// `lsp-hook hook claude` from PATH), plus a SessionStart check that
// exists, is executable, and says how to get lsp-hook.
func TestClaudePluginHooks(t *testing.T) {
	var h pluginHooks
	decodeManifest(t, filepath.Join(pluginDir, "hooks", "hooks.json"), &h)
	for ev := range h.Hooks {
		if !slices.Contains(claudeHookEvents, ev) {
			t.Errorf("hooks.json: unknown event %q", ev)
		}
	}
	claude, _ := Lookup("claude")
	for _, e := range claude.entries(Options{Batch: true}) {
		groups := h.Hooks[e.Event]
		want := 1
		if e.Event == "SessionStart" {
			want = 2 // the PATH check first
		}
		if len(groups) != 1 || groups[0].Matcher != e.Matcher || len(groups[0].Hooks) != want {
			t.Errorf("hooks.json %s = %+v, want one group with matcher %q and %d hooks", e.Event, groups, e.Matcher, want)
			continue
		}
		if hk := groups[0].Hooks[want-1]; hk.Type != "command" || hk.Command != "lsp-hook hook claude" {
			t.Errorf("hooks.json %s hook = %+v, want the command `lsp-hook hook claude`", e.Event, hk)
		}
	}
	start := h.Hooks["SessionStart"]
	if len(start) != 1 || len(start[0].Hooks) != 2 || start[0].Hooks[0].Command != `"${CLAUDE_PLUGIN_ROOT}/bin/lsp-hook-check"` {
		t.Fatalf("hooks.json SessionStart = %+v, want the PATH check, then the prewarm", start)
	}
	check := filepath.Join(pluginDir, "bin", "lsp-hook-check")
	fi, err := os.Stat(check)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("%s is not executable (%v)", check, fi.Mode())
	}
	if runtime.GOOS == "windows" {
		return
	}
	// Run with a PATH that has no lsp-hook: one JSON object whose
	// systemMessage (shown to the user) says how to get it.
	cmd := exec.Command("/bin/sh", check)
	cmd.Env = []string{"PATH=" + t.TempDir() + ":/usr/bin:/bin"}
	out, err := cmd.Output()
	var answer struct {
		SystemMessage string `json:"systemMessage"`
	}
	if err != nil || json.Unmarshal(out, &answer) != nil ||
		!strings.Contains(answer.SystemMessage, "go install github.com/lsp-hook/lsp-hook/cmd/lsp-hook@latest") {
		t.Errorf("%s without lsp-hook on PATH: %v, %q", check, err, out)
	}
}

// TestClaudePluginMCP: the plugin's MCP server is the one `lsp-hook
// install claude --mcp` registers.
func TestClaudePluginMCP(t *testing.T) {
	var m pluginMCP
	decodeManifest(t, filepath.Join(pluginDir, ".mcp.json"), &m)
	s, ok := m.MCPServers[mcpServerName]
	if len(m.MCPServers) != 1 || !ok || s.Command != "lsp-hook" || !slices.Equal(s.Args, []string{"mcp"}) {
		t.Errorf(".mcp.json servers = %+v, want %s: lsp-hook mcp", m.MCPServers, mcpServerName)
	}
}

// TestClaudeMarketplace: the marketplace at the repository root lists the
// plugin by a relative source ("./…", inside the repository) whose
// manifest has the entry's name and version.
func TestClaudeMarketplace(t *testing.T) {
	var mk marketplace
	decodeManifest(t, marketplaceFile, &mk)
	if !kebabName.MatchString(mk.Name) || mk.Owner.Name == "" || len(mk.Plugins) != 1 {
		t.Fatalf("marketplace.json: name %q, owner %q, %d plugins: want a kebab-case name, an owner name and one plugin", mk.Name, mk.Owner.Name, len(mk.Plugins))
	}
	p := mk.Plugins[0]
	if !strings.HasPrefix(p.Source, "./") || strings.Contains(p.Source, "..") {
		t.Fatalf("marketplace.json source %q: want a relative path inside the repository", p.Source)
	}
	var m pluginManifest
	decodeManifest(t, filepath.Join("..", filepath.FromSlash(p.Source), ".claude-plugin", "plugin.json"), &m)
	if p.Name != m.Name || p.Version != m.Version || p.Description == "" {
		t.Errorf("marketplace entry %s %s, plugin.json %s %s: want the same name and version, and a description", p.Name, p.Version, m.Name, m.Version)
	}
}
