package mcp

import (
	"fmt"

	"github.com/aymanbagabas/go-udiff"
)

// unifiedDiff returns the unified diff turning old into new, as `diff -u`
// and `git diff` print them, with the file named oldName and newName in
// the "---"/"+++" headers ("/dev/null" for a created or deleted file):
// hunks "@@ -l,n +l,n @@" with 1-based line numbers and three lines of
// context, "\ No newline at end of file" after a last line without one.
// The diff is go-udiff's (github.com/aymanbagabas/go-udiff, a maintained
// copy of the Go team's golang.org/x/tools/internal/diff, which gopls
// uses for the same job). Equal texts under two names (a file moved
// unchanged) give the headers alone; equal texts and names, "".
func unifiedDiff(oldName, newName, old, new string) string {
	if old == new {
		if oldName == newName {
			return ""
		}
		return fmt.Sprintf("--- %s\n+++ %s\n", oldName, newName)
	}
	return udiff.Unified(oldName, newName, old, new)
}
