package validators

import (
	"errors"
	"fmt"
	"io"
	"bytes"
	"testing"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

func dumpYAML(s string) {
	d := yaml.NewDecoder(bytes.NewReader([]byte(s)))
	for {
		var n yaml.Node
		err := d.Decode(&n)
		if err == io.EOF { fmt.Printf("%q: EOF\n", s); return }
		if err != nil { fmt.Printf("%q: ERR %v\n", s, err); return }
		if len(n.Content) > 0 && n.Content[0].Kind == yaml.MappingNode {
			c := n.Content[0].Content
			for i := 0; i+1 < len(c); i += 2 { fmt.Printf("   key %q tag %s at %d:%d\n", c[i].Value, c[i].ShortTag(), c[i].Line, c[i].Column) }
		}
	}
}

func TestScratch(t *testing.T) {
	for _, s := range []string{
		"a: 1\na: 2\n",
		"a: 1\n'a': 2\n1: x\n'1': y\n",
		"日本語: 1\n  b: 2\n",
		"a:\n\tb: 1\n",
		"a: 1\n\t# c\nb: 2\n",
		"key: word\n\tmore\n",
		"key: [a,\n\tb]\n",
		"key: \"a\n\tb\"\n",
		"key: |\n  a\n\tb\n",
		"key: |\n  a\n  \tb\n",
		"- a\n-\tb\n",
		"a: 1\n---\nb: [\n",
		"a: 1\n---\nb: 1\nc: d: e\n",
		"a: \x07\n",
		"a: \xff\n",
		"a:\n  b: 1\n c: 2\n",
		"a: 'x\n",
		"\t\n a: 1\n",
		"a: 1\n\t\nb: 2\n",
		"a: &x 1\nb: *y\n",
		"a: 1\r\nb: c: d\r\n",
		"x:\n\t- 1\n",
		"- \t- x\n",
		"a:\n  - b\n\t- c\n",
		"{a: 1, a: 2}\n",
	} {
		dumpYAML(s)
	}
	for _, s := range []string{"a = 1\na = 2\n", "a = \"日本\" x\n", "a = 1\r\nb = = 2\n", "[t]\nx=1\n[t]\n", "a = \"\xff\"\n", "a = 1\n\nb = ", "日本 = 1\n"} {
		var m map[string]any
		_, err := toml.Decode(s, &m)
		var pe toml.ParseError
		if errors.As(err, &pe) { fmt.Printf("%q: %q pos %+v\n", s, pe.Message, pe.Position) } else { fmt.Printf("%q: %v\n", s, err) }
	}
}

func TestScratchTOML(t *testing.T) {
	for _, s := range []string{"a = \"日本\" x\n", "日本 = 1\n", "a = 1\nb = \"日本\" = 3\n", "\ufeffa = 1\n", "a = 1\n[b\n", "x = [1,\n2,,]\n", "a = \"\\q\"\n", "a = 1979-05-27T07:32:00Zx\n", "a=\"\"\"\nfoo", "a = 'x\n", "a = 1\rb=2\n", "a.b = 1\na = 2\n", "[[a]]\n[a]\n"} {
		var m map[string]any
		_, err := toml.Decode(s, &m)
		var pe toml.ParseError
		if errors.As(err, &pe) { fmt.Printf("%q: %q line %d col %d start %d len %d\n", s, pe.Message, pe.Position.Line, pe.Position.Col, pe.Position.Start, pe.Position.Len) } else { fmt.Printf("%q: %v\n", s, err) }
	}
}
