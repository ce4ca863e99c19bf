package install

import (
	"bytes"

	"github.com/aymanbagabas/go-udiff"
)

// unifiedDiff returns the unified diff `lsp-hook install --dry-run`
// prints, from a (labelled oldName) to b (labelled newName), "" when they
// are equal: three lines of context, and "\ No newline at end of file"
// after a last line without one. The diff is go-udiff's
// (github.com/aymanbagabas/go-udiff, a maintained copy of the Go team's
// golang.org/x/tools/internal/diff), as the MCP tools' previews are.
func unifiedDiff(oldName, newName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	return udiff.Unified(oldName, newName, string(a), string(b))
}
