package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// relAll returns paths relative to root, slash-separated.
func relAll(t *testing.T, root string, paths []string) []string {
	t.Helper()
	out := []string{}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			t.Errorf("path %s is not absolute", p)
		}
		out = append(out, Display(root, p))
	}
	return out
}

func goOnly(p string) bool { return strings.HasSuffix(p, ".go") }

// ignoreTree is a tree whose .gitignore files exercise nested files,
// negation, anchoring and directory-only patterns.
var ignoreTree = map[string]string{
	".gitignore":          "# comment\n*.log\n!keep.log\n/build\ntmp/\n",
	"a.go":                "",
	"b.ts":                "",
	"keep.log":            "",
	"debug.log":           "",
	"build/out.go":        "",
	"sub/.gitignore":      "gen_*.go\r\n!gen_keep.go\r\n",
	"sub/c.go":            "",
	"sub/gen_x.go":        "",
	"sub/gen_keep.go":     "",
	"sub/build/d.go":      "", // /build is anchored at the root
	"sub/deep/e.go":       "",
	"sub/deep/tmp/f.go":   "", // tmp/ ignores a directory at any depth
	"docs/x.log.md":       "",
	"docs/[lit].go":       "", // an existing name with glob characters is a file
	"sub/deep/.gitignore": "!*.log\n",
	"sub/deep/trace.log":  "", // re-included by the deeper file
}

// ignoreKept is what ignoreTree keeps, .gitignore files aside.
var ignoreKept = []string{
	"a.go", "b.ts", "docs/[lit].go", "docs/x.log.md", "keep.log",
	"sub/build/d.go", "sub/c.go", "sub/deep/e.go", "sub/deep/trace.log", "sub/gen_keep.go",
}

func withoutGitignores(files []string) []string {
	return slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, ".gitignore") })
}

// TestCollectFilesIgnore: the listing honours .gitignore the same way in a
// git work tree (git ls-files) and outside one (the walk).
func TestCollectFilesIgnore(t *testing.T) {
	testdir.GitEnv(t)
	for _, mode := range []string{"git", "walk"} {
		t.Run(mode, func(t *testing.T) {
			root := testdir.Real(t)
			testdir.WriteTree(t, root, ignoreTree)
			if mode == "git" {
				testdir.Git(t, root, "init", "-q")
				testdir.Git(t, root, "add", "a.go", "sub/c.go") // a mix of tracked and untracked
				testdir.Git(t, root, "commit", "-q", "-m", "base")
			} else {
				testdir.WriteTree(t, root, map[string]string{"node_modules/m.go": ""})
			}
			if err := os.Symlink(filepath.Join(root, "a.go"), filepath.Join(root, "link.go")); err != nil {
				t.Fatal(err)
			}
			got, err := CollectFiles(context.Background(), FileQuery{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			if got := withoutGitignores(relAll(t, root, got)); !slices.Equal(got, ignoreKept) {
				t.Errorf("files:\n got %q\nwant %q", got, ignoreKept)
			}
		})
	}
}

// TestCollectFilesGitExcludes: .git/info/exclude counts, and a file deleted
// from the working tree but still in the index does not appear.
func TestCollectFilesGitExcludes(t *testing.T) {
	testdir.GitEnv(t)
	root := testdir.Real(t)
	testdir.WriteTree(t, root, map[string]string{"a.go": "", "gone.go": "", "secret.go": ""})
	testdir.Git(t, root, "init", "-q")
	testdir.Git(t, root, "add", "a.go", "gone.go")
	testdir.Git(t, root, "commit", "-q", "-m", "base")
	testdir.WriteTree(t, root, map[string]string{".git/info/exclude": "secret.go\n"})
	if err := os.Remove(filepath.Join(root, "gone.go")); err != nil {
		t.Fatal(err)
	}
	got, err := CollectFiles(context.Background(), FileQuery{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if got := relAll(t, root, got); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("files = %q, want [a.go]", got)
	}
}

// TestCollectFilesArgs: directories, globs and files as arguments, in both
// listing modes.
func TestCollectFilesArgs(t *testing.T) {
	testdir.GitEnv(t)
	tests := []struct {
		name string
		dir  string // relative to the root
		args []string
		want func(string) bool
		out  []string
		err  error // errors.Is; nil: no error
	}{
		{name: "whole root filtered", want: goOnly,
			out: []string{"a.go", "docs/[lit].go", "sub/build/d.go", "sub/c.go", "sub/deep/e.go", "sub/gen_keep.go"}},
		{name: "directory", args: []string{"sub/deep"},
			out: []string{"sub/deep/.gitignore", "sub/deep/e.go", "sub/deep/trace.log"}},
		{name: "directory from a subdirectory", dir: "sub", args: []string{"deep"}, want: goOnly,
			out: []string{"sub/deep/e.go"}},
		{name: "root by dot twice and a file", dir: "sub", args: []string{"..", ".", "c.go"}, want: goOnly,
			out: []string{"a.go", "docs/[lit].go", "sub/build/d.go", "sub/c.go", "sub/deep/e.go", "sub/gen_keep.go"}},
		{name: "doublestar glob", args: []string{"**/*.log"},
			out: []string{"keep.log", "sub/deep/trace.log"}},
		{name: "glob relative to dir", dir: "sub", args: []string{"*.go"},
			out: []string{"sub/c.go", "sub/gen_keep.go"}},
		{name: "absolute glob", args: []string{"/ROOT/sub/**/e.go"},
			out: []string{"sub/deep/e.go"}},
		{name: "brace glob", args: []string{"{a.go,b.ts}"},
			out: []string{"a.go", "b.ts"}},
		{name: "existing name with glob characters", args: []string{"docs/[lit].go"},
			out: []string{"docs/[lit].go"}},
		{name: "explicit ignored files kept", args: []string{"debug.log", "build/out.go", "sub/gen_x.go"}, want: goOnly,
			out: []string{"build/out.go", "debug.log", "sub/gen_x.go"}},
		{name: "explicit file beats want", args: []string{"b.ts"}, want: goOnly,
			out: []string{"b.ts"}},
		{name: "symlink named explicitly is its target", args: []string{"link.go"},
			out: []string{"a.go"}},
		{name: "ignored directory", args: []string{"build"}, err: ErrNoFiles},
		{name: "glob matching nothing", args: []string{"**/*.rs"}, err: ErrNoFiles},
		{name: "glob matching only ignored files", args: []string{"sub/gen_x*"}, err: ErrNoFiles},
		{name: "missing file", args: []string{"missing.go"}, err: fs.ErrNotExist},
		{name: "parent of root", args: []string{"../x.go"}, err: ErrOutside},
		{name: "absolute outside", args: []string{"/etc/hostname"}, err: ErrOutside},
		{name: "glob outside", args: []string{"../**/*.go"}, err: ErrOutside},
		{name: "symlink out of the root", args: []string{"out/x.go"}, err: ErrOutside},
	}
	for _, mode := range []string{"git", "walk"} {
		t.Run(mode, func(t *testing.T) {
			root := testdir.Real(t)
			testdir.WriteTree(t, root, ignoreTree)
			if mode == "git" {
				testdir.Git(t, root, "init", "-q")
			}
			if err := os.Symlink(filepath.Join(root, "a.go"), filepath.Join(root, "link.go")); err != nil {
				t.Fatal(err)
			}
			outside := t.TempDir()
			testdir.WriteTree(t, outside, map[string]string{"x.go": ""})
			if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
				t.Fatal(err)
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					var args []string
					for _, a := range tt.args {
						args = append(args, strings.ReplaceAll(a, "/ROOT", root))
					}
					q := FileQuery{Root: root, Dir: filepath.Join(root, tt.dir), Args: args, Want: tt.want}
					got, err := CollectFiles(context.Background(), q)
					if tt.err != nil {
						if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), args[len(args)-1]) {
							t.Fatalf("err = %v, want %v naming %s", err, tt.err, args[len(args)-1])
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if got := relAll(t, root, got); !slices.Equal(got, tt.out) {
						t.Errorf("files:\n got %q\nwant %q", got, tt.out)
					}
				})
			}
		})
	}
}

// branchRepo makes a repository where main has a.go…d.go, and branch
// feature (checked out) changed b.go, added h.go and deleted d.go, while
// main later changed c.go. The working tree then changes a.go, adds an
// untracked f.go and an ignored g.log, stages a new e.go, deletes b2.go
// and renames r.go to r2.go.
func branchRepo(t *testing.T) string {
	t.Helper()
	root := testdir.Real(t)
	testdir.Git(t, root, "init", "-q", "-b", "main")
	testdir.WriteTree(t, root, map[string]string{".gitignore": "*.log\n", "a.go": "a", "b.go": "b", "b2.go": "b2", "c.go": "c", "d.go": "d", "r.go": "r"})
	testdir.Git(t, root, "add", "-A")
	testdir.Git(t, root, "commit", "-q", "-m", "base")
	testdir.Git(t, root, "checkout", "-q", "-b", "feature")
	testdir.WriteTree(t, root, map[string]string{"b.go": "b changed", "h.go": "h"})
	testdir.Git(t, root, "rm", "-q", "d.go")
	testdir.Git(t, root, "add", "-A")
	testdir.Git(t, root, "commit", "-q", "-m", "feature")
	testdir.Git(t, root, "checkout", "-q", "main")
	testdir.WriteTree(t, root, map[string]string{"c.go": "c changed on main"})
	testdir.Git(t, root, "commit", "-q", "-am", "main moves on")
	testdir.Git(t, root, "checkout", "-q", "feature")
	testdir.WriteTree(t, root, map[string]string{"a.go": "a changed", "f.go": "f", "g.log": "g", "e.go": "e"})
	testdir.Git(t, root, "add", "e.go")
	testdir.Git(t, root, "mv", "r.go", "r2.go")
	if err := os.Remove(filepath.Join(root, "b2.go")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestCollectFilesChanged: --changed with the default base (uncommitted
// changes) and with an explicit one (since the merge-base).
func TestCollectFilesChanged(t *testing.T) {
	testdir.GitEnv(t)
	root := branchRepo(t)
	tests := []struct {
		name string
		base string
		args []string
		out  []string
	}{
		{name: "uncommitted", out: []string{"a.go", "e.go", "f.go", "r2.go"}},
		{name: "HEAD is the default", base: "HEAD", out: []string{"a.go", "e.go", "f.go", "r2.go"}},
		{name: "since the merge-base with main", base: "main", out: []string{"a.go", "b.go", "e.go", "f.go", "h.go", "r2.go"}},
		{name: "restricted by arguments", base: "main", args: []string{"a.go", "b.go", "c.go", "g.log"}, out: []string{"a.go", "b.go"}},
		{name: "restricted by a glob", base: "main", args: []string{"[a-e].go"}, out: []string{"a.go", "b.go", "e.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CollectFiles(context.Background(), FileQuery{Root: root, Changed: true, Base: tt.base, Args: tt.args})
			if err != nil {
				t.Fatal(err)
			}
			if got := relAll(t, root, got); !slices.Equal(got, tt.out) {
				t.Errorf("files:\n got %q\nwant %q", got, tt.out)
			}
		})
	}
}

// TestCollectFilesChangedErrors: bad bases, no git, and a repository
// without commits (where every file is new).
func TestCollectFilesChangedErrors(t *testing.T) {
	testdir.GitEnv(t)
	root := branchRepo(t)
	for _, base := range []string{"nosuchbranch", "-p", "main...HEAD"} {
		_, err := CollectFiles(context.Background(), FileQuery{Root: root, Changed: true, Base: base})
		if err == nil || !strings.Contains(err.Error(), base) {
			t.Errorf("base %q: err = %v, want an error naming it", base, err)
		}
	}

	plain := testdir.Real(t)
	testdir.WriteTree(t, plain, map[string]string{"a.go": ""})
	if _, err := CollectFiles(context.Background(), FileQuery{Root: plain, Changed: true}); !errors.Is(err, ErrNotGit) {
		t.Errorf("no git: err = %v, want ErrNotGit", err)
	}

	unborn := testdir.Real(t)
	testdir.WriteTree(t, unborn, map[string]string{"a.go": "", "sub/b.go": "", ".gitignore": "*.log\n", "x.log": ""})
	testdir.Git(t, unborn, "init", "-q")
	testdir.Git(t, unborn, "add", "a.go")
	got, err := CollectFiles(context.Background(), FileQuery{Root: unborn, Changed: true, Want: goOnly})
	if err != nil {
		t.Fatal(err)
	}
	if got := relAll(t, unborn, got); !slices.Equal(got, []string{"a.go", "sub/b.go"}) {
		t.Errorf("no commits: files = %q, want [a.go sub/b.go]", got)
	}
}

// TestCollectFilesShards: the shards of a real listing are disjoint and
// together are the unsharded listing.
func TestCollectFilesShards(t *testing.T) {
	testdir.GitEnv(t)
	root := testdir.Real(t)
	tree := map[string]string{}
	for i := range 60 {
		tree[fmt.Sprintf("pkg%d/f%d.go", i%7, i)] = ""
	}
	testdir.WriteTree(t, root, tree)
	all, err := CollectFiles(context.Background(), FileQuery{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var union []string
	for k := 1; k <= 4; k++ {
		part, err := CollectFiles(context.Background(), FileQuery{Root: root, Shard: k, Shards: 4})
		if err != nil {
			t.Fatal(err)
		}
		union = append(union, part...)
	}
	slices.Sort(union)
	if !slices.Equal(union, all) {
		t.Errorf("shards 1..4 together hold %d files (with overlaps if more), want the %d of the listing", len(union), len(all))
	}
	if _, err := CollectFiles(context.Background(), FileQuery{Root: root, Shard: 5, Shards: 4}); err == nil {
		t.Error("shard 5/4 accepted")
	}
}

// TestShardOf: over 1000 names and every N up to 8, each name is in exactly
// one shard, shards are roughly even, and a name's shard does not depend on
// the other names (pinned values guard against an accidental change of
// hash, which would reshuffle every CI matrix).
func TestShardOf(t *testing.T) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("src/module%d/file_%d.ts", i%37, i)
	}
	for n := 1; n <= 8; n++ {
		count := make([]int, n+1)
		for _, name := range names {
			in := 0
			for k := 1; k <= n; k++ {
				if shardOf(name, n) == k {
					in++
					count[k]++
				}
			}
			if in != 1 {
				t.Fatalf("%s is in %d of %d shards", name, in, n)
			}
		}
		for k := 1; k <= n; k++ {
			if even := len(names) / n; count[k] < even*2/3 || count[k] > even*4/3 {
				t.Errorf("shard %d/%d holds %d of %d names, far from %d", k, n, count[k], len(names), even)
			}
		}
	}
	for _, tt := range []struct {
		rel  string
		n, k int
	}{
		{"a.go", 3, 3}, {"src/main.go", 4, 2}, {"README.md", 5, 3},
	} {
		if got := shardOf(tt.rel, tt.n); got != tt.k {
			t.Errorf("shardOf(%q, %d) = %d, want %d", tt.rel, tt.n, got, tt.k)
		}
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		k, n int
		err  string // substring; "" for success
	}{
		{in: "1/1", k: 1, n: 1},
		{in: "2/5", k: 2, n: 5},
		{in: " 3/3 ", k: 3, n: 3},
		{in: "0/3", err: "K must be from 1 to 3"},
		{in: "4/3", err: "K must be from 1 to 3"},
		{in: "1/0", err: "N must be at least 1"},
		{in: "-1/3", err: "K must be from 1 to 3"},
		{in: "x", err: "want K/N"},
		{in: "1/x", err: "want K/N"},
		{in: "", err: "want K/N"},
		{in: "1/2/3", err: "want K/N"},
	}
	for _, tt := range tests {
		k, n, err := ParseShard(tt.in)
		switch {
		case tt.err == "" && (err != nil || k != tt.k || n != tt.n):
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %d, %d", tt.in, k, n, err, tt.k, tt.n)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.in))):
			t.Errorf("ParseShard(%q) error = %v, want one naming the input and saying %q", tt.in, err, tt.err)
		}
	}
}

// TestCollectFilesFixtures: with SkipFixtures, a directory or glob passes
// over testdata directories and the Go files the go command ignores, below
// what it names; naming a fixture directory, a glob into one, or a file
// takes them.
func TestCollectFilesFixtures(t *testing.T) {
	testdir.GitEnv(t)
	tree := map[string]string{
		"a.go":                         "",
		"conf.json":                    "",
		"pkg/b.go":                     "",
		"pkg/testdata/bad.go":          "",
		"pkg/testdata/bad.json":        "",
		"testdata/src/x/x.go":          "",
		"vendor/m/m.go":                "",
		"vendor/modules.txt":           "",
		"_examples/e.go":               "",
		"_examples/e.json":             "",
		".github/workflows/ci.yml":     "",
		".hidden/h.go":                 "",
		"pkg/_gen.go":                  "",
		"tools/mytestdata/ok.go":       "",
		"internal/testdata.go":         "", // a file named testdata is not a directory
		"internal/testdata/golden.txt": "",
	}
	tests := []struct {
		name string
		args []string
		skip bool
		out  []string
		err  error
	}{
		{name: "whole root, fixtures kept", skip: false, out: []string{
			".github/workflows/ci.yml", ".hidden/h.go", "_examples/e.go", "_examples/e.json", "a.go", "conf.json",
			"internal/testdata.go", "internal/testdata/golden.txt", "pkg/_gen.go", "pkg/b.go", "pkg/testdata/bad.go",
			"pkg/testdata/bad.json", "testdata/src/x/x.go", "tools/mytestdata/ok.go", "vendor/m/m.go", "vendor/modules.txt"}},
		{name: "whole root, fixtures skipped", skip: true, out: []string{
			".github/workflows/ci.yml", "_examples/e.json", "a.go", "conf.json", "internal/testdata.go",
			"pkg/b.go", "tools/mytestdata/ok.go", "vendor/modules.txt"}},
		{name: "directory above a fixture", args: []string{"pkg"}, skip: true, out: []string{"pkg/b.go"}},
		{name: "fixture directory named", args: []string{"pkg/testdata"}, skip: true,
			out: []string{"pkg/testdata/bad.go", "pkg/testdata/bad.json"}},
		{name: "directory inside a fixture", args: []string{"testdata/src"}, skip: true, out: []string{"testdata/src/x/x.go"}},
		{name: "ignored Go directory named", args: []string{"_examples"}, skip: true, out: []string{"_examples/e.go", "_examples/e.json"}},
		{name: "glob over fixtures", args: []string{"**/*.go"}, skip: true,
			out: []string{"a.go", "internal/testdata.go", "pkg/b.go", "tools/mytestdata/ok.go"}},
		{name: "glob into a fixture directory", args: []string{"pkg/testdata/*.json"}, skip: true,
			out: []string{"pkg/testdata/bad.json"}},
		{name: "file named", args: []string{"vendor/m/m.go"}, skip: true, out: []string{"vendor/m/m.go"}},
		{name: "glob selecting only fixtures", args: []string{"**/bad.*"}, skip: true, err: ErrNoFiles},
	}
	for _, mode := range []string{"git", "walk"} {
		t.Run(mode, func(t *testing.T) {
			root := testdir.Real(t)
			testdir.WriteTree(t, root, tree)
			if mode == "git" {
				testdir.Git(t, root, "init", "-q")
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got, err := CollectFiles(context.Background(), FileQuery{Root: root, Args: tt.args, SkipFixtures: tt.skip})
					if tt.err != nil {
						if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), "2 test fixtures skipped") {
							t.Fatalf("err = %v, want %v saying 2 fixtures were skipped", err, tt.err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					if got := relAll(t, root, got); !slices.Equal(got, tt.out) {
						t.Errorf("files:\n got %q\nwant %q", got, tt.out)
					}
				})
			}
		})
	}
}

// TestDeleted: the tracked files gone since HEAD (deleted from disk, the
// old name of a rename) or since the merge-base with a branch (deleted in
// a commit of this branch too).
func TestDeleted(t *testing.T) {
	testdir.GitEnv(t)
	root := branchRepo(t)
	for base, want := range map[string][]string{"": {"b2.go", "r.go"}, "main": {"b2.go", "d.go", "r.go"}} {
		got, err := Deleted(context.Background(), root, base)
		slices.Sort(got)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Deleted(%q) = %q, %v; want %q", base, got, err, want)
		}
	}
}

// TestCollectFilesImporters: with Changed, Importers is given the changed
// files selected and the deleted ones, and what it returns is added when
// the arguments select it — not an ignored file, not one outside the
// root, not one the arguments leave out.
func TestCollectFilesImporters(t *testing.T) {
	testdir.GitEnv(t)
	root := branchRepo(t)
	// A changed file nothing checks (Want refuses it): given whatever the
	// arguments select, since it can break what they select.
	testdir.WriteTree(t, root, map[string]string{"flags.txt": "-I.\n"})
	want := func(p string) bool { return strings.HasSuffix(p, ".go") }
	abs := func(rel string) string { return filepath.Join(root, rel) }
	var given []string
	importers := func(_ context.Context, changed []string) ([]string, error) {
		given = changed
		return []string{abs("c.go"), abs("g.log"), filepath.Join(filepath.Dir(root), "x.go")}, nil
	}
	for _, tt := range []struct {
		name  string
		args  []string
		out   []string
		given []string
	}{
		{"the whole root", nil, []string{"a.go", "b.go", "c.go", "e.go", "f.go", "h.go", "r2.go"},
			[]string{"a.go", "b.go", "b2.go", "d.go", "e.go", "f.go", "flags.txt", "h.go", "r.go", "r2.go"}},
		{"arguments leave the importer out", []string{"a.go"}, []string{"a.go"}, []string{"a.go", "b2.go", "d.go", "flags.txt", "r.go"}},
	} {
		got, err := CollectFiles(context.Background(), FileQuery{Root: root, Changed: true, Base: "main", Args: tt.args, Importers: importers, Want: want})
		if err != nil {
			t.Fatal(err)
		}
		if got := relAll(t, root, got); !slices.Equal(got, tt.out) {
			t.Errorf("%s: files\n got %q\nwant %q", tt.name, got, tt.out)
		}
		if got := relAll(t, root, given); !slices.Equal(got, tt.given) {
			t.Errorf("%s: Importers given\n got %q\nwant %q", tt.name, got, tt.given)
		}
	}
}
