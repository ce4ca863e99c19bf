package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestServerOptionsMerge: a config that sets some of a catalogue server's
// initialization_options or settings keeps the catalogue's others (gopls's
// verboseWorkDoneProgress, which freshness relies on), and can still turn
// one off by setting it.
func TestServerOptionsMerge(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		wantInit map[string]any
		wantSet  map[string]any
	}{
		{name: "one more option",
			yaml:     "lsp:\n  servers:\n    gopls:\n      initialization_options: {usePlaceholders: true}\n      settings: {gopls: {staticcheck: true}}\n",
			wantInit: map[string]any{"diagnosticsDelay": "0s", "verboseWorkDoneProgress": true, "usePlaceholders": true},
			wantSet:  map[string]any{"gopls": map[string]any{"diagnosticsDelay": "0s", "verboseWorkDoneProgress": true, "staticcheck": true}}},
		{name: "one turned off",
			yaml:     "lsp:\n  servers:\n    gopls:\n      initialization_options: {diagnosticsDelay: 1s}\n",
			wantInit: map[string]any{"diagnosticsDelay": "1s", "verboseWorkDoneProgress": true},
			wantSet:  map[string]any{"gopls": map[string]any{"diagnosticsDelay": "0s", "verboseWorkDoneProgress": true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := testdir.New(t) // the user file: always trusted
			t.Setenv("XDG_CONFIG_HOME", user)
			file := filepath.Join(user, "lsp-hook", "config.yaml")
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			c, problems := Load(testdir.New(t))
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			s := c.LSP.Servers["gopls"]
			if !reflect.DeepEqual(s.InitializationOptions, tt.wantInit) {
				t.Errorf("initialization_options = %#v, want %#v", s.InitializationOptions, tt.wantInit)
			}
			if !reflect.DeepEqual(s.Settings, tt.wantSet) {
				t.Errorf("settings = %#v, want %#v", s.Settings, tt.wantSet)
			}
			if !reflect.DeepEqual(Default().LSP.Servers["gopls"].InitializationOptions,
				map[string]any{"diagnosticsDelay": "0s", "verboseWorkDoneProgress": true}) {
				t.Errorf("the catalogue's own options changed: %#v", Default().LSP.Servers["gopls"].InitializationOptions)
			}
		})
	}
}
