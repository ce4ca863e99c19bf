package lsp

import "github.com/lsp-hook/lsp-hook/config"

// FindRoot returns the server root for path: for each marker in order, the
// nearest directory from path's directory up to workspace that contains it
// (a marker may be a glob: config.MarkerDir); the first marker found wins.
// Without any, the workspace itself.
func FindRoot(path string, markers []string, workspace string) string {
	if dir, ok := config.MarkerDir(path, markers, workspace); ok {
		return dir
	}
	return workspace
}
