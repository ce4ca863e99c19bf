package config

import (
	"cmp"

	"gopkg.in/yaml.v3"
)

// Output caps the lint block (the `output:` key; DESIGN.md "The lint
// block"). A zero field keeps the built-in cap: 20 diagnostics per file, 5
// other files, 50 lines, 10,000 characters (bytes).
type Output struct {
	MaxPerFile    int // `output.max_per_file`
	MaxOtherFiles int // `output.max_other_files`
	MaxLines      int // `output.max_lines`
	MaxChars      int // `output.max_chars`
	// OtherFilesEdit and OtherFilesWrite are `output.other_files` for an
	// Edit and for a Write: which other files' diagnostics the lint block
	// lists (OtherFilesIntroduced, OtherFilesAll or OtherFilesNone; ""
	// means the default, OtherFiles). `other_files: all` sets both;
	// `other_files: {edit: none}` sets one.
	OtherFilesEdit, OtherFilesWrite string
}

// StopGateMode returns `stop_gate`: "block" (the default), "warn" or
// "off" (internal/session's GateBlock, GateWarn, GateOff).
func (c *Config) StopGateMode() string { return cmp.Or(c.StopGate, "block") }

func (d *decoder) stopGate(c *Config, n *yaml.Node, key string) {
	switch n.Value {
	case "block", "warn", "off":
		c.StopGate = n.Value
	default:
		d.problem(n, key, "want block, warn or off, got %q", n.Value)
	}
}

// Values of `output.other_files`: an other file (one the change did not
// touch) is listed with the errors this change introduced in it, compared
// with its diagnostics before the change (introduced); with all its
// diagnostics when the change re-published them (all); or not at all
// (none).
const (
	OtherFilesIntroduced = "introduced"
	OtherFilesAll        = "all"
	OtherFilesNone       = "none"
)

// OtherFiles returns `output.other_files` for an Edit (write false) or a
// Write: the configured value, else introduced for an Edit and all for a
// Write.
func (o Output) OtherFiles(write bool) string {
	if write {
		return cmp.Or(o.OtherFilesWrite, OtherFilesAll)
	}
	return cmp.Or(o.OtherFilesEdit, OtherFilesIntroduced)
}

func (d *decoder) output(c *Config, n *yaml.Node, key string) {
	if n.Kind != yaml.MappingNode {
		d.problem(n, key, "want a mapping such as {max_per_file: 20, max_lines: 50}")
		return
	}
	d.mapping(n, key, map[string]func(*yaml.Node, string){
		"max_per_file":    func(n *yaml.Node, key string) { d.positiveInt(&c.Output.MaxPerFile, n, key) },
		"max_other_files": func(n *yaml.Node, key string) { d.positiveInt(&c.Output.MaxOtherFiles, n, key) },
		"max_lines":       func(n *yaml.Node, key string) { d.positiveInt(&c.Output.MaxLines, n, key) },
		"max_chars":       func(n *yaml.Node, key string) { d.positiveInt(&c.Output.MaxChars, n, key) },
		"other_files":     func(n *yaml.Node, key string) { d.otherFiles(&c.Output, n, key) },
	})
}

// otherFiles decodes `output.other_files`: one value for both modes, or a
// mapping {edit: …, write: …}.
func (d *decoder) otherFiles(o *Output, n *yaml.Node, key string) {
	values := []string{OtherFilesIntroduced, OtherFilesAll, OtherFilesNone}
	if n.Kind != yaml.MappingNode {
		d.oneOf(&o.OtherFilesEdit, n, key, values...)
		o.OtherFilesWrite = o.OtherFilesEdit
		return
	}
	d.mapping(n, key, map[string]func(*yaml.Node, string){
		"edit":  func(n *yaml.Node, key string) { d.oneOf(&o.OtherFilesEdit, n, key, values...) },
		"write": func(n *yaml.Node, key string) { d.oneOf(&o.OtherFilesWrite, n, key, values...) },
	})
}

// hooks keeps the `hooks:` list (YAML hook declarations for agent
// runtimes) as written, for package hooks to validate and run; here it
// must be a list of mappings.
func (d *decoder) hooks(c *Config, n *yaml.Node, key string) {
	if n.Kind != yaml.SequenceNode {
		d.problem(n, key, "want a list of hook declarations (id, on, condition, action)")
		return
	}
	for _, h := range n.Content {
		if h.Kind != yaml.MappingNode {
			d.problem(h, key, "want each hook to be a mapping with id, on, condition and action")
			return
		}
	}
	c.Hooks = n
}
