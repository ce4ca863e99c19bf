package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// FuzzLoad writes a workspace config file (YAML, TOML or JSON, by the
// input's choice of name) and an import file (opencode.json(c) or
// .lsp.json) and loads the workspace as the daemon does. Whatever the
// bytes, Load must not panic and must be deterministic; every problem
// names one of the files and a line it has; the config stays usable; and
// while the files are not trusted, no server or linter command,
// environment, settings or initialization options differ from the
// built-in ones (DESIGN.md "Config"; config/trust.go).
func FuzzLoad(f *testing.F) {
	f.Setenv("XDG_CONFIG_HOME", testdir.New(f)) // no user config
	state := testdir.New(f)
	f.Setenv("XDG_STATE_HOME", state)
	root := testdir.New(f)

	// Seeds: the README's YAML examples in every file form, and import
	// files in the shapes opencode and Claude Code plugins write.
	for _, y := range readmeYAML(f) {
		f.Add([]byte(y), []byte(nil), uint8(0))
		var v map[string]any
		if yaml.Unmarshal([]byte(y), &v) != nil {
			continue
		}
		var tb bytes.Buffer
		if toml.NewEncoder(&tb).Encode(v) == nil {
			f.Add(tb.Bytes(), []byte(nil), uint8(2))
		}
		if jb, err := json.MarshalIndent(v, "", "  "); err == nil {
			f.Add(jb, []byte(nil), uint8(3))
		}
	}
	f.Add([]byte("[lsp]\ntimeout = \"5s\"\n[lsp.servers.mylang]\ncommand = [\"mylang-ls\", \"--stdio\"]\nextensions = [\".my\"]\n[linters.ruff]\nenabled = false\n"), []byte(nil), uint8(2))
	f.Add([]byte(`{"severity": "warning", "lsp": {"servers": {"gopls": {"command": ["evil"], "env": {"PATH": "/tmp"}}}}, "linters": {"x": {"command": ["x", "{file}"], "parser": "errorformat", "errorformat": ["%f:%l: %m"], "extensions": [".x"]}}}`),
		[]byte(`{"lsp": {"mylang": {"command": ["mylang-ls"], "extensions": [".my"], "initialization": {"a": 1}}}}`), uint8(3|0<<2))
	f.Add([]byte("lsp:\n  servers:\n    mine: {command: [from-lsp-hook], extensions: [.mine]}\n"),
		[]byte("{\n  // c\n  \"lsp\": {\"mine\": {\"command\": [\"x\"], \"extensions\": [\".mine\"],}, \"off\": {\"disabled\": true}},\n}"), uint8(0|1<<2))
	f.Add([]byte(nil), []byte(`{"go": {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"}}, "bad": {"command": "b", "extensionToLanguage": {"nodot": "x"}}}`), uint8(0|2<<2))
	f.Add([]byte("lsp:\n  servers:\n    gopls: {command: [evil]}\n"), []byte(`{"go": {"command": "evil"}}`), uint8(0|2<<2|1<<4))
	f.Fuzz(func(t *testing.T, data, imported []byte, which uint8) {
		for _, n := range append(slices.Clone(FileNames), ImportFiles...) {
			os.Remove(filepath.Join(root, n))
		}
		os.Remove(TrustFile())
		written := map[string][]byte{}
		write := func(name string, b []byte) {
			p := filepath.Join(root, name)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			written[p] = b
		}
		if len(data) > 0 {
			write(FileNames[int(which)%len(FileNames)], data)
		}
		if len(imported) > 0 {
			write(ImportFiles[int(which>>2)%len(ImportFiles)], imported)
		}
		trusted := which&(1<<4) != 0
		if trusted {
			if _, err := Trust(root); err != nil {
				t.Fatal(err)
			}
		}
		c, problems := Load(root)
		for _, p := range problems {
			b, ok := written[p.File]
			if !ok {
				t.Fatalf("problem names a file that was not written: %v", p)
			}
			if !strings.HasPrefix(p.Error(), p.File) || p.Message == "" {
				t.Fatalf("problem %q does not start with its file or says nothing", p.Error())
			}
			if lines := strings.Count(string(b), "\n") + 1; p.Line < 0 || p.Line > lines {
				t.Fatalf("problem on line %d of a %d-line file: %v", p.Line, lines, p)
			}
		}
		if c.LSP.Timeout <= 0 || c.LSP.FirstTouchTimeout <= 0 || !slices.Contains([]string{"error", "warning", "info", "hint"}, c.Severity) {
			t.Fatalf("config unusable: timeout %v, first touch %v, severity %q", c.LSP.Timeout, c.LSP.FirstTouchTimeout, c.Severity)
		}
		settings := c.Settings() // config show
		c2, problems2 := Load(root)
		if !reflect.DeepEqual(settings, c2.Settings()) || !reflect.DeepEqual(problems, problems2) {
			t.Fatalf("loading twice differs:\n%v\n%v", problems, problems2)
		}
		if !trusted {
			checkUntrusted(t, c)
		}
	})
}

// checkUntrusted checks that no command-defining field of any server or
// linter differs from the built-in configuration's.
func checkUntrusted(t *testing.T, c *Config) {
	t.Helper()
	def := Default()
	for name, s := range c.LSP.Servers {
		d := def.LSP.Servers[name]
		if len(s.Command) > 0 && !slices.Equal(s.Command, d.Command) || len(s.Env) > 0 && !reflect.DeepEqual(s.Env, d.Env) ||
			s.Settings != nil && !reflect.DeepEqual(s.Settings, d.Settings) ||
			s.InitializationOptions != nil && !reflect.DeepEqual(s.InitializationOptions, d.InitializationOptions) {
			t.Fatalf("untrusted config changed server %s: command %q env %v settings %v init %v (untrusted keys %v)",
				name, s.Command, s.Env, s.Settings, s.InitializationOptions, c.Untrusted)
		}
	}
	for name, l := range c.Linters {
		if d := def.Linters[name]; len(l.Command) > 0 && !slices.Equal(l.Command, d.Command) {
			t.Fatalf("untrusted config changed linter %s's command to %q (untrusted keys %v)", name, l.Command, c.Untrusted)
		}
	}
}

// readmeYAML returns the YAML examples of the README.
func readmeYAML(tb testing.TB) []string {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(b, -1) {
		out = append(out, string(m[1]))
	}
	if len(out) == 0 {
		tb.Fatal("README.md has no YAML example")
	}
	return out
}
