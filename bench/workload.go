package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// minLargeLines is how many lines of non-test Go the large workspace must
// have (DESIGN.md asks for a real module, not a toy).
const minLargeLines = 10_000

// badJSON is the JSON file of part 1, with a syntax error (a trailing comma)
// on line 3.
const (
	badJSONName = "bench-bad.json"
	badJSON     = "{\n  \"name\": \"demo\",\n  \"tags\": [\"a\", \"b\",],\n  \"port\": 8080\n}\n"
)

// workspace is a Go module copied or generated into the bench's temporary
// tree and made a git repository, so lsp-hook takes it as its own
// workspace root with its own daemon.
type workspace struct {
	name   string      // as shown in the report: "demo (generated)", "gopkg.in/yaml.v3@v3.0.1"
	dir    string      // absolute and symlink-free: the workspace root
	pkg    string      // the edited package's directory, slash-separated, relative to dir; "" for the root
	target string      // the largest non-test Go file of pkg, where the Go edits go
	orig   []byte      // target's content before any edit, ending in a newline
	files  int         // non-test Go files in the module
	lines  int         // lines in those files
	graph  importGraph // where pkg sits in the module's import graph
	daemon bool        // a hook ran here, so a daemon may be up
	pid    int         // the daemon's pid once quiet looked it up; 0 before
	peer   bool        // pid is the peer's daemon (section 9), not lsp-hook's: no lsp-hook status or stop here
}

// demoWorkspace copies the -demo module, or generates a small one when it
// does not exist, and adds the JSON file of part 1.
func (b *bench) demoWorkspace(ctx context.Context) (*workspace, error) {
	ws := &workspace{dir: filepath.Join(b.tmp, "demo")}
	b.workspaces = append(b.workspaces, ws)
	if fi, err := os.Stat(b.opts.demo); err == nil && fi.IsDir() {
		ws.name = "demo (" + b.opts.demo + ")"
		if err := copyTree(b.opts.demo, ws.dir, false); err != nil {
			return nil, err
		}
	} else {
		ws.name = "demo (generated)"
		if err := writeFiles(ws.dir, demoFiles); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(ws.dir, badJSONName), []byte(badJSON), 0o644); err != nil {
		return nil, err
	}
	return ws, b.finishWorkspace(ctx, ws)
}

// finishWorkspace makes ws.dir a git repository, counts its Go, picks
// the edit target (the largest non-test Go file of the package in ws.pkg)
// and reads the module's import graph.
func (b *bench) finishWorkspace(ctx context.Context, ws *workspace) error {
	if _, err := output(ctx, ws.dir, b.env, "git", "init", "-q"); err != nil {
		return err
	}
	editDir := filepath.Join(ws.dir, filepath.FromSlash(ws.pkg))
	var best int64 = -1
	err := filepath.WalkDir(ws.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isSourceGo(d.Name()) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		ws.files++
		ws.lines += bytes.Count(data, []byte("\n"))
		if filepath.Dir(path) == editDir && int64(len(data)) > best {
			best, ws.target, ws.orig = int64(len(data)), path, data
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading %s: %w", ws.dir, err)
	}
	if ws.target == "" {
		return fmt.Errorf("%s has no non-test Go file in package %s to edit", ws.name, ws.pkgArg())
	}
	ws.orig = withNewline(ws.orig)
	return b.readImportGraph(ctx, ws)
}

// withNewline is data ending in a newline, so a line appended to it is a
// line of its own.
func withNewline(data []byte) []byte {
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		return append(data, '\n')
	}
	return data
}

// isSourceGo reports whether name is a non-test Go file.
func isSourceGo(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// copyTree copies the regular files under src to dst, writable by us (the
// module cache is read-only), skipping .git and, when noTests, test files
// and testdata directories.
func copyTree(src, dst string, noTests bool) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == ".git" || (noTests && name == "testdata") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || (noTests && strings.HasSuffix(name, "_test.go")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// writeFiles writes files (slash-separated relative path → content) under
// dir.
func writeFiles(dir string, files map[string]string) error {
	for rel, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
