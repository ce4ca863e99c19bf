package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// FileName is the documented workspace config file, at the workspace root
// (see FileNames for the TOML and JSON forms).
const FileName = ".lsp-hook.yaml"

// Problem is one error found in a config file: File is its path, Line is
// 1-based (0 when the whole file is at fault), Key the dotted key path
// ("lsp.timeout"). A key with a problem keeps its default value.
type Problem struct {
	File    string
	Line    int
	Key     string
	Message string
}

// Error renders "file:line: key: message".
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	if p.Key != "" {
		b.WriteString(": " + p.Key)
	}
	b.WriteString(": " + p.Message)
	return b.String()
}

// UserFile returns the user config path: $XDG_CONFIG_HOME/lsp-hook/config.yaml,
// else ~/.config/lsp-hook/config.yaml; "" when neither can be determined.
func UserFile() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "lsp-hook", "config.yaml")
}

// Load returns the effective config for the workspace at root: defaults,
// overlaid by the user file, overlaid by root/.lsp-hook.yaml. Files that do
// not exist are skipped. Every problem is returned; the config is always
// usable.
func Load(root string) (*Config, []Problem) {
	c := Default()
	var problems []Problem
	workspace, ignored := WorkspaceFile(root)
	for _, f := range ignored {
		problems = append(problems, Problem{File: f, Message: fmt.Sprintf("ignored: %s is read instead (keep one config file)", workspace)})
	}
	for _, file := range []string{UserFile(), workspace} {
		if file == "" {
			continue
		}
		data, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, Problem{File: file, Message: fmt.Sprintf("reading config: %v", err)})
			continue
		}
		c.Files = append([]string{file}, c.Files...)
		if file != workspace {
			problems = append(problems, applyUser(c, file, data)...)
			continue
		}
		before := snapshot(c)
		problems = append(problems, apply(c, file, data)...)
		if !Trusted(file) {
			distrust(c, file, before)
		}
	}
	c.WorkspaceTrusted = TrustedWorkspace(root)
	c.Root = root
	return c, append(problems, c.importAll(root)...)
}

// importAll imports opencode's and Claude Code plugins' server definitions
// (import.go) for the names no lsp-hook config file set, each file's
// commands subject to trust.
func (c *Config) importAll(root string) []Problem {
	if c.Sources == nil {
		c.Sources = make(map[string]string)
	}
	keep := make(map[string]bool)
	for k := range c.Sources {
		if parts := strings.Split(k, "."); len(parts) >= 3 && parts[0] == "lsp" && parts[1] == "servers" {
			keep[parts[2]] = true
		}
	}
	before := snapshot(c)
	files, servers, problems := importServers(c, root, keep)
	for _, f := range files {
		c.Files = append(c.Files, f)
		if !Trusted(f) {
			distrust(c, f, before)
		}
	}
	// Only servers whose files are trusted replace the catalogue's: an
	// untrusted import changes nothing.
	servers = slices.DeleteFunc(servers, func(im imported) bool { return !Trusted(im.file) })
	replaceCatalogue(c, keep, servers)
	return problems
}

// apply overlays the workspace config document data (from file: YAML,
// TOML or JSON by its extension) onto c.
func apply(c *Config, file string, data []byte) []Problem { return applyFile(c, file, data, false) }

// applyUser is apply for the user config file, which alone may set the
// per-user keys (memory_budget).
func applyUser(c *Config, file string, data []byte) []Problem { return applyFile(c, file, data, true) }

func applyFile(c *Config, file string, data []byte, user bool) []Problem {
	top, err := parseDocument(file, data)
	if err != nil {
		return []Problem{{File: file, Line: yamlErrorLine(err), Message: err.Error()}}
	}
	if top == nil {
		return nil // empty file
	}
	if c.Sources == nil {
		c.Sources = make(map[string]string)
	}
	d := &decoder{file: file, sources: c.Sources, user: user}
	if top.Kind != yaml.MappingNode {
		d.problem(top, "", "want a mapping of settings at the top level")
		return d.problems
	}
	d.mapping(top, "", map[string]func(*yaml.Node, string){
		"lsp":              func(n *yaml.Node, key string) { d.lsp(c, n, key) },
		"severity":         func(n *yaml.Node, key string) { d.severity(&c.Severity, n, key) },
		"validators":       func(n *yaml.Node, key string) { d.validators(c, n, key) },
		"idle_timeout":     func(n *yaml.Node, key string) { d.duration(&c.IdleTimeout, n, key) },
		"only_new":         func(n *yaml.Node, key string) { d.boolean(&c.OnlyNew, n, key) },
		"linters":          func(n *yaml.Node, key string) { d.linters(c, n, key) },
		"output":           func(n *yaml.Node, key string) { d.output(c, n, key) },
		"hooks":            func(n *yaml.Node, key string) { d.hooks(c, n, key) },
		"navigation_tools": func(n *yaml.Node, key string) { d.boolean(&c.NavigationTools, n, key) },
		"stop_gate":        func(n *yaml.Node, key string) { d.stopGate(c, n, key) },
		"auto_install":     func(n *yaml.Node, key string) { d.boolean(&c.AutoInstall, n, key) },
		"memory_budget":    func(n *yaml.Node, key string) { d.memoryBudget(c, n, key) },
	})
	return d.problems
}

// decoder walks a yaml.Node tree, recording problems with their line.
type decoder struct {
	file     string
	problems []Problem
	sources  map[string]string // dotted key → "file:line" that set it
	user     bool              // the user config file: per-user keys allowed
}

// source records that node n (a key) of this file set the dotted key.
func (d *decoder) source(key string, n *yaml.Node) {
	if d.sources != nil {
		d.sources[key] = fmt.Sprintf("%s:%d", d.file, n.Line)
	}
}

func (d *decoder) problem(n *yaml.Node, key, format string, args ...any) {
	d.problems = append(d.problems, Problem{File: d.file, Line: n.Line, Key: key, Message: fmt.Sprintf(format, args...)})
}

// mapping calls fields[k] for each key k of the mapping n; unknown keys are
// problems naming the closest known key.
func (d *decoder) mapping(n *yaml.Node, prefix string, fields map[string]func(*yaml.Node, string)) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := join(prefix, k.Value)
		f, ok := fields[k.Value]
		if !ok {
			d.problem(k, key, "unknown key%s", suggest(k.Value, sortedKeys(fields)))
			continue
		}
		before := len(d.problems)
		f(v, key)
		if len(d.problems) == before && v.Kind != yaml.MappingNode {
			d.source(key, k) // mappings: their leaves say where they came from
		}
	}
}

func (d *decoder) lsp(c *Config, n *yaml.Node, key string) {
	if n.Kind == yaml.ScalarNode {
		var on bool
		if err := n.Decode(&on); err != nil {
			d.problem(n, key, "want false, true or a mapping, got %q", n.Value)
			return
		}
		c.LSP.Enabled = on
		return
	}
	if n.Kind != yaml.MappingNode {
		d.problem(n, key, "want false, true or a mapping")
		return
	}
	d.mapping(n, key, map[string]func(*yaml.Node, string){
		"enabled":             func(n *yaml.Node, key string) { d.boolean(&c.LSP.Enabled, n, key) },
		"timeout":             func(n *yaml.Node, key string) { d.duration(&c.LSP.Timeout, n, key) },
		"first_touch_timeout": func(n *yaml.Node, key string) { d.duration(&c.LSP.FirstTouchTimeout, n, key) },
		"idle_server_timeout": func(n *yaml.Node, key string) { d.duration(&c.LSP.IdleServerTimeout, n, key) },
		"document_idle_timeout": func(n *yaml.Node, key string) {
			d.duration(&c.LSP.DocumentIdleTimeout, n, key)
		},
		"max_open_documents": func(n *yaml.Node, key string) { d.positiveInt(&c.LSP.MaxOpenDocuments, n, key) },
		"servers":            func(n *yaml.Node, key string) { d.servers(c, n, key) },
	})
}

// servers handles `lsp.servers`: for each name, a bare bool (on or off), or
// a mapping of server settings. A catalogue server keeps every field the
// mapping leaves out; a name not in the catalogue defines a new server and
// needs at least command and extensions.
func (d *decoder) servers(c *Config, n *yaml.Node, key string) {
	if n.Kind != yaml.MappingNode {
		d.problem(n, key, "want a mapping of server name to settings")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		skey := join(key, k.Value)
		s, known := c.LSP.Servers[k.Value]
		if !known && v.Kind != yaml.MappingNode {
			d.problem(k, skey, "unknown server%s", suggest(k.Value, sortedKeys(c.LSP.Servers)))
			continue
		}
		if v.Kind == yaml.ScalarNode {
			if d.boolean(&s.Enabled, v, skey) {
				d.source(skey+".enabled", k)
			}
			c.LSP.Servers[k.Value] = s
			continue
		}
		if v.Kind != yaml.MappingNode {
			d.problem(v, skey, "want true, false or a mapping of server settings")
			continue
		}
		if !known {
			s = Server{Name: k.Value, Enabled: true}
		}
		before := len(d.problems)
		d.server(&s, v, skey)
		if !known {
			if len(s.Command) == 0 || len(s.Extensions)+len(s.FileNames) == 0 {
				d.problem(k, skey, "a server not in the catalogue needs command and extensions%s",
					suggest(k.Value, sortedKeys(c.LSP.Servers)))
				continue
			}
			if len(d.problems) > before {
				continue // a new server with a broken field is left out whole
			}
		}
		for _, ext := range s.Extensions {
			if s.LanguageIDs[ext] == "" {
				if s.LanguageIDs == nil {
					s.LanguageIDs = make(map[string]string)
				}
				s.LanguageIDs[ext] = strings.TrimPrefix(ext, ".")
			}
		}
		c.LSP.Servers[k.Value] = s
	}
}

// server decodes one server's settings mapping into s: the keys DESIGN.md
// names (enabled, command, extensions, root_markers, env,
// initialization_options, settings), language_ids, file_names and
// first_touch_timeout.
func (d *decoder) server(s *Server, n *yaml.Node, key string) {
	d.mapping(n, key, map[string]func(*yaml.Node, string){
		"enabled": func(n *yaml.Node, key string) { d.boolean(&s.Enabled, n, key) },
		"command": func(n *yaml.Node, key string) {
			if v, ok := d.strings(n, key); ok && len(v) > 0 {
				s.Command = v
			} else if ok {
				d.problem(n, key, "want the program and its arguments, such as [mylang-ls, --stdio]")
			}
		},
		"extensions": func(n *yaml.Node, key string) {
			if v, ok := d.extensions(n, key); ok {
				s.Extensions = v
			}
		},
		"file_names": func(n *yaml.Node, key string) {
			if v, ok := d.strings(n, key); ok {
				s.FileNames = v
			}
		},
		"first_touch_timeout": func(n *yaml.Node, key string) { d.duration(&s.FirstTouchTimeout, n, key) },
		"watch": func(n *yaml.Node, key string) {
			if v, ok := d.strings(n, key); ok {
				s.Watch = v
				d.source(key, n)
			}
		},
		"root_markers": func(n *yaml.Node, key string) {
			if v, ok := d.strings(n, key); ok {
				s.RootMarkers = v
			}
		},
		"language_ids": func(n *yaml.Node, key string) {
			if d.stringMap(&s.LanguageIDs, n, key) {
				d.source(key, n)
			}
		},
		"env": func(n *yaml.Node, key string) {
			if d.stringMap(&s.Env, n, key) {
				d.source(key, n)
			}
		},
		"initialization_options": func(n *yaml.Node, key string) {
			var v any
			if err := n.Decode(&v); err != nil {
				d.problem(n, key, "decoding: %v", err)
				return
			}
			s.InitializationOptions = mergeOptions(s.InitializationOptions, v)
			d.source(key, n)
		},
		"settings": func(n *yaml.Node, key string) {
			var v map[string]any
			if n.Kind != yaml.MappingNode || n.Decode(&v) != nil {
				d.problem(n, key, "want a mapping of settings sections")
				return
			}
			merged, _ := mergeOptions(s.Settings, v).(map[string]any)
			s.Settings = merged
			d.source(key, n)
		},
	})
}

// strings decodes a sequence of scalars.
func (d *decoder) strings(n *yaml.Node, key string) ([]string, bool) {
	var v []string
	if n.Kind != yaml.SequenceNode || n.Decode(&v) != nil {
		d.problem(n, key, "want a list of strings")
		return nil, false
	}
	return v, true
}

// stringMap decodes a mapping of scalars into *dst (replacing it).
func (d *decoder) stringMap(dst *map[string]string, n *yaml.Node, key string) bool {
	var v map[string]string
	if n.Kind != yaml.MappingNode || n.Decode(&v) != nil {
		d.problem(n, key, "want a mapping of names to strings")
		return false
	}
	*dst = v
	return true
}

func (d *decoder) positiveInt(dst *int, n *yaml.Node, key string) {
	var v int
	if n.Kind != yaml.ScalarNode || n.Decode(&v) != nil || v <= 0 {
		d.problem(n, key, "want a positive whole number, got %q", n.Value)
		return
	}
	*dst = v
}

func (d *decoder) validators(c *Config, n *yaml.Node, key string) {
	fields := map[string]func(*yaml.Node, string){}
	for _, kind := range []string{"json", "yaml", "toml"} {
		fields[kind] = func(n *yaml.Node, key string) {
			var on bool
			if d.boolean(&on, n, key) {
				c.Validators[kind] = on
			}
		}
	}
	if n.Kind != yaml.MappingNode {
		d.problem(n, key, "want a mapping such as {json: true, yaml: true, toml: true}")
		return
	}
	d.mapping(n, key, fields)
}

func (d *decoder) boolean(dst *bool, n *yaml.Node, key string) bool {
	var v bool
	if n.Kind != yaml.ScalarNode || n.Decode(&v) != nil {
		d.problem(n, key, "want true or false, got %q", n.Value)
		return false
	}
	*dst = v
	return true
}

func (d *decoder) duration(dst *time.Duration, n *yaml.Node, key string) {
	v, err := time.ParseDuration(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || v <= 0 {
		d.problem(n, key, "want a positive duration such as 3s or 1m30s, got %q", n.Value)
		return
	}
	*dst = v
}

func (d *decoder) severity(dst *string, n *yaml.Node, key string) {
	switch v := strings.ToLower(n.Value); v {
	case "error", "warning", "info", "hint":
		*dst = v
	case "warn":
		*dst = "warning"
	default:
		d.problem(n, key, "want error, warning, info or hint, got %q", n.Value)
	}
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// yamlErrorLine pulls N out of yaml.v3's "yaml: line N: ..." messages.
func yamlErrorLine(err error) int {
	var line int
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		fmt.Sscanf(msg[i:], "line %d", &line)
	}
	return line
}

// mergeOptions lays over on base, as a server's initialization_options and
// settings are configured: mappings merge key by key, recursively, and
// anything else in over replaces what base had. So a config that sets one
// option keeps the catalogue's others (gopls's diagnosticsDelay and
// verboseWorkDoneProgress, which lsp-hook's freshness relies on); to turn
// one of those off, set it explicitly. base is not modified.
func mergeOptions(base, over any) any {
	bm, ok1 := base.(map[string]any)
	om, ok2 := over.(map[string]any)
	if !ok1 || !ok2 {
		return over
	}
	out := make(map[string]any, len(bm)+len(om))
	for k, v := range bm {
		out[k] = v
	}
	for k, v := range om {
		out[k] = mergeOptions(bm[k], v)
	}
	return out
}

// SplitSource splits a Config.Sources value, "file:line" (line 1-based),
// into the file and the line; a value without a line ("default",
// "catalogue") is all file, with line 0.
func SplitSource(s string) (file string, line int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0
	}
	return s[:i], n
}

// CheckFile returns the problems Load would report of the config file at
// path were its content data, and the config it would make of it over the
// defaults (for the checks the caller adds: a linter's parser). ok is false
// when path is not a config file of the workspace at root (one of
// FileNames there) nor the user file (UserFile, which alone may set the
// per-user keys): data is then not read. Problems are as Load's: file,
// 1-based line (0: the whole file), dotted key ("" for a file that does not
// parse), message.
func CheckFile(root, path string, data []byte) (problems []Problem, c *Config, ok bool) {
	user := path == UserFile()
	if !user && (filepath.Dir(path) != root || !slices.Contains(FileNames, filepath.Base(path))) {
		return nil, nil, false
	}
	c = Default()
	return applyFile(c, path, data, user), c, true
}
