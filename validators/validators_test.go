package validators

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
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

func TestLargeFiles(t *testing.T) {
	big := func(prefix, line string) []byte {
		b := []byte(prefix)
		for len(b) <= maxParseSize {
			b = append(b, line...)
		}
		return b
	}
	// Over the limit YAML and TOML are not parsed: only an info diagnostic,
	// plus what the streaming checks find.
	ds := YAML{}.Validate("/w/f", big("a: 1\n\tb: 1\n", "c: 1\n"))
	if len(ds) != 2 || ds[0].Severity != diag.SeverityInfo || !strings.Contains(ds[0].Message, "YAML syntax not checked") ||
		ds[1].Line != 2 || ds[1].Message != "tab character used for indentation" {
		t.Errorf("large YAML:\n%s", dump(ds))
	}
	ds = TOML{}.Validate("/w/f", big("a = = 1\n", "# padding\n"))
	if len(ds) != 1 || ds[0].Severity != diag.SeverityInfo || !strings.Contains(ds[0].Message, "TOML syntax not checked") {
		t.Errorf("large TOML:\n%s", dump(ds))
	}
	ds = TOML{}.Validate("/w/f", big("a = \"\x01\"\n", "# padding\n"))
	if len(ds) != 1 || ds[0].Severity != diag.SeverityError || ds[0].Column != 6 {
		t.Errorf("large TOML with a control character:\n%s", dump(ds))
	}
	// JSON has no limit.
	ds = JSON{}.Validate("/w/f", append(big("[", "1, "), "x]"...))
	if len(ds) != 1 || ds[0].Line != 1 || ds[0].Column < maxParseSize || !strings.Contains(ds[0].Message, "found 'x'") {
		t.Errorf("large JSON:\n%s", dump(ds))
	}
}
