package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
	"gopkg.in/yaml.v3"
)

// Server definitions users already have are imported as custom servers:
//
//   - opencode's `lsp` section (opencode.json or opencode.jsonc at the
//     workspace root): {"lsp": {"NAME": {"command": [argv…],
//     "extensions": [".x"], "env": {…}, "initialization": {…},
//     "disabled": bool}}};
//   - a Claude Code plugin's .lsp.json at the workspace root: {"NAME":
//     {"command": "prog", "args": [...], "extensionToLanguage": {".x":
//     "langid"}, "env": {…}, "initializationOptions": {…}, "settings":
//     {…}}}.
//
// An imported server is used only when no lsp-hook config file (workspace
// or user) defines a server of the same name; it replaces a catalogue
// entry of that name. Imported commands come from the workspace, so they
// are subject to workspace trust like the workspace's own config (Trust
// records these files too). `config show` names the file and line.

// ImportFiles are the files whose server definitions are imported, at the
// workspace root, in order (a later file does not override an earlier).
var ImportFiles = []string{"opencode.json", "opencode.jsonc", ".lsp.json"}

// importServers reads the import files of root into c, skipping names in
// keep (set by lsp-hook config), and returns the files read and problems.
func importServers(c *Config, root string, keep map[string]bool) ([]string, []Problem) {
	var files []string
	var problems []Problem
	for _, name := range ImportFiles {
		file := filepath.Join(root, name)
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		std, err := hujson.Standardize(data) // comments and trailing commas become spaces: lines stay
		if err != nil {
			problems = append(problems, Problem{File: file, Message: fmt.Sprintf("parsing: %v", err)})
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(std, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			problems = append(problems, Problem{File: file, Message: "want a JSON object"})
			continue
		}
		top := doc.Content[0]
		if name != ".lsp.json" {
			top = child(top, "lsp")
			if top == nil || top.Kind != yaml.MappingNode {
				continue // an opencode config without servers
			}
		}
		files = append(files, file)
		for i := 0; i+1 < len(top.Content); i += 2 {
			k, v := top.Content[i], top.Content[i+1]
			if keep[k.Value] {
				continue
			}
			s, err := importServer(name, k.Value, v)
			if err != nil {
				problems = append(problems, Problem{File: file, Line: k.Line, Key: k.Value, Message: err.Error()})
				continue
			}
			if s.Name == "" {
				continue // disabled there
			}
			c.LSP.Servers[s.Name] = s
			keep[s.Name] = true
			src := fmt.Sprintf("%s:%d", file, k.Line)
			for _, f := range []string{"enabled", "command", "extensions", "language_ids", "env", "initialization_options", "settings"} {
				c.Sources["lsp.servers."+s.Name+"."+f] = src
			}
		}
	}
	return files, problems
}

// importServer decodes one server of an import file (name is the file's
// base name); a zero Server means the entry is disabled there.
func importServer(file, name string, n *yaml.Node) (Server, error) {
	var raw struct {
		Command        any               `yaml:"command"`
		Args           []string          `yaml:"args"`
		Extensions     []string          `yaml:"extensions"`
		ExtToLang      map[string]string `yaml:"extensionToLanguage"`
		Env            map[string]string `yaml:"env"`
		Initialization any               `yaml:"initialization"`
		InitOptions    any               `yaml:"initializationOptions"`
		Settings       map[string]any    `yaml:"settings"`
		Disabled       bool              `yaml:"disabled"`
	}
	if err := n.Decode(&raw); err != nil {
		return Server{}, fmt.Errorf("decoding server: %v", err)
	}
	if raw.Disabled {
		return Server{}, nil
	}
	s := Server{Name: name, Enabled: true, Env: raw.Env, Settings: raw.Settings,
		InitializationOptions: raw.InitOptions, LanguageIDs: map[string]string{}}
	if raw.Initialization != nil {
		s.InitializationOptions = raw.Initialization
	}
	switch cmd := raw.Command.(type) {
	case string:
		s.Command = append([]string{cmd}, raw.Args...)
	case []any:
		for _, a := range cmd {
			str, ok := a.(string)
			if !ok {
				return Server{}, fmt.Errorf("command: want strings, got %v", a)
			}
			s.Command = append(s.Command, str)
		}
		s.Command = append(s.Command, raw.Args...)
	}
	for ext, lang := range raw.ExtToLang {
		s.Extensions = append(s.Extensions, ext)
		s.LanguageIDs[ext] = lang
	}
	s.Extensions = append(s.Extensions, raw.Extensions...)
	for _, ext := range s.Extensions {
		if !strings.HasPrefix(ext, ".") {
			return Server{}, fmt.Errorf("extension %q: want it with its dot", ext)
		}
		if s.LanguageIDs[ext] == "" {
			s.LanguageIDs[ext] = strings.TrimPrefix(ext, ".")
		}
	}
	if len(s.Command) == 0 || len(s.Extensions) == 0 {
		return Server{}, fmt.Errorf("a server needs a command and extensions (%s)", file)
	}
	slices.Sort(s.Extensions)
	return s, nil
}

// child returns the value of key in mapping n, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
