package validators

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
	"gopkg.in/yaml.v3"

	"github.com/lsp-hook/lsp-hook/diag"
)

// The fuzz targets assert that a validator never panics and that every
// diagnostic lies inside the file (checkInvariants), and compare the verdict
// with an independent parser where one exists.

func hasError(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.SeverityError {
			return true
		}
	}
	return false
}

// comparable reports whether src suits a differential check against the
// standard library: valid UTF-8 (encoding/json lets invalid bytes through
// strings; we report them), no byte order mark (we skip one, encoding/json
// rejects it), and nesting below encoding/json's depth limit.
func comparable(src []byte) bool {
	return utf8.Valid(src) && !bytes.HasPrefix(src, []byte("\ufeff")) &&
		bytes.Count(src, []byte("["))+bytes.Count(src, []byte("{")) < 10000
}

func addSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

func FuzzJSON(f *testing.F) {
	addSeeds(f, "", "{}", `{"a": [1, -2.5e+3, true, null, "x\u00e9"], "b": {"a": 1, "a": 2}}`,
		"[1,]", "{\"日本\": tru}", "\"\xff\"", "[01]", "\ufeff[]", "{\r\n\"a\":1\r\n}")
	f.Fuzz(func(t *testing.T, src []byte) {
		ds := JSON{}.Validate("/f.json", src)
		checkInvariants(t, src, ds, true)
		if comparable(src) && hasError(ds) == json.Valid(src) {
			t.Fatalf("json.Valid = %v but diagnostics:\n%s", json.Valid(src), dump(ds))
		}
	})
}

func FuzzJSONC(f *testing.F) {
	addSeeds(f, "", "// c\n{\"a\": 1, /* x */ \"b\": [1,2,],}\n", "/* 日本 */ [x]", "/* open", "{} // eof",
		"[,]", "{\"a\":1,,}", "/x", "{\"a\": 1, \"a\": 2}")
	f.Fuzz(func(t *testing.T, src []byte) {
		ds := JSONC{}.Validate("/f.jsonc", src)
		checkInvariants(t, src, ds, true)
		// hujson ends line comments only at "\n", and wants one at the end.
		if !comparable(src) || bytes.IndexByte(src, '\r') >= 0 {
			return
		}
		std, err := hujson.Standardize(append(bytes.Clone(src), '\n'))
		valid := err == nil && json.Valid(std)
		if hasError(ds) == valid {
			t.Fatalf("hujson valid = %v (%v) but diagnostics:\n%s", valid, err, dump(ds))
		}
	})
}

func FuzzYAML(f *testing.F) {
	addSeeds(f, "", "a: 1\na: 2\n", "a:\n\tb: 1\n", "a: 1\n---\nb: [\n", "s: |\n  x\n  \ty\n",
		"a: [1,\n\t2]\n", "a: \"x\n\ty\"\n", "a: &x 1\nb: *y\n", "- \t- x\n", "{a: 1, a: 2}", "a: \x07")
	f.Fuzz(func(t *testing.T, src []byte) {
		ds := YAML{}.Validate("/f.yaml", src)
		checkInvariants(t, src, ds, false) // columns are libyaml's
		// A tab reported as sure must make yaml.v3 fail too.
		src = stripBOM(src)
		if _, bad := yamlChars(src); bad {
			return
		}
		for _, tab := range yamlTabs(src) {
			if tab.sure && decodeYAML(src, func(*yaml.Node) {}) == nil {
				t.Fatalf("tab on line %d reported, but yaml.v3 accepts the file", tab.line)
			}
		}
	})
}

func FuzzTOML(f *testing.F) {
	addSeeds(f, "", "a = 1\na = 2\n", "a = \"日本\" x\n", "[t]\nx = 1\n[t]\n", "a = 1\rb = 2\n",
		"s = \"\"\"\nabc", "t = {a = 1,\nb = 2}\n", "d = 1979-05-27T07:32:00Z\n", "a = \"\\q\"\n")
	f.Fuzz(func(t *testing.T, src []byte) {
		ds := TOML{}.Validate("/f.toml", src)
		checkInvariants(t, src, ds, true)
		// What the character check rejects, the library must reject too,
		// except a UTF-16 byte order mark, which the library skips and we
		// report (TOML 1.0 files are UTF-8).
		utf16 := bytes.HasPrefix(src, []byte("\xff\xfe")) || bytes.HasPrefix(src, []byte("\xfe\xff"))
		if _, bad := tomlChars(stripBOM(src)); bad && !utf16 {
			var v map[string]any
			if _, err := toml.Decode(string(stripBOM(src)), &v); err == nil {
				t.Fatalf("character check rejects a file the library accepts:\n%s", dump(ds))
			}
		}
	})
}
