package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"

	"gopkg.in/yaml.v3"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/wire"
)

const goodDecls = `hooks:
  - id: auto_lint
    "on": tool_end
    condition: {type: tool_name, match: "filesystem.write|workspace.*"}
    action: {type: lsp_diagnose, path_field: tool.params.path, content_field: tool.params.content,
             publish: true, inject_result: true, read_from_disk: false}
  - id: go_files
    "on": [tool_end, tool_start]
    condition: {type: path, match: "**/*.go|/abs/**"}
    action: {type: lsp_diagnose, path_field: path, inject_result: true, mode: edit}
  - id: everything
    "on": tool_end
    action: {type: lsp_diagnose, path_field: file, publish: true}
`

func TestParseDeclarations(t *testing.T) {
	ds, err := ParseDeclarations([]byte(goodDecls), "h.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 3 {
		t.Fatalf("got %d declarations, want 3", len(ds))
	}
	a := ds[0]
	if a.ID != "auto_lint" || a.File != "h.yaml" || a.Line != 2 || len(a.On) != 1 || a.On[0] != PhaseToolEnd ||
		a.Condition != (Condition{Type: ConditionToolName, Match: "filesystem.write|workspace.*"}) ||
		a.Action != (Action{Type: ActionLSPDiagnose, PathField: "tool.params.path", ContentField: "tool.params.content",
			Publish: true, InjectResult: true, ReadFromDisk: false, Mode: wire.ModeWrite}) {
		t.Errorf("first declaration = %+v", a)
	}
	if !a.tools.match("filesystem.write") || !a.tools.match("workspace.edit/x") || a.tools.match("filesystem.read") {
		t.Errorf("tool globs of %s match the wrong names", a.ID)
	}
	g := ds[1]
	if len(g.On) != 2 || !g.Action.ReadFromDisk || g.Action.Mode != wire.ModeEdit || g.Action.Publish {
		t.Errorf("second declaration = %+v", g)
	}
	if !g.paths.match("cmd/main.go", "/r/cmd/main.go") || !g.paths.match("", "/abs/x/y.txt") || g.paths.match("a.txt", "/r/a.txt") {
		t.Errorf("path globs of %s match the wrong paths", g.ID)
	}
	if e := ds[2]; e.Condition.Type != "" || !e.fires(PhaseToolEnd) || e.fires(PhaseToolStart) || !e.fires("") {
		t.Errorf("third declaration = %+v", e)
	}

	// The agent runtime's app config, as it is: runtime.hooks, beside
	// the runtime's other keys; lines are the file's.
	app := "app: {name: seed}\nruntime:\n  model: x\n" + strings.ReplaceAll(goodDecls, "\n", "\n  ")
	app = strings.Replace(app, "  model: x\nhooks:", "  model: x\n  hooks:", 1)
	ds3, err := ParseDeclarations([]byte(app), "app.yaml")
	if err != nil || len(ds3) != 3 || ds3[0].Line != 5 || ds3[0].File != "app.yaml" {
		t.Errorf("runtime.hooks: %d declarations (first on line %d), %v\n%s", len(ds3), lineOf(ds3), err, app)
	}

	// A bare list is the same.
	bare := strings.ReplaceAll(strings.TrimPrefix(goodDecls, "hooks:\n"), "\n  ", "\n")
	bare = strings.TrimPrefix(bare, "  ")
	ds2, err := ParseDeclarations([]byte(bare), "")
	if err != nil || len(ds2) != 3 || ds2[0].Line != 1 {
		t.Errorf("bare list: %d declarations, %v", len(ds2), err)
	}
}

// TestDeclarationErrors checks each validation: the error names the hook
// (by id, else by position), the file and line, and the key at fault.
func TestDeclarationErrors(t *testing.T) {
	action := `action: {type: lsp_diagnose, path_field: p, inject_result: true}`
	for _, tc := range []struct {
		name, yaml string
		want       []string // substrings of the one error line
	}{
		{"unknown action type", "- id: a\n  on: tool_end\n  action: {type: lsp_format, path_field: p, inject_result: true}\n",
			[]string{`f.yaml:3: hook "a": action.type: unknown action type "lsp_format"`}},
		{"unknown condition type", "- id: b\n  on: tool_end\n  condition: {type: regex, match: x}\n  " + action + "\n",
			[]string{`f.yaml:3: hook "b": condition.type: unknown condition type "regex"`}},
		{"bad tool glob", "- id: c\n  on: tool_end\n  condition: {type: tool_name, match: \"write|[ab\"}\n  " + action + "\n",
			[]string{`f.yaml:3: hook "c": condition.match: bad glob "[ab": unclosed [`}},
		{"bad tool range", "- id: c2\n  on: tool_end\n  condition: {type: tool_name, match: \"[z-a]\"}\n  " + action + "\n",
			[]string{`hook "c2": condition.match: bad glob "[z-a]"`}},
		{"bad path glob", "- id: d\n  on: tool_end\n  condition: {type: path, match: \"src/[a.go\"}\n  " + action + "\n",
			[]string{`f.yaml:3: hook "d": condition.match: bad glob "src/[a.go"`}},
		{"empty alternative", "- id: e\n  on: tool_end\n  condition: {type: tool_name, match: \"a||b\"}\n  " + action + "\n",
			[]string{`hook "e": condition.match: empty alternative`}},
		{"missing path field", "- id: f\n  on: tool_end\n  action: {type: lsp_diagnose, inject_result: true}\n",
			[]string{`f.yaml:3: hook "f": action.path_field: missing`}},
		{"empty path field", "- id: f2\n  on: tool_end\n  action: {type: lsp_diagnose, path_field: \"\", inject_result: true}\n",
			[]string{`hook "f2": action.path_field: want a non-empty string`}},
		{"not from disk without content", "- id: g\n  on: tool_end\n  action: {type: lsp_diagnose, path_field: p, read_from_disk: false, inject_result: true}\n",
			[]string{`hook "g": action.read_from_disk: false needs content_field`}},
		{"does nothing", "- id: h\n  on: tool_end\n  action: {type: lsp_diagnose, path_field: p}\n",
			[]string{`f.yaml:3: hook "h": action: does nothing`}},
		{"duplicate id", "- id: i\n  on: tool_end\n  " + action + "\n- id: i\n  on: tool_start\n  " + action + "\n",
			[]string{`f.yaml:4: hook "i": id: duplicate id (first declared on line 1)`}},
		{"missing id", "- on: tool_end\n  " + action + "\n", []string{`f.yaml:1: hook #1: id: missing`}},
		{"unknown phase", "- id: j\n  on: tool_finish\n  " + action + "\n", []string{`f.yaml:2: hook "j": on: unknown phase "tool_finish"`}},
		{"missing on", "- id: k\n  " + action + "\n", []string{`f.yaml:1: hook "k": on: missing`}},
		{"unknown key", "- id: l\n  on: tool_end\n  when: always\n  " + action + "\n", []string{`f.yaml:3: hook "l": when: unknown key`}},
		{"unknown action key", "- id: m\n  on: tool_end\n  action: {type: lsp_diagnose, path_field: p, inject: true, publish: true}\n",
			[]string{`hook "m": action.inject: unknown key`}},
		{"bool as string", "- id: n\n  on: tool_end\n  action: {type: lsp_diagnose, path_field: p, inject_result: \"yes\", publish: true}\n",
			[]string{`hook "n": action.inject_result: want true or false`}},
		{"missing action", "- id: o\n  on: tool_end\n", []string{`f.yaml:1: hook "o": action: missing`}},
		{"bad mode", "- id: p\n  on: tool_end\n  action: {type: lsp_diagnose, path_field: p, inject_result: true, mode: save}\n",
			[]string{`hook "p": action.mode: unknown mode "save"`}},
		{"not a mapping", "- just a string\n", []string{`f.yaml:1: hook #1: want a mapping`}},
		{"second hook at fault", "- id: q1\n  on: tool_end\n  " + action + "\n- id: q2\n  on: tool_end\n  condition: {type: tool_name}\n  " + action + "\n",
			[]string{`f.yaml:6: hook "q2": condition.match: missing`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDeclarations([]byte(tc.yaml), "f.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			var de *DeclarationError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DeclarationError", err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != 1 {
				t.Errorf("want one error, got:\n%v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// lineOf is the line of ds's first declaration, 0 when there is none.
func lineOf(ds []Declaration) int {
	if len(ds) == 0 {
		return 0
	}
	return ds[0].Line
}

func TestParseDeclarationsNone(t *testing.T) {
	for _, in := range []string{"", "hooks: []\n", "lsp: false\n", "runtime: {model: x}\n", "runtime: [hooks]\n", "runtime:\n  hooks: []\n"} {
		if _, err := ParseDeclarations([]byte(in), "x.yaml"); !errors.Is(err, ErrNoDeclarations) {
			t.Errorf("%q: err = %v, want ErrNoDeclarations", in, err)
		}
	}
	if _, err := ParseDeclarations([]byte("hooks: {a: 1}\n"), "x.yaml"); err == nil || !strings.Contains(err.Error(), "x.yaml:1: hooks: want a list") {
		t.Errorf("hooks mapping: err = %v", err)
	}
}

// TestWorkspaceDeclarations reads the `hooks:` of a workspace config and
// names the config file in errors.
func TestWorkspaceDeclarations(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	root := testdir.New(t)
	file := filepath.Join(root, config.FileName)
	if _, err := WorkspaceDeclarations(root); !errors.Is(err, ErrNoDeclarations) {
		t.Errorf("no config: err = %v, want ErrNoDeclarations", err)
	}
	if err := os.WriteFile(file, []byte("severity: error\n"+goodDecls), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := WorkspaceDeclarations(root)
	if err != nil || len(ds) != 3 || ds[0].File != file || ds[0].Line != 3 {
		t.Fatalf("got %d declarations (%+v), %v", len(ds), ds, err)
	}
	bad := "lsp: false\nhooks:\n  - id: x\n    on: tool_end\n    action: {type: nope, path_field: p, publish: true}\n"
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WorkspaceDeclarations(root); err == nil || !strings.Contains(err.Error(), file+`:5: hook "x": action.type`) {
		t.Errorf("bad config: err = %v", err)
	}
	if err := os.WriteFile(file, []byte("hooks: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WorkspaceDeclarations(root); err == nil || !strings.Contains(err.Error(), file+":1: hooks:") {
		t.Errorf("hooks: 3: err = %v", err)
	}
}

func TestFnmatch(t *testing.T) {
	for _, tc := range []struct {
		glob, name string
		want       bool
	}{
		{"Write", "Write", true},
		{"Write", "write", false},
		{"Write", "WriteFile", false},
		{"*", "a/b.c", true},
		{"mcp__*__write", "mcp__fs__write", true},
		{"file?.write", "files.write", true},
		{"file?.write", "file.write", false},
		{"[ab]x", "bx", true},
		{"[!ab]x", "bx", false},
		{"[^ab]x", "cx", true},
		{"[]]x", "]x", true},
		{"[a-c]", "b", true},
		{"[a-]", "-", true},
		{`a\*`, "a*", true},
		{`a\*`, "ab", false},
		{"a.b", "axb", false},
		{"(x)+", "(x)+", true},
	} {
		re, err := fnmatchRegexp(tc.glob)
		if err != nil {
			t.Errorf("%q: %v", tc.glob, err)
			continue
		}
		if got := re.MatchString(tc.name); got != tc.want {
			t.Errorf("fnmatch(%q, %q) = %v, want %v", tc.glob, tc.name, got, tc.want)
		}
	}
	for _, bad := range []string{"[ab", `a\`, "[z-a]", "[]"} {
		if _, err := fnmatchRegexp(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestEventPaths(t *testing.T) {
	for _, tc := range []struct{ p, rel, abs string }{
		{"src/a.go", "src/a.go", "/r/src/a.go"},
		{"/r/src/../b.go", "b.go", "/r/b.go"},
		{"/other/c.go", "", "/other/c.go"},
		{"/r", ".", "/r"},
		{"/rr/x", "", "/rr/x"},
	} {
		p, want := testdir.Abs(tc.p), filepath.ToSlash(testdir.Abs(tc.abs))
		if rel, abs := eventPaths(testdir.Abs("/r"), p); rel != tc.rel || abs != want {
			t.Errorf("eventPaths(%q) = %q, %q; want %q, %q", p, rel, abs, tc.rel, want)
		}
	}
}

// TestWindowsPathGlobs: on Windows an agent's `C:\...` path is absolute
// (not joined to the root), is inside the root whatever the case of its
// drive letter and directories, and matches relative globs and absolute
// globs with a drive letter.
func TestWindowsPathGlobs(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("Windows paths")
	}
	for _, tc := range []struct{ root, p, rel, abs string }{
		{`C:\r`, `C:\r\src\a.go`, "src/a.go", "C:/r/src/a.go"},
		{`C:\r`, `c:\R\src\a.go`, "src/a.go", "C:/R/src/a.go"},
		{`c:\r`, `C:/r/src/a.go`, "src/a.go", "C:/r/src/a.go"},
		{`C:\r`, `D:\r\a.go`, "", "D:/r/a.go"},
		{`C:\r`, `C:\rr\a.go`, "", "C:/rr/a.go"},
	} {
		if rel, abs := eventPaths(tc.root, tc.p); rel != tc.rel || abs != tc.abs {
			t.Errorf("eventPaths(%q, %q) = %q, %q; want %q, %q", tc.root, tc.p, rel, abs, tc.rel, tc.abs)
		}
	}
	for _, tc := range []struct {
		match, p string
		want     bool
	}{
		{"src/**/*.go", `C:\r\src\x\a.go`, true},
		{"src/**/*.go", `c:\r\src\a.go`, true},
		{"C:/r/src/**", `c:\r\src\a.go`, true},
		{"c:/r/src/**", `C:\r\src\a.go`, true},
		{"C:/r/src/**", `D:\r\src\a.go`, false},
		{"/r/src/**", `C:\r\src\a.go`, false},
	} {
		g, err := compilePathGlobs(tc.match)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.match(eventPaths(`C:\r`, tc.p)); got != tc.want {
			t.Errorf("%q matches %q: %v, want %v", tc.match, tc.p, got, tc.want)
		}
	}
}

// FuzzParseDeclarations: any input decodes to declarations or an error,
// never a panic; every error line names a hook or the list.
func FuzzParseDeclarations(f *testing.F) {
	f.Add([]byte(goodDecls))
	f.Add([]byte("- id: a\n  on: [tool_end]\n  condition: {type: tool_name, match: \"[!a-z]*|x\"}\n  action: {type: lsp_diagnose, path_field: a.b, publish: true}\n"))
	f.Add([]byte("hooks:\n  - id: x\n    on: tool_start\n    condition: {type: path, match: \"{a,b}/**\"}\n"))
	f.Add([]byte("- 1\n- [2]\n- {id: {a: b}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := ParseDeclarations(data, "f.yaml")
		if err != nil {
			if ds != nil {
				t.Fatal("declarations returned with an error")
			}
			var de *DeclarationError
			if errors.As(err, &de) && de.Hook == "" {
				t.Fatalf("error names no hook: %v", err)
			}
			return
		}
		ids := make(map[string]bool)
		for _, d := range ds {
			if d.ID == "" || ids[d.ID] || len(d.On) == 0 || d.Action.Type != ActionLSPDiagnose || d.Action.PathField == "" {
				t.Fatalf("invalid declaration accepted: %+v", d)
			}
			ids[d.ID] = true
			if (d.Condition.Type == ConditionToolName) != (d.tools != nil) || (d.Condition.Type == ConditionPath) != (d.paths != nil) {
				t.Fatalf("condition not compiled: %+v", d)
			}
			d.tools.match("x")
			d.paths.match("a/b", "/r/a/b")
		}
	})
}

// yamlNode parses s into its top node.
func yamlNode(t *testing.T, s string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

func TestDecodeDeclarationsWithoutFile(t *testing.T) {
	_, err := DecodeDeclarations(yamlNode(t, "- id: a\n  on: x\n  action: {type: lsp_diagnose, path_field: p, publish: true}\n"), "")
	if err == nil || err.Error() != `line 2: hook "a": on: unknown phase "x" (want tool_end or tool_start)` {
		t.Errorf("err = %v", err)
	}
}
