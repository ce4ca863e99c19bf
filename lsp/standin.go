package lsp

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/lazyre"
	"github.com/lsp-hook/lsp-hook/internal/safefile"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file names pyright an interpreter in a workspace not trusted yet
// (config.Server.VirtualEnvInterpreterSetting). A project whose own
// pyright config sets extraPaths (pyrightconfig.json, [tool.pyright])
// replaces the extra paths lsp-hook gives for its virtual environment
// (venv.go), and every import of the environment's packages came back
// "could not be resolved", a ghost, with the errors their types give
// missing (cmd/lsp-hook TestPythonVirtualEnvProjectPaths/untrusted,
// pyright 1.1.414). The paths pyright asks its interpreter for (it runs
// `python -I -c …` and reads sys.path) are not replaced by a config file,
// but the environment's own interpreter is the workspace's program, which
// does not run before `lsp-hook trust`.
//
// So pyright is named a stand-in: a virtual environment of lsp-hook's
// own in a private temporary directory (PEP 405: a pyvenv.cfg beside the
// interpreter's directory makes one), whose interpreter is a link to the
// python on PATH — the program pyright runs anyway when told nothing —
// and whose site-packages holds one .pth file naming the directories
// importRoots read from the project's environment. Python's site module
// appends each existing directory a .pth line names to sys.path
// (docs.python.org/3/library/site.html); nothing of the workspace runs.
// The python on PATH is asked once for its real path and version (a
// pyenv shim is a script: the link must reach the interpreter itself),
// preferring python3.X when the project's pyvenv.cfg says 3.X.

// pythonInfoScript prints the interpreter's real path and its X.Y.
const pythonInfoScript = `import os, sys; print(os.path.realpath(sys.executable)); print("%d.%d" % sys.version_info[:2])`

// pythonInfoTimeout bounds asking an interpreter for its path and version.
const pythonInfoTimeout = 5 * time.Second

// pythonXY is a Python version as X.Y, the start of pyvenv.cfg's version.
var pythonXY = lazyre.New(`^(\d+\.\d+)(\.|$)`)

// baseInterpreter is a python found on PATH: its real path and X.Y.
type baseInterpreter struct {
	exe, version string
	err          error // why there is none
}

// nameInterpreter names e's server an interpreter at the setting key
// whose paths are the virtual environment venv's: its own in a trusted
// workspace, else a stand-in giving roots. Without one the server keeps
// the extra paths alone (logged).
func (m *Manager) nameInterpreter(e *entry, key, venv string, roots []string) {
	if m.cfg.WorkspaceTrusted {
		if py := venvInterpreter(venv); py != "" {
			e.server.Settings = withSetting(e.server.Settings, key, func(any) any { return py })
			m.log.Info("server runs the virtual environment's interpreter (trusted workspace)", "server", e.server.Name,
				"root", e.root, "setting", key, "interpreter", py)
		}
		return
	}
	py, err := m.standIn(venv, e.root, roots)
	if err != nil {
		m.log.Info("server gets the virtual environment's packages as extra paths only: a project's own extraPaths replace them",
			"server", e.server.Name, "root", e.root, "err", err)
		return
	}
	e.server.Settings = withSetting(e.server.Settings, key, func(any) any { return py })
	m.log.Info("server runs a stand-in interpreter with the virtual environment's packages (untrusted workspace)",
		"server", e.server.Name, "root", e.root, "setting", key, "interpreter", py, "venv", venv)
}

// standIn returns the interpreter of a stand-in environment for the
// server of root in the untrusted workspace: one that gives the
// directories roots, read from the virtual environment venv. The
// environment is (re)written in the manager's private directory, one per
// server root, removed at Shutdown.
func (m *Manager) standIn(venv, root string, roots []string) (string, error) {
	want := venvVersion(venv)
	m.standInMu.Lock()
	defer m.standInMu.Unlock()
	base, ok := m.bases[want]
	if !ok {
		base = m.findBase(want)
		if m.bases == nil {
			m.bases = make(map[string]baseInterpreter)
		}
		m.bases[want] = base
	}
	if base.err != nil {
		return "", base.err
	}
	if m.standInDir == "" {
		dir, err := os.MkdirTemp("", "lsp-hook-python-")
		if err != nil {
			return "", fmt.Errorf("making the stand-in environments' directory: %w", err)
		}
		m.standInDir = dir
	}
	sum := sha256.Sum256([]byte(root))
	return writeStandIn(filepath.Join(m.standInDir, hex.EncodeToString(sum[:8])), base, roots)
}

// findBase finds the python on PATH the stand-in links to: python<want>
// when want is an X.Y, else python3, else python. One inside the
// workspace is passed over (a workspace's program does not run). The one
// found is asked for its real path and version.
func (m *Manager) findBase(want string) baseInterpreter {
	var names []string
	if want != "" {
		names = append(names, "python"+want)
	}
	names = append(names, "python3", "python")
	for _, name := range names {
		p, err := exec.LookPath(name)
		if err != nil || ws.Inside(m.workspace, p) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), pythonInfoTimeout)
		out, err := exec.CommandContext(ctx, p, "-I", "-c", pythonInfoScript).Output()
		cancel()
		if err != nil {
			m.log.Info("python on PATH does not answer", "python", p, "err", err)
			continue
		}
		exe, version, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		if !filepath.IsAbs(exe) || !pythonXY().MatchString(version) || ws.Inside(m.workspace, exe) {
			continue
		}
		return baseInterpreter{exe: exe, version: version}
	}
	return baseInterpreter{err: fmt.Errorf("no python on PATH outside the workspace answers (tried %s)", strings.Join(names, ", "))}
}

// venvVersion is the X.Y of the virtual environment venv from its
// pyvenv.cfg (the venv module writes "version = 3.12.1", uv
// "version_info = 3.12.1"); "" when it does not say.
func venvVersion(venv string) string {
	b, err := safefile.ReadFollow(filepath.Join(venv, "pyvenv.cfg"), maxPthSize)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if k = strings.TrimSpace(k); !ok || k != "version" && k != "version_info" {
			continue
		}
		if m := pythonXY().FindStringSubmatch(strings.TrimSpace(v)); m != nil {
			return m[1]
		}
	}
	return ""
}

// standInPth is the .pth file's text: the directories, a line each. A
// directory whose name holds a line break cannot be written as a line and
// is left out.
func standInPth(roots []string) string {
	var b strings.Builder
	for _, r := range roots {
		if !strings.ContainsAny(r, "\r\n") {
			b.WriteString(r + "\n")
		}
	}
	return b.String()
}
