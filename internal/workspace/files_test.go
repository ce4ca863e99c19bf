package workspace

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// listTree is the Files table's tree: a root .gitignore with a negation
// and an ignored directory, a nested .gitignore, the fixed skips (.git,
// node_modules), directories only a watcher skips (vendor, dist: listed),
// a fixture (listed: Fixture is the caller's filter), a symlink (not
// listed), a name with a space.
var listTree = map[string]string{
	".gitignore":          "*.log\nbuild/\n!keep.log\n",
	"a.go":                "package a\n",
	"b.log":               "ignored\n",
	"keep.log":            "re-included\n",
	"build/gen.go":        "package gen\n",
	"node_modules/m/i.js": "x\n",
	"vendor/v/v.go":       "package v\n",
	"sub/.gitignore":      "local.txt\n/only-here.txt\n",
	"sub/local.txt":       "ignored below sub\n",
	"sub/only-here.txt":   "ignored\n",
	"sub/c.go":            "package sub\n",
	"sub/deep/local.txt":  "ignored below sub\n",
	"sub/dist/d.js":       "x\n",
	"only-here.txt":       "not ignored: the pattern is sub's\n",
	"testdata/x.go":       "package x\n",
	"with space.go":       "package a\n",
}

// listWant is what Files lists of listTree, in git or not.
var listWant = []string{".gitignore", "a.go", "keep.log", "only-here.txt", "sub/.gitignore", "sub/c.go",
	"sub/dist/d.js", "testdata/x.go", "vendor/v/v.go", "with space.go"}

// listRoots makes listTree twice, outside git and in a fresh repository
// (nothing committed: the listing is what git would add), and returns
// both roots by name.
func listRoots(t *testing.T) map[string]string {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", tmp)
	roots := map[string]string{"no git": filepath.Join(tmp, "plain")}
	if _, err := exec.LookPath("git"); err == nil {
		roots["git"] = filepath.Join(tmp, "repo")
	}
	for name, root := range roots {
		testdir.WriteTree(t, root, listTree)
		if err := os.Symlink("a.go", filepath.Join(root, "link.go")); err != nil {
			t.Logf("no symlinks: %v", err)
		}
		if name == "git" {
			gitIn(t, root, "init", "-q")
			gitIn(t, root, "add", "a.go")
		}
	}
	return roots
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
}

// filesFunc is the shape of Files.
type filesFunc func(ctx context.Context, root string, max int) ([]string, bool, error)

// checkFiles runs the Files table through files: in git and outside git
// the same files, and a cap that stops the listing at max.
func checkFiles(t *testing.T, files filesFunc) {
	t.Helper()
	for name, root := range listRoots(t) {
		t.Run(name, func(t *testing.T) {
			got, capped, err := files(context.Background(), root, 1<<20)
			slices.Sort(got)
			if err != nil || capped || !slices.Equal(got, listWant) {
				t.Errorf("Files = %q, capped %v, %v\nwant %q", got, capped, err, listWant)
			}
			got, capped, err = files(context.Background(), root, 3)
			if err != nil || !capped || len(got) != 3 {
				t.Errorf("Files(max 3) = %q, capped %v, %v; want 3 files, capped", got, capped, err)
			}
			got, capped, err = files(context.Background(), root, len(listWant))
			if err != nil || capped || len(got) != len(listWant) {
				t.Errorf("Files(max %d) = %q, capped %v, %v; want all, not capped", len(listWant), got, capped, err)
			}
		})
	}
}

// TestFiles: the table, and max 0 meaning no cap. On main,
// lsp.WorkspaceFiles fails both rows of the table: outside git it lists
// .gitignored files (b.log, sub/local.txt, sub/deep/local.txt,
// sub/only-here.txt) and leaves out vendor/ and sub/dist/, which its walk
// skipped as a watcher does; in git it lists node_modules/m/i.js and the
// symlink link.go. sidecar's listing failed the git row (node_modules).
func TestFiles(t *testing.T) {
	checkFiles(t, Files)
	for name, root := range listRoots(t) {
		if got, capped, err := Files(context.Background(), root, 0); err != nil || capped || !slices.Equal(got, listWant) {
			t.Errorf("%s: Files(max 0) = %q, capped %v, %v; want all", name, got, capped, err)
		}
	}
}

// TestFilesCancelled: a listing stops with its context.
func TestFilesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, root := range listRoots(t) {
		if _, _, err := Files(ctx, root, 0); err == nil {
			t.Errorf("%s: Files with a cancelled context succeeded", name)
		} else if name == "no git" && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Files with a cancelled context: %v, want context.Canceled", name, err)
		}
	}
}

func TestFixture(t *testing.T) {
	for rel, want := range map[string]bool{
		"testdata/x.json":     true,
		"a/testdata/b/c.go":   true,
		"vendor/m/m.go":       true,
		"vendor/m/m.ts":       false,
		"_old/x.go":           true,
		".hidden/x.go":        true,
		"a/_x.go":             true,
		"a/.x.go":             true,
		"a/_x.ts":             false,
		"testdata":            false, // a file of that name
		"src/main.go":         false,
		"src/testdatax/a.go":  false,
		"docs/_templates/a.j": false,
	} {
		if got := Fixture(rel); got != want {
			t.Errorf("Fixture(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestFind(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo, plain, worktree := filepath.Join(tmp, "repo"), filepath.Join(tmp, "plain"), filepath.Join(tmp, "wt")
	testdir.WriteTree(t, tmp, map[string]string{"repo/a/b/x": "", "plain/a/x": "", "wt/.git": "gitdir: elsewhere\n", "wt/s/x": ""})
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ dir, want string }{
		{filepath.Join(repo, "a", "b"), repo},
		{repo, repo},
		{filepath.Join(worktree, "s"), worktree}, // .git as a file
		{filepath.Join(repo, "a", "no-such-dir"), repo},
	}
	if os.Symlink(filepath.Join(repo, "a"), filepath.Join(tmp, "alias")) == nil {
		tests = append(tests, struct{ dir, want string }{filepath.Join(tmp, "alias", "b"), repo})
	}
	for _, tt := range tests {
		if got, err := Find(tt.dir); err != nil || got != tt.want {
			t.Errorf("Find(%s) = %q, %v; want %q", tt.dir, got, err, tt.want)
		}
	}
	// Without .git: the directory itself, unless the temporary directory
	// is inside a repository.
	sub := filepath.Join(plain, "a")
	if got, err := Find(sub); err != nil || got != sub && !strings.HasPrefix(sub, got+string(filepath.Separator)) {
		t.Errorf("Find(no git) = %q, %v; want %q or an ancestor repo", got, err, sub)
	}
	if InGit(filepath.Join(plain, "a")) != (func() bool { _, ok := gitTop(plain); return ok })() || !InGit(repo) {
		t.Errorf("InGit disagrees with Find")
	}
}

func TestRoot(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testdir.WriteTree(t, tmp, map[string]string{"repo/.git/HEAD": "", "repo/sub/f": ""})
	sub := filepath.Join(tmp, "repo", "sub")
	if got, err := Root(sub); err != nil || got != sub {
		t.Errorf("Root(%s) = %q, %v; want it as given, not its git top level", sub, got, err)
	}
	if os.Symlink(sub, filepath.Join(tmp, "alias")) == nil {
		if got, err := Root(filepath.Join(tmp, "alias")); err != nil || got != sub {
			t.Errorf("Root(alias) = %q, %v; want %q", got, err, sub)
		}
	}
	for _, bad := range []string{filepath.Join(sub, "f"), filepath.Join(tmp, "missing")} {
		if got, err := Root(bad); err == nil || !strings.Contains(err.Error(), "workspace root") {
			t.Errorf("Root(%s) = %q, %v; want an error naming the workspace root", bad, got, err)
		}
	}
	t.Chdir(sub)
	if got, err := Root(""); err != nil || got != filepath.Join(tmp, "repo") {
		t.Errorf(`Root("") in %s = %q, %v; want the git top level`, sub, got, err)
	}
}
