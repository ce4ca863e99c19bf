package install

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStayBelow holds the package comment's rule: of lsp-hook's own
// packages install may import config only, never the engine (sidecar,
// lsp), the hook adapters (hooks), mcp or cmd.
func TestImportsStayBelow(t *testing.T) {
	const module = "github.com/lsp-hook/lsp-hook/"
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if own, ok := strings.CutPrefix(path, module); ok && own != "config" {
				t.Errorf("%s imports %s: install may import config only of lsp-hook's packages", file, path)
			}
		}
	}
}
