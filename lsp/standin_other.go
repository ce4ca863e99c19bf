//go:build !unix

package lsp

import (
	"errors"
	"fmt"
)

// writeStandIn makes no stand-in environment on Windows: a venv's
// python.exe there is a copy or a launcher, not a link (symbolic links
// need a privilege), so pyright keeps the extra paths alone, which a
// project's own extraPaths replace.
func writeStandIn(dir string, _ baseInterpreter, _ []string) (string, error) {
	return "", fmt.Errorf("stand-in environment %s: %w", dir, errors.ErrUnsupported)
}
