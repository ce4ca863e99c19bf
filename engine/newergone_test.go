package engine

import (
	"maps"
	"slices"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// TestNewerThanGone: a file the changed files' check answered, listed or
// clean, by the same server and root, is left out of the deletion's
// re-check; another server's or root's answer, or none, leaves it in.
func TestNewerThanGone(t *testing.T) {
	err := []diag.Diagnostic{{Severity: diag.SeverityError, Message: "Subscript for class \"list\" will generate runtime exception"}}
	gone := lsp.Outcome{Server: "pyright", Root: "/r", Others: map[string][]diag.Diagnostic{"/r/api.py": err, "/r/main.py": err}}
	tests := []struct {
		name    string
		changed []lsp.Outcome
		want    []string
	}{
		{"no changed files", nil, []string{"/r/api.py", "/r/main.py"}},
		{"answered clean after a restart", []lsp.Outcome{{Server: "pyright", Root: "/r", Others: map[string][]diag.Diagnostic{"/r/api.py": nil}}}, []string{"/r/main.py"}},
		{"a changed file itself", []lsp.Outcome{{Server: "pyright", Root: "/r", Files: map[string][]diag.Diagnostic{"/r/main.py": err}}}, []string{"/r/api.py"}},
		{"another server", []lsp.Outcome{{Server: "ruff", Root: "/r", Others: map[string][]diag.Diagnostic{"/r/api.py": nil}}}, []string{"/r/api.py", "/r/main.py"}},
		{"another root", []lsp.Outcome{{Server: "pyright", Root: "/r/app", Others: map[string][]diag.Diagnostic{"/r/api.py": nil}}}, []string{"/r/api.py", "/r/main.py"}},
		{"both answered", []lsp.Outcome{{Server: "pyright", Root: "/r", Files: map[string][]diag.Diagnostic{"/r/main.py": nil}, Others: map[string][]diag.Diagnostic{"/r/api.py": nil}}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := newerThanGone([]lsp.Outcome{gone}, tt.changed)
			if len(out) != 1 {
				t.Fatalf("%d outcomes, want 1", len(out))
			}
			if got := slices.Sorted(maps.Keys(out[0].Others)); !slices.Equal(got, tt.want) {
				t.Errorf("others = %q, want %q", got, tt.want)
			}
			if len(gone.Others) != 2 {
				t.Errorf("the deletion's outcome was changed: %d others left", len(gone.Others))
			}
		})
	}
}
