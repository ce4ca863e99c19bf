package hooks

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lsp-hook/lsp-hook/wire"
)

// The declaration decoder walks the yaml.Node tree itself, rather than
// yaml.Unmarshal into a struct, so that every problem carries the line of
// the key or value at fault and unknown keys are reported, not ignored.

// decodeOne decodes the i-th (0-based) declaration n.
func decodeOne(n *yaml.Node, i int, file string) (Declaration, []error) {
	d := Declaration{File: file, Line: n.Line}
	p := &problems{file: file, hook: fmt.Sprintf("hook #%d", i+1)}
	if n.Kind != yaml.MappingNode {
		p.add(n, "", "want a mapping with id, on, condition and action")
		return d, p.errs
	}
	fields := fieldsOf(n)
	if id, ok := fields["id"]; ok && id.Kind == yaml.ScalarNode && strings.TrimSpace(id.Value) != "" {
		d.ID = id.Value
		p.hook = d.String()
	}
	p.unknown(n, "", "id", "on", "condition", "action")
	switch id := fields["id"]; {
	case id == nil:
		p.add(n, "id", "missing")
	case d.ID == "":
		p.add(id, "id", "want a non-empty string")
	}
	d.On = p.phases(n, fields["on"])
	d.Condition, d.tools, d.paths = p.condition(fields["condition"])
	d.Action = p.action(n, fields["action"])
	return d, p.errs
}

// problems collects one declaration's errors.
type problems struct {
	file, hook string
	errs       []error
}

func (p *problems) add(n *yaml.Node, key, format string, args ...any) {
	p.errs = append(p.errs, &DeclarationError{File: p.file, Line: n.Line, Hook: p.hook, Key: key, Message: fmt.Sprintf(format, args...)})
}

// unknown reports the keys of mapping n (at prefix) not among known.
func (p *problems) unknown(n *yaml.Node, prefix string, known ...string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !slices.Contains(known, k.Value) {
			p.add(k, join(prefix, k.Value), "unknown key (known: %s)", strings.Join(known, ", "))
		}
	}
}

// fieldsOf maps each key of mapping n to its value node.
func fieldsOf(n *yaml.Node) map[string]*yaml.Node {
	m := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		m[n.Content[i].Value] = n.Content[i+1]
	}
	return m
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// phases decodes `on:` (of declaration decl): a phase or a list of phases.
func (p *problems) phases(decl, n *yaml.Node) []Phase {
	if n == nil {
		p.add(decl, "on", "missing (tool_end or tool_start)")
		return nil
	}
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
		if len(items) == 0 {
			p.add(n, "on", "empty list (want tool_end, tool_start or both)")
		}
	}
	var out []Phase
	for _, it := range items {
		switch ph := Phase(it.Value); {
		case it.Kind != yaml.ScalarNode:
			p.add(it, "on", "want tool_end, tool_start or a list of them")
		case ph == PhaseToolEnd || ph == PhaseToolStart:
			if !slices.Contains(out, ph) {
				out = append(out, ph)
			}
		default:
			p.add(it, "on", "unknown phase %q (want tool_end or tool_start)", it.Value)
		}
	}
	return out
}

// condition decodes `condition:` (nil: none) and compiles its globs.
func (p *problems) condition(n *yaml.Node) (Condition, toolGlobs, pathGlobs) {
	var c Condition
	if n == nil {
		return c, nil, nil
	}
	if n.Kind != yaml.MappingNode {
		p.add(n, "condition", "want a mapping {type: tool_name|path, match: GLOBS}")
		return c, nil, nil
	}
	p.unknown(n, "condition", "type", "match")
	f := fieldsOf(n)
	c.Type = p.str(n, f, "condition", "type", true)
	c.Match = p.str(n, f, "condition", "match", true)
	switch c.Type {
	case ConditionToolName, ConditionPath, "":
	default:
		p.add(f["type"], "condition.type", "unknown condition type %q (want %s or %s)", c.Type, ConditionToolName, ConditionPath)
		return c, nil, nil
	}
	if c.Match == "" {
		return c, nil, nil
	}
	switch c.Type {
	case ConditionToolName:
		g, err := compileToolGlobs(c.Match)
		if err != nil {
			p.add(f["match"], "condition.match", "%v", err)
		}
		return c, g, nil
	case ConditionPath:
		g, err := compilePathGlobs(c.Match)
		if err != nil {
			p.add(f["match"], "condition.match", "%v", err)
		}
		return c, nil, g
	}
	return c, nil, nil
}

// action decodes `action:` of declaration decl.
func (p *problems) action(decl, n *yaml.Node) Action {
	a := Action{Mode: wire.ModeWrite}
	if n == nil {
		p.add(decl, "action", "missing (want {type: lsp_diagnose, path_field: …})")
		return a
	}
	if n.Kind != yaml.MappingNode {
		p.add(n, "action", "want a mapping {type: lsp_diagnose, path_field: …}")
		return a
	}
	p.unknown(n, "action", "type", "path_field", "content_field", "read_from_disk", "inject_result", "publish", "mode")
	f := fieldsOf(n)
	a.Type = p.str(n, f, "action", "type", true)
	if a.Type != "" && a.Type != ActionLSPDiagnose {
		p.add(f["type"], "action.type", "unknown action type %q (want %s)", a.Type, ActionLSPDiagnose)
	}
	a.PathField = p.str(n, f, "action", "path_field", true)
	a.ContentField = p.str(n, f, "action", "content_field", false)
	a.ReadFromDisk = a.ContentField == ""
	p.boolean(f, "read_from_disk", &a.ReadFromDisk)
	p.boolean(f, "inject_result", &a.InjectResult)
	p.boolean(f, "publish", &a.Publish)
	if v := f["read_from_disk"]; v != nil && !a.ReadFromDisk && a.ContentField == "" {
		p.add(v, "action.read_from_disk", "false needs content_field (the gjson path of the new text)")
	}
	if !a.InjectResult && !a.Publish {
		p.add(n, "action", "does nothing: set inject_result: true or publish: true")
	}
	if m := f["mode"]; m != nil {
		switch a.Mode = m.Value; a.Mode {
		case wire.ModeWrite, wire.ModeEdit:
		default:
			p.add(m, "action.mode", "unknown mode %q (want %s or %s)", m.Value, wire.ModeWrite, wire.ModeEdit)
		}
	}
	return a
}

// str returns the string at key of mapping parent (fields f), noting a
// missing required one or a value that is not a non-empty string.
func (p *problems) str(parent *yaml.Node, f map[string]*yaml.Node, prefix, key string, required bool) string {
	v := f[key]
	switch {
	case v == nil:
		if required {
			p.add(parent, join(prefix, key), "missing")
		}
		return ""
	case v.Kind != yaml.ScalarNode || v.Tag != "!!str" && v.Tag != "" || strings.TrimSpace(v.Value) == "":
		p.add(v, join(prefix, key), "want a non-empty string")
		return ""
	}
	return v.Value
}

// boolean decodes the true/false at key of the action's fields f into b.
func (p *problems) boolean(f map[string]*yaml.Node, key string, b *bool) {
	v := f[key]
	if v == nil {
		return
	}
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		p.add(v, "action."+key, "want true or false, got %q", v.Value)
		return
	}
	*b = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
}
