package main

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/wire"
)

// workspaceRoot is --root, else the git top level of the working directory
// (workspace.Root).
func workspaceRoot(c *cli.Context) (string, error) {
	return workspace.Root(c.String("root"))
}

// rootAlias is root as this command spells it, when --root, else the
// working directory (os.Getwd keeps $PWD's spelling), reaches root through
// a symlink: paths given in that spelling are respelled in root's
// (workspace.Alias, workspace.Respell). "" when there is none.
func rootAlias(c *cli.Context, root string) string {
	dir := c.String("root")
	if dir == "" {
		dir = "."
	}
	return workspace.Alias(root, absPath(dir))
}

func socketFor(c *cli.Context, root string) string {
	if s := c.String("socket"); s != "" {
		return s
	}
	return wire.SocketPath(root)
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
