package main

import (
	"context"
	"io"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/mcp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// mcpDaemonWait bounds how long `lsp-hook mcp` waits for a daemon it
// started to answer.
const mcpDaemonWait = 10 * time.Second

func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve code navigation (definition, references, hover, symbols, diagnostics) as MCP tools on stdio",
		Flags: []cli.Flag{rootFlag, socketFlag},
		Action: func(c *cli.Context) error {
			root, err := workspaceRoot(c)
			if err != nil {
				return cli.Exit("mcp: "+err.Error(), exitError)
			}
			socket := socketFor(c, root)
			cfg, _ := config.Load(root) // problems are reported by config check and the daemon's log
			srv, closeDaemon := mcp.NewServer(mcp.Options{
				Root: root, Alias: rootAlias(c, root), Version: buildVersion(), NavigationTools: cfg.NavigationTools,
				Connect: func(ctx context.Context) (mcp.Daemon, error) {
					d, _, err := wire.Connect(ctx, buildVersion(), wire.StartOptions{Root: root, Socket: socket, Wait: mcpDaemonWait})
					if err != nil {
						return nil, err // not a nil *wire.Client in a non-nil interface
					}
					return d, nil
				},
			})
			defer closeDaemon()
			if err := srv.Run(c.Context, &sdk.IOTransport{Reader: io.NopCloser(c.App.Reader), Writer: nopWriteCloser{c.App.Writer}}); err != nil {
				return cli.Exit("mcp: "+err.Error(), exitError)
			}
			return nil
		},
	}
}

// nopWriteCloser is a Writer whose Close does nothing: the MCP transport
// closes its writer, and stdout stays the process's.
type nopWriteCloser struct{ io.Writer }

// Close does nothing.
func (nopWriteCloser) Close() error { return nil }
