package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// aliasTree makes, in a temporary directory:
//
//	real/ws/sub/a.go     the workspace root is real/ws
//	link     → real      a link above the root (macOS's /tmp → /private/tmp)
//	wslink   → real/ws   a link to the root itself
//	real/ws/in → sub     a link below the root
//	elsewhere/           outside
//
// and returns the temporary directory (symlink-free) and the root.
func aliasTree(t *testing.T) (tmp, root string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(tmp, "real", "ws")
	testdir.WriteTree(t, tmp, map[string]string{"real/ws/sub/a.go": "package sub\n", "elsewhere/b.go": "package b\n"})
	for link, target := range map[string]string{
		filepath.Join(tmp, "link"):   filepath.Join(tmp, "real"),
		filepath.Join(tmp, "wslink"): root,
		filepath.Join(root, "in"):    "sub",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symlinks: %v", err)
		}
	}
	return tmp, root
}

// TestAlias: the spelling of the root a working directory gives, for each
// place the symlink can be, and the directories that give none.
func TestAlias(t *testing.T) {
	tmp, root := aliasTree(t)
	j := func(parts ...string) string { return filepath.Join(append([]string{tmp}, parts...)...) }
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"the root through a link above it", j("link", "ws"), j("link", "ws")},
		{"a directory below the root through a link above it", j("link", "ws", "sub"), j("link", "ws")},
		{"a link to the root itself", j("wslink"), j("wslink")},
		{"below a link to the root", j("wslink", "sub"), j("wslink")},
		{"uncleaned", j("link", "ws", "sub") + string(filepath.Separator) + ".", j("link", "ws")},
		{"the root as it is", root, ""},
		{"a link below the root", filepath.Join(root, "in"), ""},
		{"a link above the root, then one below it", j("link", "ws", "in"), ""},
		{"outside the root", j("elsewhere"), ""},
		{"the link's parent, above the root", j("link"), ""},
		{"does not exist", j("link", "ws", "nodir"), ""},
		{"relative", filepath.Join("link", "ws"), ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Alias(root, tc.dir); got != tc.want {
				t.Errorf("Alias(%s, %s) = %q, want %q", root, tc.dir, got, tc.want)
			}
		})
	}
}

// TestRespell: a path spelled through the alias gets the root's spelling,
// and Resolve then takes it; every other path is left as it is, and
// Resolve refuses what lies outside as before.
func TestRespell(t *testing.T) {
	tmp, root := aliasTree(t)
	alias := filepath.Join(tmp, "link", "ws")
	j := func(parts ...string) string { return filepath.Join(append([]string{tmp}, parts...)...) }
	for _, tc := range []struct {
		name, alias, path, want string
		outside                 bool // Resolve refuses the result as outside the workspace
	}{
		{"a file through the alias", alias, j("link", "ws", "sub", "a.go"), filepath.Join(root, "sub", "a.go"), false},
		{"the alias itself", alias, alias, root, false},
		{"a new file through the alias", alias, j("link", "ws", "new.go"), filepath.Join(root, "new.go"), false},
		{"through the alias, then a link below the root", alias, j("link", "ws", "in", "a.go"), filepath.Join(root, "in", "a.go"), false},
		{"dot dot out of the alias", alias, j("link", "ws", "..", "..", "elsewhere", "b.go"), j("link", "ws", "..", "..", "elsewhere", "b.go"), true},
		{"already in the root's spelling", alias, filepath.Join(root, "sub", "a.go"), filepath.Join(root, "sub", "a.go"), false},
		{"outside both", alias, j("elsewhere", "b.go"), j("elsewhere", "b.go"), true},
		{"a sibling with the alias as prefix", alias, alias + "x" + string(filepath.Separator) + "a.go", alias + "x" + string(filepath.Separator) + "a.go", true},
		{"relative", alias, filepath.Join("sub", "a.go"), filepath.Join("sub", "a.go"), false},
		{"no alias", "", j("link", "ws", "sub", "a.go"), j("link", "ws", "sub", "a.go"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Respell(root, tc.alias, tc.path)
			if got != tc.want {
				t.Fatalf("Respell(%s, %s, %s) = %q, want %q", root, tc.alias, tc.path, got, tc.want)
			}
			_, err := Resolve(root, got)
			if outside := err != nil; outside != tc.outside {
				t.Errorf("Resolve(%s, %s) = %v; want refused as outside: %v", root, got, err, tc.outside)
			}
		})
	}
}
