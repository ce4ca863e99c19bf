package validators

import (
	"strings"
	"testing"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		path string
		kind Kind
		ok   bool
	}{
		{"/w/package.json", KindJSON, true},
		{"/w/DATA.JSON", KindJSON, true},
		{"/w/settings.jsonc", KindJSONC, true},
		{"/w/tsconfig.json", KindJSONC, true},
		{"/w/tsconfig.build.json", KindJSONC, true},
		{"/w/TSConfig.Base.json", KindJSONC, true},
		{"/w/jsconfig.json", KindJSONC, true},
		{"/w/.vscode/settings.json", KindJSONC, true},
		{"/w/.VSCode/launch.json", KindJSONC, true},
		{"/w/.vscode/sub/x.json", KindJSONC, true},
		{"/w/devcontainer.json", KindJSONC, true},
		{"/w/.devcontainer/devcontainer.json", KindJSONC, true},
		{"/w/.devcontainer.json", KindJSONC, true},
		{"/w/my.vscode/x.json", KindJSON, true},
		{"/w/config.yaml", KindYAML, true},
		{"/w/ci.YML", KindYAML, true},
		{"/w/Cargo.toml", KindTOML, true},
		{"/w/main.go", "", false},
		{"/w/json", "", false},
		{"/w/.vscode/notes.md", "", false},
	}
	for _, tc := range tests {
		kind, ok := KindOf(tc.path)
		if kind != tc.kind || ok != tc.ok {
			t.Errorf("KindOf(%q) = %q, %v; want %q, %v", tc.path, kind, ok, tc.kind, tc.ok)
		}
	}
}

func TestFor(t *testing.T) {
	for _, k := range []Kind{KindJSON, KindJSONC, KindYAML, KindTOML} {
		if For(k) == nil {
			t.Errorf("For(%q) = nil", k)
		}
	}
	if v := For("xml"); v != nil {
		t.Errorf("For(xml) = %T, want nil", v)
	}
}

func TestValidate(t *testing.T) {
	ds, ok := Validate("/w/tsconfig.json", []byte("{\n  // ok in JSONC\n  \"a\": 1,\n}\n"))
	if !ok || len(ds) != 0 {
		t.Errorf("tsconfig.json: ok=%v diagnostics:\n%s", ok, dump(ds))
	}
	ds, ok = Validate("/w/package.json", []byte("{\n  // not in JSON\n}\n"))
	if !ok || len(ds) != 1 || ds[0].Line != 2 || ds[0].Column != 3 || ds[0].Source != "json" || ds[0].Path != "/w/package.json" {
		t.Errorf("package.json: ok=%v diagnostics:\n%s", ok, dump(ds))
	}
	if ds, ok := Validate("/w/main.go", []byte("package main")); ok || ds != nil {
		t.Errorf("main.go: ok=%v ds=%v, want no validator", ok, ds)
	}
}

// TestLargeFiles: over its parse limit a YAML or TOML file is not parsed —
// a syntax error there is not found — but still gets the checks that
// stream (a tab indenting, a control character), and Unchecked says what
// was left out; at the limit it is parsed whole and Unchecked says
// nothing. JSON has no limit.
func TestLargeFiles(t *testing.T) {
	big := func(prefix, line string, size int) []byte {
		b := []byte(prefix)
		for len(b)+len(line) <= size {
			b = append(b, line...)
		}
		return b
	}
	tests := []struct {
		name      string
		v         Validator
		src       []byte
		want      []want
		unchecked string
	}{
		{name: "YAML over the limit", v: YAML{}, src: big("a: 1\n\tb: 1\n: : x\n", "c: 1\n", MaxYAMLParse+5),
			want:      []want{errAt(2, 1, "tab character used for indentation")},
			unchecked: "1.0 MiB of YAML not checked: larger than the 1 MiB YAML limit (only its encoding and indentation tabs were)"},
		{name: "YAML at the limit", v: YAML{}, src: big("a: 1\n", "#\n", MaxYAMLParse-2),
			want: []want{errAt(0, 1, "could not find expected ':'")}}, // line 0: the last (see below)
		{name: "TOML over the limit", v: TOML{}, src: big("a = = 1\n", "# padding\n", MaxTOMLParse+10),
			unchecked: "2.0 MiB of TOML not checked: larger than the 2 MiB TOML limit (only its encoding and control characters were)"},
		{name: "TOML over the limit, a control character", v: TOML{}, src: big("a = \"\x01\"\n", "# padding\n", MaxTOMLParse+10),
			want:      []want{errAt(1, 6, "control character U+0001")},
			unchecked: "2.0 MiB of TOML not checked"},
		{name: "TOML at the limit", v: TOML{}, src: big("a = = 1\n", "# padding\n", MaxTOMLParse),
			want: []want{errAt(1, 5, "expected value but found '='")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "YAML at the limit" {
				tt.src = append(tt.src, "b\n"...) // a key without ':' on the last line
				tt.want[0].line = strings.Count(string(tt.src), "\n")
			}
			ds := tt.v.Validate("/w/f", tt.src)
			if len(ds) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(ds), len(tt.want), dump(ds))
			}
			for i, w := range tt.want {
				if d := ds[i]; d.Line != w.line || d.Column != w.col || d.Severity != w.sev || !strings.Contains(d.Message, w.msg) {
					t.Errorf("diagnostic %d = %d:%d %v %q, want %d:%d %v %q", i, d.Line, d.Column, d.Severity, d.Message, w.line, w.col, w.sev, w.msg)
				}
			}
			got := tt.v.(Partial).Unchecked(tt.src)
			if tt.unchecked == "" && got != "" || !strings.Contains(got, tt.unchecked) {
				t.Errorf("Unchecked = %q, want %q", got, tt.unchecked)
			}
		})
	}
	// JSON has no limit.
	ds := JSON{}.Validate("/w/f", append(big("[", "1, ", 16<<20), "x]"...))
	if len(ds) != 1 || ds[0].Line != 1 || ds[0].Column < 16<<20 || !strings.Contains(ds[0].Message, "found 'x'") {
		t.Errorf("large JSON:\n%s", dump(ds))
	}
	if _, ok := Validator(JSON{}).(Partial); ok {
		t.Errorf("JSON says it checks large files in part")
	}
}
