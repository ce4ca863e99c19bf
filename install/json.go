package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// This file edits JSON config files in place. The file is parsed with
// hujson into a syntax tree that keeps every byte (whitespace, comments,
// trailing commas, key order), values are appended or removed in that
// tree, and the tree is packed back. Nothing else in the file changes:
// the bytes outside the edited spot are the input's bytes. An append and
// the matching removal are inverses, so install followed by uninstall gives
// back the original file (see placeNew and unplaceExtra).

// ErrBadConfig is wrapped by the error for a config file that cannot be
// parsed, or whose shape is not a hooks file; such a file is never written.
var ErrBadConfig = errors.New("not a valid hooks config")

// jsonDoc is a parsed config file and the style new text follows.
type jsonDoc struct {
	path    string       // for errors
	root    hujson.Value // exact syntax tree of the file
	unit    string       // one indentation level: "  ", "    " or "\t"
	nl      string       // line ending of new lines: "\n" or "\r\n"
	oneLine bool         // the file is one line: new values stay on it
	compact bool         // one line, no blank after ':' or ',': new values get none either
}

// parseJSONDoc parses data, the content of path, as JSON with comments and
// trailing commas allowed (JWCC). A syntax error names the file, line and
// column; a top-level value that is not an object is refused too.
func parseJSONDoc(path string, data []byte) (*jsonDoc, error) {
	root, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", path, ErrBadConfig, strings.TrimPrefix(err.Error(), "hujson: "))
	}
	if _, ok := root.Value.(*hujson.Object); !ok {
		return nil, fmt.Errorf("%s: %w: the top-level value is %s, want an object", path, ErrBadConfig, jsonKind(root))
	}
	d := &jsonDoc{path: path, root: root, unit: jsonDetectIndent(data), nl: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	d.oneLine = !bytes.Contains(bytes.TrimSpace(data), []byte("\n"))
	d.compact = d.oneLine && len(root.Value.(*hujson.Object).Members) > 0 &&
		!bytes.Contains(data, []byte(": ")) && !bytes.Contains(data, []byte(", "))
	return d, nil
}

// newJSONDoc is the document of a file that does not exist yet: skeleton,
// two-space indented, ending in a newline.
func newJSONDoc(path string, skeleton []Field) *jsonDoc {
	b, err := json.MarshalIndent(jsonFields(skeleton), "", "  ")
	if err != nil {
		panic(err) // skeletons are string, bool and int values
	}
	root, err := hujson.Parse(b)
	if err != nil {
		panic(err)
	}
	root.AfterExtra = hujson.Extra("\n")
	return &jsonDoc{path: path, root: root, unit: "  ", nl: "\n"}
}

// bytes packs the document.
func (d *jsonDoc) bytes() []byte { return d.root.Pack() }

// jsonDetectIndent returns the indentation unit of data: a tab when an
// indented line starts with one, else the smallest run of leading spaces
// (at most 8), else two spaces.
func jsonDetectIndent(data []byte) string {
	best := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		n := len(line) - len(bytes.TrimLeft(line, " \t"))
		if n == 0 || n == len(bytes.TrimRight(line, "\r")) {
			continue // not indented, or blank
		}
		if line[0] == '\t' {
			return "\t"
		}
		if best == 0 || n < best {
			best = n
		}
	}
	if best == 0 || best > 8 {
		return "  "
	}
	return strings.Repeat(" ", best)
}

// jsonFields is an object whose members marshal in order.
type jsonFields []Field

// MarshalJSON writes the members in order.
func (f jsonFields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// jsonKind names v's JSON kind for messages.
func jsonKind(v hujson.Value) string {
	switch v.Value.Kind() {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 'n':
		return "null"
	}
	return "a boolean"
}

// jsonMember returns the index of the last member of obj named key (the one
// JSON decoders keep), or -1.
func jsonMember(obj *hujson.Object, key string) int {
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			return i
		}
	}
	return -1
}

// topObject returns the top-level member key's object and the
// indentation of its line, nil when there is none. A key whose value is
// not an object is an error (ErrBadConfig).
func (d *jsonDoc) topObject(key string) (*hujson.Object, string, error) {
	root := d.root.Value.(*hujson.Object)
	i := jsonMember(root, key)
	if i < 0 {
		return nil, "", nil
	}
	m := root.Members[i]
	obj, ok := m.Value.Value.(*hujson.Object)
	if !ok {
		return nil, "", fmt.Errorf("%s: %w: %q is %s, want an object", d.path, ErrBadConfig, key, jsonKind(m.Value))
	}
	ind, _ := extraLineIndent(m.Name.BeforeExtra)
	return obj, ind, nil
}

// jsonString returns the string value of obj's member key, if it is one.
func jsonString(obj *hujson.Object, key string) (string, bool) {
	i := jsonMember(obj, key)
	if i < 0 {
		return "", false
	}
	lit, ok := obj.Members[i].Value.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", false
	}
	return lit.String(), true
}

// jsonDecode returns v as plain Go values (map[string]any, []any, string,
// float64, bool, nil), comments dropped.
func jsonDecode(v hujson.Value) any {
	c := v.Clone()
	c.Standardize()
	var out any
	if err := json.Unmarshal(c.Pack(), &out); err != nil {
		panic(fmt.Sprintf("decoding a parsed value: %v", err)) // Standardize made it JSON
	}
	return out
}

// jsonSame reports whether v holds the same JSON value as want.
func jsonSame(v hujson.Value, want any) bool {
	b, err := json.Marshal(want)
	if err != nil {
		return false
	}
	var w any
	if json.Unmarshal(b, &w) != nil {
		return false
	}
	return reflect.DeepEqual(jsonDecode(v), w)
}

// sameJSONIgnoringEmpty reports whether two documents hold the same JSON once
// empty objects and arrays are dropped from both.
func sameJSONIgnoringEmpty(a, b *jsonDoc) bool {
	return reflect.DeepEqual(jsonPruneEmpty(jsonDecode(a.root)), jsonPruneEmpty(jsonDecode(b.root)))
}

// jsonPruneEmpty drops empty objects and arrays from a decoded value,
// recursively, so that "hooks": {} and no "hooks" compare equal.
func jsonPruneEmpty(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			e = jsonPruneEmpty(e)
			if jsonIsEmpty(e) {
				delete(x, k)
			} else {
				x[k] = e
			}
		}
	case []any:
		out := x[:0]
		for _, e := range x {
			if e = jsonPruneEmpty(e); !jsonIsEmpty(e) {
				out = append(out, e)
			}
		}
		return out
	}
	return v
}

// jsonIsEmpty reports an empty object or array.
func jsonIsEmpty(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}
