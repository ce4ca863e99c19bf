package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// resolveRow is one row of the Resolve table: path as given (relative to
// the root, or absolute), and either the path it resolves to (relative to
// the root, slash-separated) or an error it wraps or mentions.
type resolveRow struct {
	name    string
	path    string
	want    string // root-relative; "." for the root
	wantErr error
	wantSub string // a substring of the error
	fails   bool   // some error, neither ErrOutside nor named
	links   bool   // needs symlinks
}

// resolveTree makes the tree the Resolve table runs in:
//
//	<tmp>/ws/a.go, dir/b.go, with space.go
//	<tmp>/ws/link-in.go → a.go           dirlink-in → dir
//	<tmp>/ws/link-out.go → ../out/secret.go
//	<tmp>/ws/dirlink-out → ../out         loop → loop
//	<tmp>/out/secret.go
//
// and returns the root (<tmp>/ws, symlink-free), the outside directory,
// and whether symlinks could be made (Windows without the privilege).
func resolveTree(t *testing.T) (root, out string, links bool) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, out = filepath.Join(tmp, "ws"), filepath.Join(tmp, "out")
	testdir.WriteTree(t, root, map[string]string{"a.go": "package a\n", "dir/b.go": "package dir\n", "with space.go": "package a\n"})
	testdir.WriteTree(t, out, map[string]string{"secret.go": "package secret\n"})
	links = true
	for link, target := range map[string]string{
		"link-in.go":  "a.go",
		"dirlink-in":  "dir",
		"link-out.go": filepath.Join("..", "out", "secret.go"),
		"dirlink-out": filepath.Join("..", "out"),
		"loop":        "loop",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Logf("no symlinks: %v", err)
			links = false
		}
	}
	return root, out, links
}

// resolveRows are the rows every platform runs; workspace_unix_test.go
// adds FIFOs, /proc and a newline.
func resolveRows(root, out string) []resolveRow {
	return []resolveRow{
		{name: "relative", path: "a.go", want: "a.go"},
		{name: "absolute", path: filepath.Join(root, "a.go"), want: "a.go"},
		{name: "the root", path: ".", want: "."},
		{name: "spaces", path: "with space.go", want: "with space.go"},
		{name: "dot dot not escaping", path: filepath.Join("dir", "..", "a.go"), want: "a.go"},
		{name: "dot dot escaping", path: filepath.Join("..", "out", "secret.go"), wantErr: ErrOutside},
		{name: "dot dot escaping mid path", path: filepath.Join("dir", "..", "..", "out", "secret.go"), wantErr: ErrOutside},
		{name: "absolute elsewhere", path: filepath.Join(out, "secret.go"), wantErr: ErrOutside},
		{name: "sibling with the root as prefix", path: root + "x" + string(filepath.Separator) + "a.go", wantErr: ErrOutside},
		{name: "nonexistent under the root", path: "new.go", want: "new.go"},
		{name: "nonexistent directory under the root", path: filepath.Join("nodir", "new.go"), want: "nodir/new.go"},
		{name: "empty", path: "", wantSub: "empty path"},
		{name: "NUL", path: "a\x00b.go", wantSub: "NUL"},
		{name: "file symlink in", path: "link-in.go", want: "a.go", links: true},
		{name: "directory symlink in", path: filepath.Join("dirlink-in", "b.go"), want: "dir/b.go", links: true},
		{name: "file symlink out", path: "link-out.go", wantErr: ErrOutside, wantSub: "(symlink to " + out, links: true},
		{name: "directory symlink out", path: filepath.Join("dirlink-out", "secret.go"), wantErr: ErrOutside, wantSub: "(symlink to " + out, links: true},
		{name: "nonexistent under a directory symlink out", path: filepath.Join("dirlink-out", "new.go"), wantErr: ErrOutside,
			wantSub: "(directory links to " + out, links: true},
		// ".." is taken lexically, before symlinks: dirlink-out/.. is the root.
		{name: "dot dot after a directory symlink out", path: filepath.Join("dirlink-out", "..", "a.go"), want: "a.go", links: true},
		{name: "symlink loop", path: "loop", fails: true, links: true},
	}
}

// checkResolve runs rows through resolve, a Resolve.
func checkResolve(t *testing.T, resolve func(root, path string) (string, error), root string, links bool, rows []resolveRow) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			if tt.links && !links {
				t.Skip("no symlinks")
			}
			got, err := resolve(root, tt.path)
			switch {
			case tt.fails:
				if err == nil || errors.Is(err, ErrOutside) {
					t.Errorf("Resolve(%q) = %q, %v; want an error other than ErrOutside", tt.path, got, err)
				}
			case tt.wantErr == nil && tt.wantSub == "":
				want := filepath.Join(root, filepath.FromSlash(tt.want))
				if err != nil || got != want {
					t.Errorf("Resolve(%q) = %q, %v; want %q", tt.path, got, err, want)
				}
			case err == nil:
				t.Errorf("Resolve(%q) = %q; want an error (%v %q)", tt.path, got, tt.wantErr, tt.wantSub)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr), !strings.Contains(err.Error(), tt.wantSub):
				t.Errorf("Resolve(%q): %v; want %v, mentioning %q", tt.path, err, tt.wantErr, tt.wantSub)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	root, out, links := resolveTree(t)
	checkResolve(t, Resolve, root, links, resolveRows(root, out))
}

// TestRel: Rel, Inside and Display over one table of absolute paths below
// base, the file system root on Unix and a drive on Windows.
func TestRel(t *testing.T) {
	base := string(filepath.Separator)
	if v := filepath.VolumeName(os.TempDir()); v != "" {
		base = v + base
	}
	abs := func(s string) string { return filepath.Join(base, filepath.FromSlash(s)) }
	tests := []struct {
		root, path string
		rel        string // "" and !ok: not inside
		ok         bool
		display    string
	}{
		{abs("r"), abs("r/a/b.go"), "a/b.go", true, "a/b.go"},
		{abs("r"), abs("r"), ".", true, "."},
		{abs("r"), abs("r/..x.go"), "..x.go", true, "..x.go"},
		{abs("r"), abs("rx/b.go"), "", false, abs("rx/b.go")},
		{abs("r"), abs("b.go"), "", false, abs("b.go")},
		{abs("r/a"), abs("r/a/../b.go"), "", false, abs("r/a/../b.go")},
		{abs("r"), abs("r/a/../b.go"), "b.go", true, "b.go"},
		{base, abs("x/y.go"), "x/y.go", true, "x/y.go"},
		{base, base, ".", true, "."},
		{abs("r"), "rel/x.go", "", false, "rel/x.go"},
		{abs("r"), "", "", false, ""},
		{"", abs("r/a.go"), "", false, filepath.ToSlash(abs("r/a.go"))},
	}
	for _, tt := range tests {
		rel, ok := Rel(tt.root, tt.path)
		if rel != tt.rel || ok != tt.ok {
			t.Errorf("Rel(%q, %q) = %q, %v; want %q, %v", tt.root, tt.path, rel, ok, tt.rel, tt.ok)
		}
		if in := Inside(tt.root, tt.path); in != tt.ok {
			t.Errorf("Inside(%q, %q) = %v, want %v", tt.root, tt.path, in, tt.ok)
		}
		if got := Display(tt.root, tt.path); got != tt.display {
			t.Errorf("Display(%q, %q) = %q, want %q", tt.root, tt.path, got, tt.display)
		}
	}
}

// TestContains: the wide question asked of a program's path; a symlink
// either way, of the path or of the root, puts it inside.
func TestContains(t *testing.T) {
	root, out, links := resolveTree(t)
	if !links {
		t.Skip("no symlinks")
	}
	aliasRoot := filepath.Join(filepath.Dir(root), "alias")
	if err := os.Symlink(root, aliasRoot); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		root, p string
		want    bool
	}{
		{root, filepath.Join(root, "a.go"), true},
		{root, filepath.Join(root, "link-out.go"), true}, // the repository's own link
		{root, filepath.Join(out, "secret.go"), false},
		{aliasRoot, filepath.Join(root, "a.go"), true},
		{root, filepath.Join(aliasRoot, "a.go"), true},
		{root, filepath.Join(root, "no-such-file"), true},
	}
	for _, tt := range tests {
		if got := Contains(tt.root, tt.p); got != tt.want {
			t.Errorf("Contains(%s, %s) = %v, want %v", tt.root, tt.p, got, tt.want)
		}
	}
}

// TestContainsPrograms (lsp.InWorkspace's table on main): a program is
// the workspace's own when its path, or where its symlinks lead, is inside
// the workspace, whichever way the workspace itself is reached.
func TestContainsPrograms(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "out")
	testdir.WriteTree(t, ws, map[string]string{"bin/tool": "#!/bin/sh\n"})
	testdir.WriteTree(t, outside, map[string]string{"tool": "#!/bin/sh\n"})
	for link, target := range map[string]string{
		filepath.Join(ws, "bin", "sys"):     filepath.Join(outside, "tool"), // the repository's own link to anything
		filepath.Join(outside, "into"):      filepath.Join(ws, "bin", "tool"),
		filepath.Join(base, "ws-link"):      ws,
		filepath.Join(outside, "unrelated"): filepath.Join(outside, "tool"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symlinks: %v", err)
		}
	}
	t.Chdir(ws)
	tests := []struct {
		p, workspace string
		want         bool
	}{
		{filepath.Join(ws, "bin", "tool"), ws, true},
		{filepath.Join(ws, "bin", "sys"), ws, true},
		{filepath.Join(outside, "into"), ws, true},
		{filepath.Join(ws, "bin", "tool"), filepath.Join(base, "ws-link"), true},
		{"bin/tool", ws, true}, // relative, as a PATH entry "bin" finds it
		{filepath.Join(outside, "tool"), ws, false},
		{filepath.Join(outside, "unrelated"), ws, false},
		{ws + "-other/tool", ws, false},
	}
	for _, tt := range tests {
		if got := Contains(tt.workspace, tt.p); got != tt.want {
			t.Errorf("Contains(%s, %s) = %v, want %v", tt.workspace, tt.p, got, tt.want)
		}
	}
}
