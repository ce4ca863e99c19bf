package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// TestPythonVirtualEnv: a Python project whose packages live in its .venv
// (uv's layout), not activated where the agent runs. What the hook shows
// must be what pyright's CLI reports when told the environment (its own
// config: venvPath and venv): no "Import could not be resolved" for the
// packages installed there — a plain one, and one installed editable, in
// a directory a .pth file names — and the type errors their types give,
// which an unresolved import hides (its names are Unknown).
func TestPythonVirtualEnv(t *testing.T) {
	e2e(t)
	requireExe(t, "pyright-langserver")
	w := newWorkspaceOf(t, "langs/py", "", []string{"PATH=" + langPath()})
	elsewhere := t.TempDir() // an editable install's sources, outside the workspace
	testdir.WriteTree(t, elsewhere, map[string]string{
		"src/editpkg/__init__.py": "def name() -> str:\n    return \"e\"\n",
	})
	site := ".venv/lib/python3.11/site-packages/"
	testdir.WriteTree(t, w.root, map[string]string{
		".venv/pyvenv.cfg":                "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n",
		site + "typedpkg/__init__.py":     "def count() -> int:\n    return 1\n",
		site + "_editpkg.pth":             "# an editable install (uv, hatch)\n" + filepath.Join(elsewhere, "src") + "\n",
		site + "distutils-precedence.pth": "import os; var = 'SETUPTOOLS_USE_DISTUTILS'\n",
	})
	const clean = "import typedpkg\nimport editpkg\n\nn: int = typedpkg.count()\ns: str = editpkg.name()\n"
	steps := []struct {
		name, text string
		errors     int // pyright's, told the environment
	}{
		{"imports of the environment's packages", clean, 0},
		{"a type error through a package of the environment", clean + "bad: str = typedpkg.count()\n", 1},
		{"a type error through the editable package", clean + "worse: int = editpkg.name()\n", 1},
		{"fixed", clean, 0},
	}
	for i, st := range steps {
		event := w.edit("s", "app.py", st.text)
		if i == 0 {
			event = w.write("s", "app.py", st.text)
		}
		block := w.hook(event)
		truth := pyErrorsInEnv(t, w.root)
		if len(truth) != st.errors {
			t.Fatalf("%s: pyright reports %v, want %d errors", st.name, truth, st.errors)
		}
		if p := judge(t, w.root, block, truth); p != "" || strings.Contains(block, "could not be resolved") || strings.Contains(block, "lsp-hook:") {
			t.Errorf("%s: %s\nhook:\n%s", st.name, p, indent(block))
		}
	}
	st, ok := w.status()
	i := slices.IndexFunc(st.Servers, func(s lsp.ServerStatus) bool { return s.Name == "pyright" })
	if !ok || i < 0 || st.Servers[i].VirtualEnv != filepath.Join(w.root, ".venv") {
		t.Errorf("status: running %v, servers %+v; want pyright with the virtual environment %s", ok, st.Servers, filepath.Join(w.root, ".venv"))
	}
}

// pyErrorsInEnv runs the pyright CLI on a copy of dir told its virtual
// environment, .venv, the way pyright's docs say (configuration.md: venvPath
// and venv in pyrightconfig.json, which it reads without running the
// environment's interpreter), and returns the errors it reports.
func pyErrorsInEnv(t *testing.T, dir string) []compilerErr {
	t.Helper()
	cp := t.TempDir()
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cp, "pyrightconfig.json"), []byte(`{"venvPath": ".", "venv": ".venv"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return pyErrors(t, cp)
}

// TestPythonVirtualEnvMadeLater: the agent writes code, then makes the
// project's environment (`uv sync` makes .venv) while pyright runs. The
// checks after it are what pyright's CLI, told the environment, reports:
// the server starts again with it, instead of keeping "could not be
// resolved" for the rest of the session.
func TestPythonVirtualEnvMadeLater(t *testing.T) {
	e2e(t)
	requireExe(t, "pyright-langserver")
	w := newWorkspaceOf(t, "langs/py", "", []string{"PATH=" + langPath()})
	const app = "import typedpkg\n\nn: int = typedpkg.count()\n"
	block := w.hook(w.write("s", "app.py", app))
	if truth := pyErrors(t, w.root); len(truth) != 1 || judge(t, w.root, block, truth) != "" {
		t.Fatalf("before the environment: pyright reports %v; hook:\n%s", truth, indent(block))
	}
	testdir.WriteTree(t, w.root, map[string]string{
		".venv/pyvenv.cfg": "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n",
		".venv/lib/python3.11/site-packages/typedpkg/__init__.py": "def count() -> int:\n    return 1\n",
	})
	w.judgeEdits(t, "app.py", []judgedStep{ // pyright's errors, told the environment
		{"an edit after the environment was made", app + "bad: str = typedpkg.count()\n", 1},
		{"fixed", app, 0},
	}, func() []compilerErr { return pyErrorsInEnv(t, w.root) }, "could not be resolved")
}

// TestPythonVirtualEnvProjectPaths: a project whose own pyright config
// sets extraPaths, which replace the environment's directories lsp-hook
// gives; in a trusted workspace pyright is named the environment's
// interpreter too, which it asks for its paths, so the imports of the
// environment's packages still resolve. Judged by pyright's CLI told the
// environment (venvPath and venv beside the project's extraPaths). The
// environment is a real one, as `python3 -m venv` makes it: bin/python a
// link to the interpreter of the python3 on PATH.
func TestPythonVirtualEnvProjectPaths(t *testing.T) {
	e2e(t)
	requireExe(t, "pyright-langserver")
	for _, trusted := range []bool{true, false} {
		name := map[bool]string{true: "trusted", false: "untrusted"}[trusted]
		t.Run(name, func(t *testing.T) { virtualEnvProjectPaths(t, trusted) })
	}
}

func virtualEnvProjectPaths(t *testing.T, trusted bool) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	// The interpreter itself, not a launcher (pyenv's shims are scripts):
	// a venv's bin/python links to it.
	out, err := exec.Command(python, "-c", `import os, sys; print(os.path.realpath(sys.executable)); print("python%d.%d" % sys.version_info[:2])`).Output()
	if err != nil {
		t.Fatalf("asking %s its path and version: %v", python, err)
	}
	python, version, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	w := newWorkspaceOf(t, "langs/py", "", []string{"PATH=" + langPath()})
	site := ".venv/lib/" + version + "/site-packages/"
	testdir.WriteTree(t, w.root, map[string]string{
		"pyrightconfig.json":          `{"extraPaths": ["src"]}`,
		"src/localpkg/__init__.py":    "def here() -> str:\n    return \"h\"\n",
		".venv/pyvenv.cfg":            "home = " + filepath.Dir(python) + "\ninclude-system-site-packages = false\n",
		site + "typedpkg/__init__.py": "def count() -> int:\n    return 1\n",
	})
	if err := os.MkdirAll(filepath.Join(w.root, ".venv", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(python, filepath.Join(w.root, ".venv", "bin", "python")); err != nil {
		t.Fatal(err)
	}
	if trusted {
		if r := w.run("", nil, "trust"); r.exit != 0 {
			t.Fatalf("lsp-hook trust: exit %d, %s", r.exit, r.stderr)
		}
	}
	const clean = "import typedpkg\nimport localpkg\n\nn: int = typedpkg.count()\nh: str = localpkg.here()\n"
	// The judge: pyright's CLI told the environment beside the project's
	// own extraPaths, on a copy.
	truth := func() []compilerErr {
		cp := t.TempDir()
		if err := os.CopyFS(cp, os.DirFS(w.root)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cp, "pyrightconfig.json"), []byte(`{"extraPaths": ["src"], "venvPath": ".", "venv": ".venv"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return pyErrors(t, cp)
	}
	w.judgeEdits(t, "app.py", []judgedStep{
		{"imports of the environment and of the project's extra path", clean, 0},
		{"a type error through a package of the environment", clean + "bad: str = typedpkg.count()\n", 1},
		{"fixed", clean, 0},
	}, truth, "could not be resolved")
}

// TestPythonUvWorkspace: a uv workspace (testdata/uv-workspace) whose
// members are installed editable into the root's .venv, as `uv sync`
// leaves them (a .pth file per member naming its src directory). An edit
// of core that breaks its caller in app lists it, as pyright's CLI, run
// at the workspace's root and told the environment, reports it; the fix
// lists nothing. With a server per member, and members' src directories
// not searched for importers, the edit was answered clean.
func TestPythonUvWorkspace(t *testing.T) {
	e2e(t)
	requireExe(t, "pyright-langserver")
	w := newWorkspaceOf(t, "uv-workspace", "", []string{"PATH=" + langPath()})
	site := ".venv/lib/python3.11/site-packages/"
	testdir.WriteTree(t, w.root, map[string]string{
		".venv/pyvenv.cfg": "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n",
		site + "_core.pth": filepath.Join(w.root, "packages", "core", "src") + "\n",
		site + "_app.pth":  filepath.Join(w.root, "packages", "app", "src") + "\n",
		".gitignore":       ".venv\n",
	})
	const core = "packages/core/src/core/__init__.py"
	original := mustRead(t, filepath.Join(w.root, filepath.FromSlash(core)))
	w.judgeEdits(t, core, []judgedStep{ // pyright's errors, told the environment
		{"a comment", original + "# unchanged API\n", 0},
		{"greet takes an int", strings.Replace(strings.Replace(original, "name: str)", "name: int)", 1), `+ name`, `+ str(name)`, 1), 1},
		{"fixed", original, 0},
	}, func() []compilerErr { return pyErrorsInEnv(t, w.root) })
	st, ok := w.status()
	if !ok {
		t.Fatal("no daemon answers status after the edits")
	}
	w.oneServer(st, "pyright")
}

// TestPythonConfiguredPaths: a monorepo whose pyrightconfig.json puts a
// library's directory on the import path (extraPaths); an app elsewhere
// imports it. An edit of the library that breaks the app lists it, as
// pyright's CLI at the root reports it; the fix lists nothing. With the
// configured paths not searched for importers, the edit was answered
// clean.
func TestPythonConfiguredPaths(t *testing.T) {
	e2e(t)
	requireExe(t, "pyright-langserver")
	w := newWorkspaceOf(t, "langs/py", "", []string{"PATH=" + langPath()})
	const lib = "libs/core/acme_core/__init__.py"
	original := "\"\"\"The core library.\"\"\"\n\n\ndef greet(name: str) -> str:\n    \"\"\"Return a greeting.\"\"\"\n    return \"hello, \" + name\n"
	testdir.WriteTree(t, w.root, map[string]string{
		"pyrightconfig.json": "{\n  // the libraries apps import\n  \"extraPaths\": [\"libs/core\"],\n}\n",
		lib:                  original,
		"apps/web/main.py":   "\"\"\"The web app.\"\"\"\n\nfrom acme_core import greet\n\nmessage: str = greet(\"web\")\n",
	})
	w.judgeEdits(t, lib, []judgedStep{ // pyright's errors
		{"a comment", original + "# unchanged API\n", 0},
		{"greet takes an int", strings.Replace(strings.Replace(original, "name: str)", "name: int)", 1), "+ name", "+ str(name)", 1), 1},
		{"fixed", original, 0},
	}, func() []compilerErr { return pyErrors(t, w.root) })
}
