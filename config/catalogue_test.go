package config

import (
	"slices"
	"strings"
	"testing"
)

// lspLanguageIDs are the language identifiers of LSP 3.17 "Text Document
// Item" (the table of known identifiers).
var lspLanguageIDs = []string{
	"abap", "bat", "bibtex", "clojure", "coffeescript", "c", "cpp", "csharp", "css", "diff",
	"dart", "dockerfile", "elixir", "erlang", "fsharp", "git-commit", "git-rebase", "go",
	"groovy", "handlebars", "html", "ini", "java", "javascript", "javascriptreact", "json",
	"latex", "less", "lua", "makefile", "markdown", "objective-c", "objective-cpp", "perl",
	"perl6", "php", "powershell", "jade", "python", "r", "razor", "ruby", "rust", "scss", "sass",
	"scala", "shaderlab", "shellscript", "sql", "swift", "typescript", "typescriptreact", "tex", "vb",
	"xml", "xsl", "yaml",
}

// TestCatalogueShape checks what every entry must have for the manager to
// run it: a command, extensions with their dot and an LSP language id each,
// and root markers that are plain file names.
func TestCatalogueShape(t *testing.T) {
	cat := Catalogue()
	if !slices.IsSortedFunc(cat, func(a, b Server) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("catalogue not in name order")
	}
	seen := make(map[string]bool)
	for _, s := range cat {
		if seen[s.Name] {
			t.Errorf("%s listed twice", s.Name)
		}
		seen[s.Name] = true
		if len(s.Command) == 0 || s.Command[0] == "" || !s.Enabled {
			t.Errorf("%s: command %q, enabled %v; want a command, on by default", s.Name, s.Command, s.Enabled)
		}
		if len(s.Extensions) == 0 || len(s.RootMarkers) == 0 {
			t.Errorf("%s: no extensions or no root markers", s.Name)
		}
		for _, ext := range s.Extensions {
			if !strings.HasPrefix(ext, ".") || strings.Count(ext, ".") != 1 {
				t.Errorf("%s: extension %q, want one dot, first", s.Name, ext)
			}
			if id := s.LanguageID(ext); !slices.Contains(lspLanguageIDs, id) {
				t.Errorf("%s: %s has language id %q, not one of LSP 3.17's", s.Name, ext, id)
			}
		}
		for ext := range s.LanguageIDs {
			if !s.Serves(ext) {
				t.Errorf("%s: language id for %s, which it does not serve", s.Name, ext)
			}
		}
		for _, m := range s.RootMarkers {
			if m == "" || strings.ContainsAny(m, `/\*?[`) {
				t.Errorf("%s: root marker %q, want a plain file name", s.Name, m)
			}
		}
	}
}

// TestServersFor checks which built-in server answers for each kind of
// file, with the language id it is sent under.
func TestServersFor(t *testing.T) {
	tests := []struct {
		ext, server, languageID string // server "" when none serves ext
	}{
		{".go", "gopls", "go"},
		{".py", "pyright", "python"},
		{".pyi", "pyright", "python"},
		{".ts", "typescript-language-server", "typescript"},
		{".mts", "typescript-language-server", "typescript"},
		{".cts", "typescript-language-server", "typescript"},
		{".tsx", "typescript-language-server", "typescriptreact"},
		{".js", "typescript-language-server", "javascript"},
		{".mjs", "typescript-language-server", "javascript"},
		{".cjs", "typescript-language-server", "javascript"},
		{".jsx", "typescript-language-server", "javascriptreact"},
		{".c", "clangd", "c"},
		{".h", "clangd", "c"},
		{".cc", "clangd", "cpp"},
		{".cpp", "clangd", "cpp"},
		{".cxx", "clangd", "cpp"},
		{".hh", "clangd", "cpp"},
		{".hpp", "clangd", "cpp"},
		{".m", "clangd", "objective-c"},
		{".mm", "clangd", "objective-cpp"},
		{".rs", "rust-analyzer", "rust"},
		{".json", "", ""},
		{".GO", "", ""}, // extensions compare case-sensitively, as servers do
		{"", "", ""},
	}
	cfg := Default()
	for _, tt := range tests {
		got := cfg.ServersFor(tt.ext)
		switch {
		case tt.server == "" && len(got) != 0:
			t.Errorf("ServersFor(%q) = %s, want none", tt.ext, got[0].Name)
		case tt.server == "":
		case len(got) != 1 || got[0].Name != tt.server:
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			t.Errorf("ServersFor(%q) = %v, want [%s]", tt.ext, names, tt.server)
		case got[0].LanguageID(tt.ext) != tt.languageID:
			t.Errorf("%s sends %s as %q, want %q", tt.server, tt.ext, got[0].LanguageID(tt.ext), tt.languageID)
		}
	}
}

// TestCatalogueChoices pins the choices the catalogue's doc comment argues
// for, so that changing one means revisiting its reason there.
func TestCatalogueChoices(t *testing.T) {
	servers := Default().LSP.Servers
	tests := []struct {
		name string
		ok   bool
	}{
		{"gopls: go.work before go.mod", slices.Equal(servers["gopls"].RootMarkers, []string{"go.work", "go.mod"})},
		{"gopls: diagnosticsDelay 0s", lookup(servers["gopls"].Settings, "gopls", "diagnosticsDelay") == "0s"},
		{"pyright: pyrightconfig.json before the packaging files", servers["pyright"].RootMarkers[0] == "pyrightconfig.json"},
		{"pyright: openFilesOnly", lookup(servers["pyright"].Settings, "python", "analysis", "diagnosticMode") == "openFilesOnly"},
		{"clangd: no background index", slices.Contains(servers["clangd"].Command, "--background-index=false")},
		{"rust-analyzer: rust-project.json before Cargo.toml, as rust-analyzer discovers projects",
			slices.Equal(servers["rust-analyzer"].RootMarkers, []string{"rust-project.json", ".rust-project.json", "Cargo.toml"})},
		{"rust-analyzer: no settings (it never asks lsp-hook for them)", servers["rust-analyzer"].Settings == nil},
		{"typescript-language-server: no tsserver.path, so a project's own TypeScript wins",
			lookup(servers["typescript-language-server"].InitializationOptions, "tsserver", "path") == nil},
		{"typescript-language-server: no typing acquisition",
			lookup(servers["typescript-language-server"].InitializationOptions, "disableAutomaticTypingAcquisition") == true},
		{"typescript-language-server: one tsserver",
			lookup(servers["typescript-language-server"].InitializationOptions, "tsserver", "useSyntaxServer") == "never"},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: not so", tt.name)
		}
	}
}

// lookup follows keys through nested map[string]any values; nil when a key
// is missing.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
