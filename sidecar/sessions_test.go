package sidecar

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestSamplePaths: session_start's prewarm gets one file per server and
// root, the one modified last, and none for a server with no files.
func TestSamplePaths(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		newer []string // touched in this order after the others, the last newest
		want  []string
	}{{
		name:  "newest file of each server",
		files: map[string]string{"go.mod": "module m\n", "a.go": "package m\n", "b.go": "package m\n", "x.py": "", "y.py": ""},
		newer: []string{"y.py", "a.go"},
		want:  []string{"a.go", "y.py"},
	}, {
		name:  "a project of its own is its own root",
		files: map[string]string{"pyproject.toml": "", "a.py": "", "sub/pyproject.toml": "", "sub/s.py": ""},
		want:  []string{"a.py", "sub/s.py"},
	}, {
		name:  "one gopls serves every Go module",
		files: map[string]string{"go.mod": "module m\n", "a.go": "package m\n", "sub/go.mod": "module s\n", "sub/s.go": "package s\n"},
		want:  []string{"a.go"},
	}, {
		name:  "no file a server serves",
		files: map[string]string{"README.md": "# x\n", "notes.txt": "x\n"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testdaemon.ShortDir(t)
			testdir.WriteTree(t, root, tt.files)
			old := time.Now().Add(-time.Hour)
			for rel := range tt.files {
				if err := os.Chtimes(filepath.Join(root, rel), old, old); err != nil {
					t.Fatal(err)
				}
			}
			for i, rel := range tt.newer {
				at := old.Add(time.Duration(i+1) * time.Minute)
				if err := os.Chtimes(filepath.Join(root, rel), at, at); err != nil {
					t.Fatal(err)
				}
			}
			srv := &Server{Engine: engine.NewEngine(root, config.Default(), nil, testdaemon.Discard()), Log: testdaemon.Discard()}
			var got []string
			for _, p := range srv.samplePaths() {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, filepath.ToSlash(rel))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("samplePaths = %q, want %q", got, tt.want)
			}
		})
	}
}
