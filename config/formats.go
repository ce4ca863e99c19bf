package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// FileNames are the workspace config files, at the workspace root, in the
// order they are looked for; the first that exists is read (DESIGN.md
// "Config"). YAML is the documented form; TOML and JSON carry the same keys.
var FileNames = []string{".lsp-hook.yaml", ".lsp-hook.yml", ".lsp-hook.toml", ".lsp-hook.json"}

// WorkspaceFile returns the config file of the workspace at root that Load
// reads ("" when there is none), and the others present, which Load
// reports as ignored.
func WorkspaceFile(root string) (string, []string) {
	var found []string
	for _, n := range FileNames {
		if st, err := os.Stat(filepath.Join(root, n)); err == nil && st.Mode().IsRegular() {
			found = append(found, filepath.Join(root, n))
		}
	}
	if len(found) == 0 {
		return "", nil
	}
	return found[0], found[1:]
}

// parseDocument parses a config file's bytes by its extension into a YAML
// node tree whose nodes carry the 1-based line of the key or value in the
// file: YAML and JSON (a YAML subset) directly, TOML through its decoded
// value with lines found by scanning the text (tomlLines). An empty file is
// a nil node and no error.
func parseDocument(file string, data []byte) (*yaml.Node, error) {
	if strings.HasSuffix(file, ".toml") {
		var v map[string]any
		if _, err := toml.Decode(string(data), &v); err != nil {
			return nil, tomlError(err)
		}
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return nil, fmt.Errorf("converting TOML: %w", err)
		}
		setLines(&n, nil, tomlLines(string(data)))
		return &n, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		kind := "YAML"
		if strings.HasSuffix(file, ".json") {
			kind = "JSON"
		}
		return nil, fmt.Errorf("parsing %s: %w", kind, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// tomlError keeps the line of a TOML syntax error in the message form
// yamlErrorLine reads ("line N: …").
func tomlError(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("parsing TOML: line %d: %s", pe.Position.Line, pe.Message)
	}
	return fmt.Errorf("parsing TOML: %w", err)
}

// tomlLines maps each dotted key path of a TOML text to the 1-based line
// that defines it: table headers ([a.b], [[a]]) and `key = value` lines
// (dotted and quoted keys included). Keys inside inline tables are not
// listed; setLines gives them their table's line.
func tomlLines(text string) map[string]int {
	lines := make(map[string]int)
	prefix := ""
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "["):
			h := strings.Trim(strings.SplitN(l, "#", 2)[0], " \t[]")
			prefix = tomlKey(h)
			if _, ok := lines[prefix]; !ok {
				lines[prefix] = i + 1
			}
		default:
			k, _, ok := strings.Cut(l, "=")
			if !ok {
				continue // a continuation of a multi-line value
			}
			full := tomlKey(k)
			if prefix != "" {
				full = prefix + "." + full
			}
			if _, ok := lines[full]; !ok {
				lines[full] = i + 1
			}
		}
	}
	return lines
}

// tomlKey normalizes a TOML key as written (`a . "b c"`) to a dotted path
// of bare segments ("a.b c").
func tomlKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// setLines gives every node under n the line of the longest key path in
// lines that is a prefix of its own path.
func setLines(n *yaml.Node, path []string, lines map[string]int) {
	for i := len(path); i >= 0; i-- {
		if l, ok := lines[strings.Join(path[:i], ".")]; ok {
			n.Line = l
			break
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := append(append([]string(nil), path...), n.Content[i].Value)
			setLines(n.Content[i], p, lines)
			setLines(n.Content[i+1], p, lines)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			setLines(c, path, lines)
		}
	}
}
