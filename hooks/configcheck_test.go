package hooks

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestCheckConfig is `lsp-hook config check`'s logic: a config without a
// hooks: key is fine, and each broken declaration is its own problem with
// the file, line and hook.
func TestCheckConfig(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", testdir.New(t))
	tests := []struct {
		name   string
		config string // "" writes no file
		want   []string
	}{
		{name: "no file"},
		{name: "no hooks key", config: "severity: warning\n"},
		{name: "good hooks", config: "hooks:\n" + goodDecls[len("hooks:\n"):]},
		{name: "empty hooks list", config: "hooks: []\n", want: []string{`:1: hooks: an empty list`}},
		{name: "two bad hooks and a bad key", config: "severty: error\nhooks:\n" +
			"  - id: a\n    on: tool_end\n    action: {type: nope, path_field: p}\n" +
			"  - id: b\n    on: tool_end\n    condition: {type: colour}\n    action: {type: lsp_diagnose, path_field: p}\n",
			want: []string{
				`:1: severty: unknown key; did you mean "severity"?`,
				`:5: hook "a": action.type: unknown action type "nope"`,
				`:5: hook "a": action: does nothing`,
				`:8: hook "b": condition.match: missing`,
				`:8: hook "b": condition.type: unknown condition type "colour"`,
				`:9: hook "b": action: does nothing`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testdir.New(t)
			file := filepath.Join(root, config.FileName)
			if tt.config != "" {
				if err := os.WriteFile(file, []byte(tt.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			problems := CheckConfig(config.Load(root))
			var got []string
			for _, p := range problems {
				got = append(got, p.Error())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems:\n%q\nwant %d like:\n%q", got, len(tt.want), tt.want)
			}
			for _, w := range tt.want {
				if !slices.ContainsFunc(got, func(g string) bool { return len(g) >= len(file+w) && g[:len(file+w)] == file+w }) {
					t.Errorf("no problem starting %q in %q", file+w, got)
				}
			}
		})
	}
}
