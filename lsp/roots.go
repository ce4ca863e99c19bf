package lsp

import (
	"os"
	"path/filepath"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// FindRoot returns the server root for path: for each marker in order, the
// nearest directory from path's directory up to workspace that contains it;
// the first marker found wins. Without any, the workspace itself.
func FindRoot(path string, markers []string, workspace string) string {
	for _, marker := range markers {
		for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
			if !ws.Inside(workspace, dir) {
				break
			}
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir
			}
			if dir == workspace || dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return workspace
}
