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
//     else go.mod (gopls/doc/workspace.md).
func Catalogue() []Server {
	servers := []Server{
		{
			Name:        "gopls",
			Command:     []string{"gopls"},
			Extensions:  []string{".go"},
			LanguageIDs: map[string]string{".go": "go"},
			RootMarkers: []string{"go.work", "go.mod"},
			Enabled:     true,
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
