package soak

import (
	"context"
	"testing"
)

// language is one project of the soak: the programs it needs, its files,
// its compiler, the formatter an agent's hook runs before lsp-hook's, and
// the scenarios the schedule draws from.
type language struct {
	name  string
	tools []string // programs that must be on PATH: the server, the compiler, the formatter
	// files returns the committed project: relative path → content.
	files func(t *testing.T) map[string]string
	// compile returns the compiler's truth about the project in dir, whose
	// files are s.
	compile func(ctx context.Context, dir string, env []string, s snapshot) (*truth, error)
	// format is the formatter run between a write and its hook; the file's
	// path is appended. It must not move lines.
	format []string
	// comment returns a one-line comment saying text.
	comment   func(text string) string
	scenarios []scenario
}

// stripTrailingSpace is the formatter of the languages without one in the
// toolchain the soak uses: trailing white space removed (it keeps lines).
var stripTrailingSpace = []string{"sed", "-i", "s/[[:space:]]*$//"}

// slashComment is a // comment.
func slashComment(text string) string { return "// " + text }

// languages are the four projects, in report order.
func languages() []*language {
	return []*language{goLanguage(), pythonLanguage(), tsLanguage(), cLanguage()}
}
