package lsp

import (
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestBrokenBy: which other files a change can reach, for the baseline of
// a check whose server had no whole answer yet: in Go the changed file's package and its
// importers (by the nearest go.mod's module path, a nested module its
// own), or anything after a go.mod change; in the languages of
// dependents.go the files whose imports name a changed file; anything
// unreadable or unparsable, or of a language without rules, may be.
func TestBrokenBy(t *testing.T) {
	dir := workspace(t, map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n",
		"greet/greet.go":     "package greet\n\nfunc Greet() string { return \"hi\" }\n",
		"greet/other.go":     "package greet\n\nvar X = Greet()\n",
		"main.go":            "package main\n\nimport (\n\t\"fmt\"\n\tg \"example.com/m/greet\"\n)\n\nfunc main() { fmt.Println(g.Greet()) }\n",
		"q/q.go":             "package q\n\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n",
		"broken.go":          "package main\n\nimport (\n",
		"sub/go.mod":         "module example.com/sub\n\ngo 1.22\n",
		"sub/greet/greet.go": "package greet\n",
		"sub/use.go":         "package sub\n\nimport \"example.com/sub/greet\"\n",
		"pkg/models.py":      "class M: ...\n",
		"pkg/api.py":         "from pkg.models import M\n",
		"pkg/other.py":       "import os\n",
		"notes.txt":          "no rules\n",
	})
	c := newClient(config.Server{Name: "test"}, dir, slog.New(slog.DiscardHandler))
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	tests := []struct {
		name    string
		file    string
		changed []string
		want    bool
	}{
		{"same package", "greet/other.go", []string{"greet/greet.go"}, true},
		{"importer, renamed import", "main.go", []string{"greet/greet.go"}, true},
		{"unrelated package", "q/q.go", []string{"greet/greet.go"}, false},
		{"a package of another module, same name", "sub/use.go", []string{"greet/greet.go"}, false},
		{"importer in a nested module", "sub/use.go", []string{"sub/greet/greet.go"}, true},
		{"go.mod changed", "q/q.go", []string{"go.mod"}, true},
		{"unparsable Go", "broken.go", []string{"greet/greet.go"}, true},
		{"gone", "gone.go", []string{"greet/greet.go"}, true},
		{"Python importer", "pkg/api.py", []string{"pkg/models.py"}, true},
		{"Python, unrelated", "pkg/other.py", []string{"pkg/models.py"}, false},
		{"no rules", "notes.txt", []string{"pkg/models.py"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var changed []string
			for _, ch := range tt.changed {
				changed = append(changed, p(ch))
			}
			if got := c.brokenBy(p(tt.file), changed); got != tt.want {
				t.Errorf("brokenBy(%s, %v) = %v, want %v", tt.file, tt.changed, got, tt.want)
			}
		})
	}
}

// FuzzGoBrokenBy: any text of a Go file is answered, never a panic; an
// unparsable one may have been broken.
func FuzzGoBrokenBy(f *testing.F) {
	f.Add([]byte("package main\n\nimport \"example.com/m/greet\"\n"))
	f.Add([]byte("package main\n\nimport (\n"))
	f.Add([]byte("package p; import `a\x00b`"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		goBrokenBy(dir, filepath.Join(dir, "a.go"), text, []string{filepath.Join(dir, "greet", "greet.go")})
	})
}
