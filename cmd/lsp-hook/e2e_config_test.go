package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestConfigCommands runs `config check` and `config show` on a workspace
// config: a problem is reported with file, line, key and a suggestion
// (exit 1); a good file is "ok" (exit 0); show prints each value with its
// source, the value last so no line is padded to the widest value (a
// catalogue server's language_ids run to 200 characters).
func TestConfigCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	tests := []struct {
		name   string
		config string
		args   []string
		exit   int
		want   []string // lines of stdout that must appear, fields separated by single spaces
	}{
		{"check: a typo", "severity: warning\nonly_nwe: true\n", []string{"config", "check"}, 1,
			[]string{".lsp-hook.yaml:2: only_nwe: unknown key; did you mean \"only_new\"?"}},
		{"check: good", "severity: warning\n", []string{"config", "check"}, 0, []string{"ok: .lsp-hook.yaml"}},
		{"show", "severity: warning\nlinters:\n  go-vet: false\n", []string{"config", "show"}, 0, []string{
			"KEY SOURCE VALUE",
			"severity .lsp-hook.yaml:1 \"warning\"",
			"linters.go-vet.enabled .lsp-hook.yaml:3 false",
			"linters.go-vet.command built-in [\"go\",\"vet\",\"{dirs}\"]",
			"linters.go-vet.root_markers built-in [\"go.mod\"]",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorkspaceOf(t, "demo", "", nil)
			if err := os.WriteFile(filepath.Join(w.root, ".lsp-hook.yaml"), []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			r := w.run("", nil, tt.args...)
			if r.exit != tt.exit {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", r.exit, tt.exit, r.stdout, r.stderr)
			}
			var lines []string
			for line := range strings.Lines(r.stdout) {
				line = strings.TrimSuffix(line, "\n")
				if f := strings.Fields(line); len(line) > 200 && len(f[len(f)-1]) < 40 {
					t.Errorf("a short value's line padded to %d columns: %q", len(line), line)
				}
				line = strings.ReplaceAll(line, w.root+"/", "")
				lines = append(lines, strings.Join(strings.Fields(line), " "))
			}
			for _, want := range tt.want {
				if !slices.Contains(lines, want) {
					t.Errorf("no line %q in:\n%s", want, r.stdout)
				}
			}
		})
	}

	t.Run("show --json", func(t *testing.T) {
		w := newWorkspaceOf(t, "demo", "", nil)
		r := w.run("", nil, "config", "show", "--json")
		var settings []struct{ Key, Value, Source string }
		if err := json.Unmarshal([]byte(r.stdout), &settings); err != nil || r.exit != 0 {
			t.Fatalf("exit %d, %v:\n%s", r.exit, err, r.stdout)
		}
		if !slices.ContainsFunc(settings, func(s struct{ Key, Value, Source string }) bool {
			return s.Key == "severity" && s.Value == `"error"` && s.Source == "default"
		}) {
			t.Errorf("no default severity in %d settings", len(settings))
		}
	})
}
