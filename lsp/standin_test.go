//go:build unix

package lsp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestStandIn: the stand-in environment's interpreter, run as pyright
// runs it (-I), has the directories read from the project's environment
// on sys.path and the stand-in as its prefix, and nothing of the
// workspace ran; Shutdown removes it. Judged by the python on PATH
// itself.
func TestStandIn(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	ws := tempDir(t)
	testdir.WriteTree(t, ws, map[string]string{
		".venv/pyvenv.cfg": "home = /nowhere\nversion = 3.99.1\n", // no python3.99: python3 is found
		".venv/lib/python3.99/site-packages/pkg/__init__.py": "",
		".venv/lib/python3.99/site-packages/_editable.pth":   filepath.Join(ws, "src") + "\nimport os; os.mkdir('ran')\n",
		"src/mine/__init__.py":                               "",
	})
	venv := filepath.Join(ws, ".venv")
	roots := importRoots(venv)
	m := NewManager(config.Default(), ws, testLogger(t))
	py, err := m.standIn(venv, ws, roots)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-I", "-c", `import json, sys; json.dump(dict(path=sys.path, prefix=sys.prefix), sys.stdout)`)
	cmd.Dir = ws
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the stand-in %s: %v", py, err)
	}
	var got struct {
		Path   []string `json:"path"`
		Prefix string   `json:"prefix"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	for _, dir := range roots {
		if !slices.Contains(got.Path, dir) {
			t.Errorf("sys.path %v lacks %s", got.Path, dir)
		}
	}
	if len(roots) != 2 {
		t.Errorf("roots = %v, want the site-packages and src", roots)
	}
	if want := filepath.Dir(filepath.Dir(py)); got.Prefix != want {
		t.Errorf("sys.prefix = %s, want the stand-in %s", got.Prefix, want)
	}
	if _, err := os.Stat(filepath.Join(ws, "ran")); err == nil {
		t.Error("an import line of the workspace's .pth ran")
	}
	m.Shutdown()
	if _, err := os.Stat(py); !os.IsNotExist(err) {
		t.Errorf("after Shutdown, the stand-in %s: %v, want it gone", py, err)
	}
}
