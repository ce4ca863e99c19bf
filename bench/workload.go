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
	name   string // as shown in the report: "demo (generated)", "gopkg.in/yaml.v3@v3.0.1"
	dir    string // absolute and symlink-free: the workspace root
	target string // the non-test Go file of the root package the Go edits go to
	orig   []byte // target's content before any edit, ending in a newline
	files  int    // non-test Go files in the module
	lines  int    // lines in those files
	daemon bool   // a hook ran here, so a daemon may be up
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

// moduleWorkspace copies -module (the version this module requires, from
// the module cache) without its tests, and tidies its go.mod, with the
// user's GOPROXY: tidy reads the go.mod of the test-only requirements too,
// which a fresh module cache does not have.
func (b *bench) moduleWorkspace(ctx context.Context) (*workspace, error) {
	info, err := output(ctx, "", os.Environ(), "go", "list", "-m", "-f", "{{.Dir}}\t{{.Version}}", b.opts.module)
	if err != nil {
		return nil, fmt.Errorf("finding %s in the module cache: %w", b.opts.module, err)
	}
	src, version, _ := strings.Cut(info, "\t")
	if src == "" {
		return nil, fmt.Errorf("%s is not in the module cache (go mod download %s)", b.opts.module, b.opts.module)
	}
	ws := &workspace{name: b.opts.module + "@" + version, dir: filepath.Join(b.tmp, "large")}
	b.workspaces = append(b.workspaces, ws)
	if err := copyTree(src, ws.dir, true); err != nil {
		return nil, err
	}
	if _, err := output(ctx, ws.dir, b.onlineEnv(), "go", "mod", "tidy"); err != nil {
		return nil, fmt.Errorf("tidying the copy of %s: %w", ws.name, err)
	}
	if err := b.finishWorkspace(ctx, ws); err != nil {
		return nil, err
	}
	if ws.lines < minLargeLines {
		return nil, fmt.Errorf("%s has %d lines of non-test Go, want ≥ %d: pick another -module", ws.name, ws.lines, minLargeLines)
	}
	return ws, nil
}

// finishWorkspace makes ws.dir a git repository, counts its Go, and picks
// the edit target: the largest non-test Go file of the root package.
func (b *bench) finishWorkspace(ctx context.Context, ws *workspace) error {
	if _, err := output(ctx, ws.dir, b.env, "git", "init", "-q"); err != nil {
		return err
	}
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
		if filepath.Dir(path) == ws.dir && int64(len(data)) > best {
			best, ws.target, ws.orig = int64(len(data)), path, data
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading %s: %w", ws.dir, err)
	}
	if ws.target == "" {
		return fmt.Errorf("%s has no non-test Go file in its root package to edit", ws.name)
	}
	ws.orig = withNewline(ws.orig)
	return nil
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
