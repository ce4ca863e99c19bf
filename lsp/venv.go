package lsp

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file gives a Python type checker the packages of the project's
// virtual environment (config.Server.VirtualEnvSetting). pyright resolves
// imports against the interpreter it finds: one named in its settings or
// config file, else the first python on PATH. A project whose packages
// live in .venv (uv, poetry's in-project environments, python -m venv)
// and whose environment is not activated where the agent runs gets, from
// every import of them, "Import could not be resolved" — and every type
// that comes from them is Unknown, so the errors they would show are
// missing: a ghost and a false clean at once. `pyright --pythonpath
// .venv/bin/python` reports what the project has.
//
// Naming the environment's interpreter (python.pythonPath) has pyright
// run it to list its paths, and a workspace's program runs only once the
// workspace is trusted (config.Config.WorkspaceTrusted). The
// environment's directories are read instead, as CPython's site module
// would find them (docs.python.org/3/library/site.html): its
// site-packages, and the directories its .pth files name; nothing runs.
// An interpreter is named too (config.Server.VirtualEnvInterpreterSetting):
// a project's pyright config that sets its own extraPaths replaces the
// directories given, not the interpreter's paths. In a trusted workspace
// it is the environment's own; otherwise a stand-in that gives the
// directories read and runs nothing of the workspace (standin.go).

// virtualEnvDirs are the directory names a project's virtual environment
// goes by: uv's and poetry's in-project default, and the venv module's
// documented example.
var virtualEnvDirs = []string{".venv", "venv"}

// maxPthFiles and maxPthSize bound what importRoots reads of .pth files:
// how many per site-packages directory, and the bytes of each.
const (
	maxPthFiles = 64
	maxPthSize  = 64 << 10
)

// findVirtualEnv returns the virtual environment of a server rooted at
// root in the workspace at wsRoot: the first of root and its parents up to
// wsRoot holding a directory of virtualEnvDirs with a pyvenv.cfg (PEP 405:
// what makes a directory a virtual environment). "" when there is none,
// or when getenv("VIRTUAL_ENV") is set: an environment activated where the
// agent runs is the first python on the server's PATH already.
func findVirtualEnv(wsRoot, root string, getenv func(string) string) string {
	if getenv("VIRTUAL_ENV") != "" {
		return ""
	}
	for dir := root; ; dir = filepath.Dir(dir) {
		if !ws.Inside(wsRoot, dir) {
			return ""
		}
		for _, name := range virtualEnvDirs {
			venv := filepath.Join(dir, name)
			if fi, err := os.Stat(filepath.Join(venv, "pyvenv.cfg")); err == nil && fi.Mode().IsRegular() {
				return venv
			}
		}
		if dir == wsRoot || dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// importRoots returns the directories Python imports from in the virtual
// environment venv, beyond the standard library: each site-packages
// directory (lib/python3.X/site-packages, or Lib/site-packages on
// Windows), each followed by the existing directories its .pth files name
// (at most maxPthFiles files of at most maxPthSize bytes, in name order,
// as the site module reads them: a line is a path, absolute or relative to
// the site-packages directory; blank lines, comments and "import" lines
// are skipped). No directory appears twice.
func importRoots(venv string) []string {
	pattern := filepath.Join(venv, "lib", "*", "site-packages")
	if runtime.GOOS == "windows" {
		pattern = filepath.Join(venv, "Lib", "site-packages")
	}
	sites, _ := filepath.Glob(pattern) // the pattern is well formed
	slices.Sort(sites)
	var roots []string
	add := func(dir string) {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() && !slices.Contains(roots, dir) {
			roots = append(roots, dir)
		}
	}
	for _, site := range sites {
		add(site)
		pths, _ := filepath.Glob(filepath.Join(site, "*.pth"))
		slices.Sort(pths)
		for _, pth := range pths[:min(len(pths), maxPthFiles)] {
			for _, dir := range pthDirs(site, pth) {
				add(dir)
			}
		}
	}
	return roots
}

// pthDirs returns the paths a .pth file in the site-packages directory
// site names, made absolute and cleaned; nothing when it cannot be read
// (safefile: never a FIFO, at most maxPthSize bytes).
func pthDirs(site, pth string) []string {
	b, err := safefile.ReadFollow(pth, maxPthSize)
	if err != nil {
		return nil
	}
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "import\t") {
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(site, line)
		}
		dirs = append(dirs, filepath.Clean(line))
	}
	return dirs
}

// venvInterpreter returns the interpreter of the virtual environment
// venv: bin/python, or Scripts\python.exe on Windows (the venv module's
// layout); "" when it is not there.
func venvInterpreter(venv string) string {
	py := filepath.Join(venv, "bin", "python")
	if runtime.GOOS == "windows" {
		py = filepath.Join(venv, "Scripts", "python.exe")
	}
	if fi, err := os.Stat(py); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return py
}

// withListSetting returns settings with dirs appended to the list at the
// dotted key (python.analysis.extraPaths), after what it holds; the maps
// on the way are copied, so settings, the catalogue's or the config's, is
// not modified. A value at the key that is not a list is replaced: the
// server would refuse it anyway.
func withListSetting(settings map[string]any, key string, dirs []string) map[string]any {
	return withSetting(settings, key, func(old any) any {
		var list []any
		switch l := old.(type) {
		case []any:
			list = slices.Clone(l)
		case []string:
			for _, s := range l {
				list = append(list, s)
			}
		}
		for _, d := range dirs {
			list = append(list, d)
		}
		return list
	})
}

// withSetting returns settings with the value at the dotted key replaced
// by what value makes of the one there (nil when none); the maps on the
// way are copied, so settings is not modified.
func withSetting(settings map[string]any, key string, value func(old any) any) map[string]any {
	parts := strings.Split(key, ".")
	out := copyMap(settings)
	cur := out
	for _, p := range parts[:len(parts)-1] {
		next, _ := cur[p].(map[string]any)
		next = copyMap(next)
		cur[p] = next
		cur = next
	}
	last := parts[len(parts)-1]
	cur[last] = value(cur[last])
	return out
}

// copyMap is a shallow copy of m; an empty map for nil.
func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
