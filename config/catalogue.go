package config

import (
	"maps"
	"slices"
)

// Catalogue returns the built-in language servers, in name order. Each entry
// is a fact taken from the server's own documentation:
//
//   - gopls: `gopls` speaks LSP on stdio with no arguments
//     (golang.org/x/tools/gopls/doc/daemon.md); root is the nearest go.work,
//     else go.mod (gopls/doc/workspace.md). Its diagnosticsDelay setting
//     (gopls/doc/settings.md, default 1s) holds back diagnostics of packages
//     that depend on the changed one, to spare typing users; an agent's write
//     is whole and infrequent, and a write that breaks a caller elsewhere is
//     exactly what must be reported in the same answer, so lsp-hook sets it
//     to 0s. Measured with gopls v0.23.0: a dependent package's diagnostics
//     arrive ~1,010 ms after a change by default and ~10 ms with 0s.
func Catalogue() []Server {
	servers := []Server{
		{
			Name:                  "gopls",
			Command:               []string{"gopls"},
			Extensions:            []string{".go"},
			LanguageIDs:           map[string]string{".go": "go"},
			RootMarkers:           []string{"go.work", "go.mod"},
			Enabled:               true,
			InitializationOptions: map[string]any{"diagnosticsDelay": "0s"},
			Settings:              map[string]any{"gopls": map[string]any{"diagnosticsDelay": "0s"}},
		},
	}
	slices.SortFunc(servers, func(a, b Server) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return servers
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
