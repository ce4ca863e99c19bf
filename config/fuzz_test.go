package config

import (
	"strings"
	"testing"
)

// FuzzApply feeds arbitrary YAML to the config decoder: it must never panic,
// every problem must name the file, and the config must stay usable.
func FuzzApply(f *testing.F) {
	f.Add("lsp: false\n")
	f.Add("lsp:\n  timeout: 3s\n  servers:\n    gopls: {enabled: false}\nseverity: warning\n")
	f.Add("validators: [1, 2]\n")
	f.Add("- a\n- b\n")
	f.Add("lsp: {servers: {gopls: 3}}\n")
	f.Fuzz(func(t *testing.T, data string) {
		c := Default()
		for _, p := range apply(c, "/x/.lsp-hook.yaml", []byte(data)) {
			if !strings.HasPrefix(p.Error(), "/x/.lsp-hook.yaml") {
				t.Fatalf("problem without file: %q", p.Error())
			}
		}
		if c.LSP.Timeout <= 0 || c.LSP.FirstTouchTimeout <= 0 || c.Severity == "" {
			t.Fatalf("config unusable after %q: %+v", data, c.LSP)
		}
	})
}
