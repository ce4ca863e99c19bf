package config

import "gopkg.in/yaml.v3"

// Output caps the lint block (the `output:` key; DESIGN.md "The lint
// block"). A zero field keeps the built-in cap: 20 diagnostics per file, 5
// other files, 50 lines, 10,000 characters (bytes).
type Output struct {
	MaxPerFile    int // `output.max_per_file`
	MaxOtherFiles int // `output.max_other_files`
	MaxLines      int // `output.max_lines`
	MaxChars      int // `output.max_chars`
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
