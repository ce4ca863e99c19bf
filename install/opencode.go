package install

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/template"

	"github.com/tailscale/hujson"
)

// OpenCode has no shell hooks; it loads JavaScript plugins from
// .opencode/plugin/ (project) and ~/.config/opencode/plugin/ (user), one
// level, *.js and *.ts, plugin and plugins both accepted
// (https://opencode.ai/docs/plugins, "From local files"; the loader globs
// {plugin,plugins}/*.{ts,js}). `install opencode` writes one file there,
// lsp-hook.js (openCodePlugin), whose tool.execute.after hook runs the
// hook command for OpenCode's file tools and appends what it prints to the
// tool's output; unless Options.NoSession, its event hook also runs the
// hook command, without waiting, for OpenCode's session.created (prewarm)
// and session.deleted bus events (hooks.OpenCode says why there is no
// Stop gate). The file is lsp-hook's alone: install writes it whole
// (refusing a file of that name it did not write) and uninstall deletes
// it.

// openCodePluginJS is the plugin's template: {{.Command}} is the hook
// command as a JavaScript string, {{.Tools}} the tools it runs for as a
// JavaScript array, {{.Sessions}} whether it forwards session events.
//
//go:embed opencode_plugin.js.tmpl
var openCodePluginJS string

// openCodePluginTmpl parses the plugin's template on first use, not at
// every process start (the hook's included).
var openCodePluginTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("plugin").Parse(openCodePluginJS))
})

// openCodeMarker is the first line of a plugin file install wrote.
const openCodeMarker = "// lsp-hook: language-server diagnostics for OpenCode's file tools."

// openCodeFileTools are OpenCode's tools that write files (its
// packages/opencode/src/tool: write, edit, multiedit, patch, and
// apply_patch, the patch tool of GPT models); openCodeShellTool its shell.
var openCodeFileTools = []string{"write", "edit", "multiedit", "patch", "apply_patch"}

const openCodeShellTool = "bash"

// openCodePlugin renders the plugin for command (which must run `lsp-hook
// hook opencode`), with the shell tool unless noShell and the session
// events unless noSession.
func openCodePlugin(command string, noShell, noSession bool) ([]byte, error) {
	tools := append([]string(nil), openCodeFileTools...)
	if !noShell {
		tools = append(tools, openCodeShellTool)
	}
	cmd, _ := json.Marshal(command)
	list, _ := json.Marshal(tools)
	var b bytes.Buffer
	err := openCodePluginTmpl().Execute(&b, struct {
		Marker, Command, Tools string
		Sessions               bool
	}{openCodeMarker, string(cmd), string(list), !noSession})
	return b.Bytes(), err
}

// openCodeTarget is OpenCode's entry in the table of agents: a plugin
// file, not a hooks file (Target.Plugin).
var openCodeTarget = &Target{
	Agent: "opencode", Title: "OpenCode",
	ProjectFile: ".opencode/plugin/lsp-hook.js",
	userFile: func(home string, getenv func(string) string) string {
		if d := getenv("XDG_CONFIG_HOME"); d != "" {
			return filepath.Join(d, "opencode", "plugin", "lsp-hook.js")
		}
		return filepath.Join(home, ".config", "opencode", "plugin", "lsp-hook.js")
	},
	Plugin: true,
	Notes:  []string{"OpenCode loads plugins when it starts: restart running sessions."},
	Docs:   []string{"https://opencode.ai/docs/plugins", "https://opencode.ai/docs/lsp"},
}

// addOpenCode writes the plugin to path: Created, Updated (a plugin of an
// older command or tool list), or Unchanged. A file at path that install
// did not write is an error, left alone.
func addOpenCode(t *Target, path string, opts Options) (*Result, error) {
	want, err := openCodePlugin(opts.Command, opts.NoShell, opts.NoSession)
	if err != nil {
		return nil, err
	}
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if exists && !bytes.HasPrefix(old, []byte(openCodeMarker)) {
		return nil, fmt.Errorf("%s exists and is not lsp-hook's plugin; move it away first", path)
	}
	res := &Result{Target: t, Path: path, Action: Created}
	switch {
	case bytes.Equal(old, want):
		res.Action = Unchanged
		return res, nil
	case exists:
		res.Action = Updated
	}
	from := path
	if !exists {
		from = "/dev/null"
	}
	res.Diff = unifiedDiff(from, path, old, want)
	res.Notes = append(append([]string(nil), t.Notes...), openCodeLSPNotes(opts)...)
	if opts.DryRun {
		return res, nil
	}
	return res, writeConfig(path, want)
}

// removeOpenCode deletes the plugin install wrote at path (Removed), and
// its plugin directory when nothing else is left in it, or does nothing
// when there is none (Unchanged). A file there that install did not write
// is an error, left alone.
func removeOpenCode(t *Target, path string, opts Options) (*Result, error) {
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Result{Target: t, Path: path, Action: Unchanged}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !bytes.HasPrefix(old, []byte(openCodeMarker)) {
		return nil, fmt.Errorf("%s is not lsp-hook's plugin; leaving it", path)
	}
	res := &Result{Target: t, Path: path, Action: Removed, Diff: unifiedDiff(path, "/dev/null", old, nil)}
	if opts.DryRun {
		return res, nil
	}
	if err := removeConfig(path); err != nil {
		return res, err
	}
	_ = os.Remove(filepath.Dir(path)) // only an empty directory goes
	return res, nil
}

// openCodeConfigFiles are the project's OpenCode config files, relative
// to the workspace root (https://opencode.ai/docs/config, "Locations").
var openCodeConfigFiles = []string{"opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"}

// openCodeLSPNotes says, for a project install, when the project's
// OpenCode config turns OpenCode's own LSP on ("lsp": true or a server
// table; https://opencode.ai/docs/lsp): OpenCode then appends its own
// diagnostics to the same tool outputs, and the plugin leaves out the
// files those already report.
func openCodeLSPNotes(opts Options) []string {
	if opts.Scope != ProjectScope || opts.Root == "" {
		return nil
	}
	var notes []string
	for _, rel := range openCodeConfigFiles {
		b, err := os.ReadFile(filepath.Join(opts.Root, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		if on, err := openCodeLSPOn(b); err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v (not checked for OpenCode's own LSP)", rel, err))
		} else if on {
			notes = append(notes, rel+" turns OpenCode's own LSP on: OpenCode adds its diagnostics to the same tool results, "+
				"so lsp-hook leaves out of its answer the files they already report (one block per file), still checking what those changes broke elsewhere. "+
				`Set "lsp": false there to have lsp-hook report them all.`)
		}
	}
	return notes
}

// openCodeLSPOn reports whether an OpenCode config (JSONC) turns its LSP
// on: "lsp" is true or an object; false, absent or anything else is off.
func openCodeLSPOn(config []byte) (bool, error) {
	std, err := hujson.Standardize(config)
	if err != nil {
		return false, fmt.Errorf("parsing: %w", err)
	}
	var c struct {
		LSP json.RawMessage `json:"lsp"`
	}
	if err := json.Unmarshal(std, &c); err != nil {
		return false, fmt.Errorf("parsing: %w", err)
	}
	s := strings.TrimSpace(string(c.LSP))
	return s == "true" || strings.HasPrefix(s, "{"), nil
}
