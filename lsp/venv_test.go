package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestFindVirtualEnv: the environment is the nearest .venv or venv with a
// pyvenv.cfg from the server's root up to the workspace root, never above
// it, and none while one is activated (VIRTUAL_ENV).
func TestFindVirtualEnv(t *testing.T) {
	tmp := t.TempDir()
	wsRoot := filepath.Join(tmp, "ws")
	testdir.WriteTree(t, tmp, map[string]string{
		".venv/pyvenv.cfg":                "home = /usr/bin\n", // above the workspace
		"ws/.venv/pyvenv.cfg":             "home = /usr/bin\n",
		"ws/svc/venv/pyvenv.cfg":          "home = /usr/bin\n",
		"ws/svc/.venv/bin/python":         "", // no pyvenv.cfg: not an environment
		"ws/lib/pkg/pyproject.toml":       "",
		"ws/both/.venv/pyvenv.cfg":        "",
		"ws/both/venv/pyvenv.cfg":         "",
		"ws/dir-cfg/.venv/pyvenv.cfg/x":   "", // pyvenv.cfg a directory
		"other/.venv/pyvenv.cfg":          "",
		"other/proj/pyproject.toml":       "",
		"ws/deep/a/b/c/pyproject.toml":    "",
		"ws/deep/a/.venv/pyvenv.cfg":      "",
		"ws/deep/a/b/.venv/not-a-cfg.txt": "",
	})
	j := func(parts ...string) string { return filepath.Join(append([]string{tmp}, parts...)...) }
	none := func(string) string { return "" }
	for _, tc := range []struct {
		name, root string
		getenv     func(string) string
		want       string
	}{
		{"at the workspace root", j("ws"), none, j("ws", ".venv")},
		{"in a parent, the workspace root's", j("ws", "lib", "pkg"), none, j("ws", ".venv")},
		{"venv, the nearest; .venv without pyvenv.cfg skipped", j("ws", "svc"), none, j("ws", "svc", "venv")},
		{".venv before venv", j("ws", "both"), none, j("ws", "both", ".venv")},
		{"pyvenv.cfg a directory: not an environment", j("ws", "dir-cfg"), none, j("ws", ".venv")},
		{"the nearest of several parents", j("ws", "deep", "a", "b", "c"), none, j("ws", "deep", "a", ".venv")},
		{"activated: none", j("ws"), func(k string) string {
			if k == "VIRTUAL_ENV" {
				return "/home/u/.venvs/x"
			}
			return ""
		}, ""},
		{"a root outside the workspace", j("other", "proj"), none, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := findVirtualEnv(wsRoot, tc.root, tc.getenv); got != tc.want {
				t.Errorf("findVirtualEnv(%s, %s) = %q, want %q", wsRoot, tc.root, got, tc.want)
			}
		})
	}
	if got := findVirtualEnv(j("other"), j("other", "proj"), none); got != j("other", ".venv") {
		t.Errorf("another workspace: %q", got)
	}
}

// TestImportRoots: site-packages, then what its .pth files name, as the
// site module reads them: absolute and relative lines, comments, blank and
// import lines skipped, missing directories and repeats left out, files in
// name order.
func TestImportRoots(t *testing.T) {
	venv := filepath.Join(t.TempDir(), ".venv")
	site := filepath.Join(venv, "lib", "python3.12", "site-packages")
	if runtime.GOOS == "windows" {
		site = filepath.Join(venv, "Lib", "site-packages")
	}
	elsewhere := t.TempDir()
	rel, err := filepath.Rel(venv, site)
	if err != nil {
		t.Fatal(err)
	}
	testdir.WriteTree(t, venv, map[string]string{
		"pyvenv.cfg": "home = /usr/bin\n",
		filepath.ToSlash(filepath.Join(rel, "pkg", "__init__.py")): "",
		filepath.ToSlash(filepath.Join(rel, "b.pth")):              "# comment\n\n" + elsewhere + "\r\nimport sys; sys.path.insert(0, 'x')\nimport\tos\nrel\n" + filepath.Join(elsewhere, "missing") + "\n",
		filepath.ToSlash(filepath.Join(rel, "a.pth")):              elsewhere + "  \n",
		filepath.ToSlash(filepath.Join(rel, "rel", "mod.py")):      "",
		filepath.ToSlash(filepath.Join(rel, "c.pth", "x")):         "", // a directory named .pth: unreadable, skipped
	})
	want := []string{site, elsewhere, filepath.Join(site, "rel")}
	if got := importRoots(venv); !reflect.DeepEqual(got, want) {
		t.Errorf("importRoots = %q, want %q", got, want)
	}
	if got := importRoots(filepath.Join(t.TempDir(), "none")); got != nil {
		t.Errorf("importRoots of no environment = %q, want none", got)
	}
}

// TestWithListSetting: the directories go after what the list holds; the
// maps given are not modified; a missing path is made.
func TestWithListSetting(t *testing.T) {
	catalogue := map[string]any{"python": map[string]any{"analysis": map[string]any{"diagnosticMode": "openFilesOnly"}}}
	for _, tc := range []struct {
		name     string
		settings map[string]any
		want     map[string]any
	}{
		{"nil", nil, map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": []any{"/a", "/b"}}}}},
		{"the catalogue's", catalogue, map[string]any{"python": map[string]any{"analysis": map[string]any{
			"diagnosticMode": "openFilesOnly", "extraPaths": []any{"/a", "/b"}}}}},
		{"a list of the user's", map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": []any{"/u"}}}},
			map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": []any{"/u", "/a", "/b"}}}}},
		{"a []string", map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": []string{"/u"}}}},
			map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": []any{"/u", "/a", "/b"}}}}},
		{"not a list: replaced", map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": "/u"}}},
			map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": []any{"/a", "/b"}}}}},
		{"not a map on the way: replaced", map[string]any{"python": "x", "other": 1},
			map[string]any{"python": map[string]any{"analysis": map[string]any{"extraPaths": []any{"/a", "/b"}}}, "other": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := deepCopy(tc.settings)
			got := withListSetting(tc.settings, "python.analysis.extraPaths", []string{"/a", "/b"})
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("withListSetting = %v, want %v", got, tc.want)
			}
			if !reflect.DeepEqual(tc.settings, before) {
				t.Errorf("settings modified: %v, was %v", tc.settings, before)
			}
		})
	}
}

// deepCopy copies nested maps and lists of settings.
func deepCopy(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch v := v.(type) {
		case map[string]any:
			out[k] = deepCopy(v)
		case []any:
			out[k] = append([]any(nil), v...)
		case []string:
			out[k] = append([]string(nil), v...)
		default:
			out[k] = v
		}
	}
	return out
}

// FuzzPthDirs: whatever a .pth file holds, pthDirs neither fails nor
// returns a path that is not absolute and clean.
func FuzzPthDirs(f *testing.F) {
	f.Add([]byte("/abs/src\nrel\n# c\nimport os\n\n"))
	f.Add([]byte("\r\n\t\x00../../x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		site := t.TempDir()
		pth := filepath.Join(site, "f.pth")
		if err := os.WriteFile(pth, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, d := range pthDirs(site, pth) {
			if !filepath.IsAbs(d) || filepath.Clean(d) != d {
				t.Fatalf("pthDirs gave %q for %q", d, b)
			}
		}
	})
}

// TestVenvInterpreter: the interpreter of a virtual environment is where
// the venv module puts it (bin/python, Scripts\python.exe on Windows), a
// file or a link to one; a directory there, or nothing, is none.
func TestVenvInterpreter(t *testing.T) {
	rel := filepath.Join("bin", "python")
	if runtime.GOOS == "windows" {
		rel = filepath.Join("Scripts", "python.exe")
	}
	for _, tc := range []struct {
		name  string
		setup func(venv string) error
		want  bool
	}{
		{"the interpreter", func(venv string) error { return os.WriteFile(filepath.Join(venv, rel), []byte("x"), 0o755) }, true},
		{"nothing there", func(string) error { return nil }, false},
		{"a directory there", func(venv string) error { return os.Mkdir(filepath.Join(venv, rel), 0o755) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			venv := t.TempDir()
			if err := os.MkdirAll(filepath.Join(venv, filepath.Dir(rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tc.setup(venv); err != nil {
				t.Fatal(err)
			}
			got := venvInterpreter(venv)
			if want := filepath.Join(venv, rel); tc.want && got != want || !tc.want && got != "" {
				t.Errorf("venvInterpreter = %q, want %q (found: %v)", got, want, tc.want)
			}
		})
	}
}
