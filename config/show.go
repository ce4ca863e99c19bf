package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Setting is one effective config value for `lsp-hook config show`: Key is
// the dotted key ("lsp.servers.gopls.command"), Value its JSON rendering
// (durations as Go durations, "3s"), and Source where it came from:
// "file:line" of the config file that set it (or that set the nearest
// enclosing key), else "catalogue" for a built-in server's field,
// "built-in" for a built-in linter's, or "default".
type Setting struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// Settings lists every effective value of c in a stable order: top-level
// keys, then each server and each linter by name.
func (c *Config) Settings() []Setting {
	var out []Setting
	add := func(key string, v any, fallback string) {
		out = append(out, Setting{Key: key, Value: render(v), Source: c.sourceOf(key, fallback)})
	}
	add("lsp.enabled", c.LSP.Enabled, "default")
	add("lsp.timeout", c.LSP.Timeout, "default")
	add("lsp.first_touch_timeout", c.LSP.FirstTouchTimeout, "default")
	add("lsp.idle_server_timeout", c.LSP.IdleServerTimeout, "default")
	add("lsp.document_idle_timeout", c.LSP.DocumentIdleTimeout, "default")
	add("lsp.max_open_documents", c.LSP.MaxOpenDocuments, "default")
	for _, name := range sortedKeys(c.LSP.Servers) {
		s, k := c.LSP.Servers[name], "lsp.servers."+name
		add(k+".enabled", s.Enabled, "catalogue")
		add(k+".command", s.Command, "catalogue")
		add(k+".extensions", s.Extensions, "catalogue")
		add(k+".root_markers", s.RootMarkers, "catalogue")
		add(k+".language_ids", s.LanguageIDs, "catalogue")
		if len(s.Watch) > 0 {
			add(k+".watch", s.Watch, "catalogue")
		}
		if s.FirstTouchTimeout > 0 {
			add(k+".first_touch_timeout", s.FirstTouchTimeout, "catalogue")
		}
		if len(s.Env) > 0 {
			add(k+".env", s.Env, "catalogue")
		}
		if s.InitializationOptions != nil {
			add(k+".initialization_options", s.InitializationOptions, "catalogue")
		}
		if s.Settings != nil {
			add(k+".settings", s.Settings, "catalogue")
		}
	}
	add("severity", c.Severity, "default")
	add("only_new", c.OnlyNew, "default")
	for _, kind := range []string{"json", "yaml", "toml"} {
		add("validators."+kind, c.ValidatorEnabled(kind), "default")
	}
	for _, name := range sortedKeys(c.Linters) {
		l, k := c.Linters[name], "linters."+name
		add(k+".enabled", l.Enabled, "built-in")
		add(k+".command", l.Command, "built-in")
		add(k+".extensions", l.Extensions, "built-in")
		add(k+".parser", l.Parser, "built-in")
		if len(l.Errorformat) > 0 {
			add(k+".errorformat", l.Errorformat, "built-in")
		}
		add(k+".timeout", l.Timeout, "built-in")
		add(k+".cwd", l.Cwd, "built-in")
		add(k+".mode", l.Mode, "built-in")
		add(k+".when", l.When, "built-in")
		if len(l.Requires) > 0 {
			add(k+".requires", l.Requires, "built-in")
		}
		if len(l.RootMarkers) > 0 {
			add(k+".root_markers", l.RootMarkers, "built-in")
		}
	}
	add("output.max_per_file", c.Output.MaxPerFile, "default")
	add("output.max_other_files", c.Output.MaxOtherFiles, "default")
	add("output.max_lines", c.Output.MaxLines, "default")
	add("output.max_chars", c.Output.MaxChars, "default")
	add("output.other_files.edit", c.Output.OtherFiles(false), "default")
	add("output.other_files.write", c.Output.OtherFiles(true), "default")
	add("navigation_tools", c.NavigationTools, "default")
	add("stop_gate", c.StopGateMode(), "default")
	add("auto_install", c.AutoInstall, "default")
	if c.Hooks != nil {
		add("hooks", len(c.Hooks.Content), "default")
	}
	add("idle_timeout", c.IdleTimeout, "default")
	add("memory_budget", c.memoryBudgetSetting(), "default")
	return out
}

// sourceOf returns where key was set: its own entry in Sources, else its
// nearest enclosing key's, else fallback.
func (c *Config) sourceOf(key, fallback string) string {
	for k := key; k != ""; {
		if s, ok := c.Sources[k]; ok {
			return s
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return fallback
}

// render writes v as compact JSON, a duration as "3s".
func render(v any) string {
	if d, ok := v.(time.Duration); ok {
		return d.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// memoryBudgetSetting renders MemoryBudget for config show: "auto (25% of
// the machine's memory)", "none" for 0, else the size ("2.0 GiB").
func (c *Config) memoryBudgetSetting() string {
	switch c.MemoryBudget {
	case MemoryBudgetAuto:
		return fmt.Sprintf("auto (%.0f%% of the machine's memory)", DefaultMemoryBudgetShare*100)
	case 0:
		return "none"
	}
	return FormatSize(c.MemoryBudget)
}
