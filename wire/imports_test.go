package wire

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStayBelow holds the package comments' rules on lsp-hook's
// own imports, one row a package: hooks, mcp and wire reach the daemon
// through wire only, never importing the daemon (sidecar) or the engine,
// and hooks and wire never lsp either; wire imports no lsp-hook package but
// diag, config and internal helpers; the engine never imports the daemon
// or anything above it, nor the daemon anything above it; install imports
// config only; workspace imports internal helpers only; the tests' daemon
// helpers (internal/testdaemon) import neither engine nor sidecar, whose
// own tests use them. Every file is read, whatever its build tags; tests
// may import what they like.
func TestImportsStayBelow(t *testing.T) {
	const module = "github.com/lsp-hook/lsp-hook/"
	tests := []struct {
		dir    string
		denied []string // lsp-hook packages (and those under them) the dir must not import
		only   []string // when set, the only lsp-hook packages (or trees) it may import
	}{
		{dir: ".", only: []string{"diag", "config", "internal"}},
		{dir: "../hooks", denied: []string{"sidecar", "engine", "lsp", "mcp", "install", "cmd"}},
		// mcp still uses lsp's position types and column converters.
		{dir: "../mcp", denied: []string{"sidecar", "engine", "hooks", "install", "cmd"}},
		{dir: "../engine", denied: []string{"sidecar", "hooks", "mcp", "install", "cmd"}},
		{dir: "../sidecar", denied: []string{"hooks", "mcp", "install", "cmd"}},
		{dir: "../install", only: []string{"config"}},
		{dir: "../internal/workspace", only: []string{"internal"}},
		{dir: "../internal/testdaemon", denied: []string{"engine", "sidecar", "hooks", "mcp", "cmd"}},
	}
	for _, tt := range tests {
		files, err := filepath.Glob(filepath.Join(tt.dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no Go files in %s", tt.dir)
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
				own, ok := strings.CutPrefix(path, module)
				if !ok {
					continue
				}
				if tt.only != nil && !under(own, tt.only) {
					t.Errorf("%s imports %s: it may import only %v of lsp-hook's packages", file, path, tt.only)
				}
				if under(own, tt.denied) {
					t.Errorf("%s imports %s, which it must not (%v)", file, path, tt.denied)
				}
			}
		}
	}
}

// under reports whether the package pkg (module-relative) is one of trees
// or inside one.
func under(pkg string, trees []string) bool {
	for _, tr := range trees {
		if pkg == tr || strings.HasPrefix(pkg, tr+"/") {
			return true
		}
	}
	return false
}
