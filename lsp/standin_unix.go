//go:build unix

package lsp

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeStandIn writes the stand-in environment at dir (its old content
// removed) in the venv module's unix layout: bin/python a link to base's
// interpreter, pyvenv.cfg with home its directory, and
// lib/pythonX.Y/site-packages/_lsp_hook.pth naming roots. It returns the
// environment's interpreter, bin/python.
func writeStandIn(dir string, base baseInterpreter, roots []string) (string, error) {
	if err := os.RemoveAll(dir); err != nil {
		return "", fmt.Errorf("clearing the stand-in environment %s: %w", dir, err)
	}
	site := filepath.Join(dir, "lib", "python"+base.version, "site-packages")
	py := filepath.Join(dir, "bin", "python")
	cfg := fmt.Sprintf("home = %s\ninclude-system-site-packages = false\nversion = %s\n", filepath.Dir(base.exe), base.version)
	for _, step := range []func() error{
		func() error { return os.MkdirAll(site, 0o700) },
		func() error { return os.MkdirAll(filepath.Dir(py), 0o700) },
		func() error { return os.Symlink(base.exe, py) },
		func() error { return os.WriteFile(filepath.Join(dir, "pyvenv.cfg"), []byte(cfg), 0o600) },
		func() error {
			return os.WriteFile(filepath.Join(site, "_lsp_hook.pth"), []byte(standInPth(roots)), 0o600)
		},
	} {
		if err := step(); err != nil {
			return "", fmt.Errorf("writing the stand-in environment %s: %w", dir, err)
		}
	}
	return py, nil
}
