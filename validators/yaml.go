package validators

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
)

// YAML validates a YAML 1.2 stream (https://yaml.org/spec/1.2.2/), every
// document of it, with gopkg.in/yaml.v3. Diagnostics have Source "yaml" and
// severity error:
//
//   - the first syntax error, at the line yaml.v3 names ("yaml: line 3:
//     mapping values are not allowed in this context") and column 1, since
//     yaml.v3 gives no column; an error that names no line is on line 1,
//     except "unknown anchor" which is placed at the alias;
//   - every duplicate mapping key (YAML 1.2 section 3.2.1.1: keys are unique)
//     in the documents before the first syntax error, at the second key's
//     line and code-point column, as `duplicate key "x" (first at 3:1)`.
//     yaml.v3 does not check this when decoding into yaml.Node, so the node
//     trees are walked; scalar keys are compared by resolved tag and value
//     ("1" and 1 differ), merge keys (<<) and non-scalar keys are skipped;
//   - tabs in indentation (section 6.1: only spaces indent), at the tab, as
//     "tab character used for indentation": on every line where the tab is
//     certainly indentation, and the tab that explains yaml.v3's syntax
//     error, which it then replaces (yaml.v3 names only a line, and for tabs
//     often the line before). See yamlTabs;
//   - invalid UTF-8 or a character outside the printable set (section 5.1),
//     at that character, instead of parsing.
//
// A file over MaxYAMLParse (1 MiB) is not parsed, only checked for encoding
// and tabs; Unchecked says so: yaml.v3's node trees take up to some 95
// times the input in memory.
//
// Lines and columns of yaml.v3 are libyaml's, which also ends lines at U+0085,
// U+2028 and U+2029; lines are clamped to the file.
type YAML struct{}

var (
	_ Validator = (*YAML)(nil)
	_ Partial   = (*YAML)(nil)
)

// Unchecked implements Partial: a file over MaxYAMLParse is checked only
// for its encoding and indentation tabs.
func (YAML) Unchecked(src []byte) string {
	return unchecked("YAML", src, MaxYAMLParse, "its encoding and indentation tabs were")
}

// Validate implements Validator for YAML 1.2.
func (YAML) Validate(path string, src []byte) []diag.Diagnostic {
	src = stripBOM(src)
	if f, bad := yamlChars(src); bad {
		return diagnostics(path, "yaml", src, []finding{f})
	}
	dups := yamlDups{path: path}
	var fs []finding
	var err error
	if len(src) <= MaxYAMLParse {
		err = decodeYAML(src, dups.walk)
	}
	errLine, tabErr := 0, false
	if err != nil {
		f := yamlErrorFinding(src, err)
		errLine, tabErr = positionOf(src, f.off).line, strings.Contains(f.msg, "tab character")
		fs = append(fs, f)
	}
	tabs, replaced := yamlTabFindings(yamlTabs(src), errLine, tabErr)
	if replaced {
		fs = fs[:0] // a tab finding says the same, more precisely
	}
	fs = append(fs, tabs...)
	ds := append(dups.ds, diagnostics(path, "yaml", src, fs)...)
	lines := lineCount(src)
	for i := range ds {
		ds[i].Line = min(ds[i].Line, lines)
	}
	slices.SortStableFunc(ds, diag.Compare)
	return ds
}

// decodeYAML decodes every document of src into a node tree and hands it to
// visit; it returns the first syntax error, or nil.
func decodeYAML(src []byte, visit func(*yaml.Node)) (err error) {
	defer func() {
		if r := recover(); r != nil { // yaml.v3 panics on a few inputs; never take the caller down
			err = fmt.Errorf("yaml: yaml parser failed: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		visit(&doc)
	}
}

// yamlLineRE matches a yaml.v3 error that names its line.
var yamlLineRE = lazyre.New(`^yaml: line (\d+): `)

// yamlUnknownAnchorRE matches the one yaml.v3 error whose place can be found
// from its text.
var yamlUnknownAnchorRE = lazyre.New(`^yaml: unknown anchor '(.*)' referenced$`)

// yamlErrorFinding places a yaml.v3 error: at the start of the line it names,
// else at the alias of an unknown anchor, else at the start of the file
// (yaml.v3 leaves the line out when it is the first).
func yamlErrorFinding(src []byte, err error) finding {
	off := 0
	if m := yamlLineRE().FindStringSubmatch(err.Error()); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			off = lineOffset(src, n)
		}
	} else if m := yamlUnknownAnchorRE().FindStringSubmatch(err.Error()); m != nil {
		off = max(aliasOffset(src, m[1]), 0)
	}
	return finding{off: off, end: -1, ref: -1, severity: diag.SeverityError, msg: yamlMessage(err)}
}

// yamlMessage strips yaml.v3's "yaml: " and "line N: " prefixes.
func yamlMessage(err error) string {
	m := err.Error()
	if loc := yamlLineRE().FindStringIndex(m); loc != nil {
		return m[loc[1]:]
	}
	return strings.TrimPrefix(m, "yaml: ")
}

// aliasOffset returns the offset of the first alias "*name" in src, or -1.
func aliasOffset(src []byte, name string) int {
	pat := []byte("*" + name)
	for from := 0; ; {
		k := bytes.Index(src[from:], pat)
		if k < 0 {
			return -1
		}
		at, end := from+k, from+k+len(pat)
		before := at == 0 || bytes.IndexByte([]byte(" \t\r\n[{,:-?"), src[at-1]) >= 0
		after := end == len(src) || bytes.IndexByte([]byte(" \t\r\n]},"), src[end]) >= 0
		if before && after {
			return at
		}
		from = at + 1
	}
}

// yamlChars finds the first character YAML 1.2 section 5.1 forbids in a
// stream: invalid UTF-8, or one outside the printable set (C0 controls but
// tab, CR and LF; DEL; C1 controls but NEL; U+FFFE and U+FFFF).
func yamlChars(src []byte) (finding, bool) {
	for i := 0; i < len(src); {
		c := src[i]
		if c >= 0x20 && c < 0x7F || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		r, w := utf8.DecodeRune(src[i:])
		var msg string
		switch {
		case r == utf8.RuneError && w == 1:
			msg = fmt.Sprintf("invalid UTF-8 byte 0x%02x (YAML files must be UTF-8)", c)
		case r < 0xA0 && r != 0x85, r == 0xFFFE, r == 0xFFFF:
			msg = fmt.Sprintf("control character %U is not allowed in YAML", r)
		default:
			i += w
			continue
		}
		return finding{off: i, end: i + w, ref: -1, severity: diag.SeverityError, msg: msg}, true
	}
	return finding{}, false
}

// yamlDups collects the duplicate scalar keys in the mappings of the
// documents of one stream.
type yamlDups struct {
	path string
	ds   []diag.Diagnostic // the first maxRepeated duplicates, then a summary
	n    int               // duplicates seen
}

// walk checks every mapping in the tree at n. Aliases are not followed.
func (c *yamlDups) walk(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		seen := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				continue
			}
			id := k.ShortTag() + "\x00" + k.Value
			if first, dup := seen[id]; dup {
				c.add(k, first)
			} else {
				seen[id] = k
			}
		}
	}
	for _, child := range n.Content {
		c.walk(child)
	}
}

// add reports key k, a duplicate of first.
func (c *yamlDups) add(k, first *yaml.Node) {
	c.n++
	switch {
	case c.n <= maxRepeated:
		c.ds = append(c.ds, diag.Diagnostic{Path: c.path, Line: max(k.Line, 1), Column: max(k.Column, 1),
			Severity: diag.SeverityError, Source: "yaml",
			Message: fmt.Sprintf("duplicate key %s (first at %d:%d)", keyLabel(k.Value), first.Line, first.Column)})
	case c.n == maxRepeated+1: // the summary, placed at the first one left out
		c.ds = append(c.ds, diag.Diagnostic{Path: c.path, Line: max(k.Line, 1), Column: max(k.Column, 1),
			Severity: diag.SeverityError, Source: "yaml"})
		fallthrough
	default:
		c.ds[maxRepeated].Message = fmt.Sprintf("%d more duplicate key(s) not reported", c.n-maxRepeated)
	}
}
