package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

// workspaceRoot is --root, else the git top level of the working directory.
func workspaceRoot(c *cli.Context) (string, error) {
	if r := c.String("root"); r != "" {
		return sidecar.FindWorkspaceRoot(r)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return sidecar.FindWorkspace(wd)
}

func socketFor(c *cli.Context, root string) string {
	if s := c.String("socket"); s != "" {
		return s
	}
	return sidecar.SocketPath(root)
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
