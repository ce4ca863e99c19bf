// Package mcp serves lsp-hook's navigation tools over the Model Context
// Protocol (`lsp-hook mcp`): go to definition, find references, hover,
// document and workspace symbols, type definition, implementation,
// incoming and outgoing calls, current diagnostics, and refactoring:
// rename (and file rename), code actions, and checking an edit before it
// is written. They are answered by the workspace daemon's warm language
// servers through its `request`, `execute_command`, `check_edit` and
// `notify_change`/`diagnostics` methods, so an agent's hooks and its
// navigation share one gopls per repository. Edits the servers propose
// are previewed as unified diffs (diff.go) and written only when asked,
// then passed to the daemon as an agent's write is (apply.go).
//
// Positions a model gives are a 1-based line plus a symbol substring on it
// (position.go); answers are compact `path:line:col` lines with one line of
// source context (format.go). The package talks to the daemon through
// package wire only; it must not import the daemon or engine (sidecar),
// hooks or cmd. It still uses lsp's position types, column converters and
// WorkspaceEdit decoder (lsp/edits.go).
package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Daemon is a connection to the workspace daemon; *wire.Client is one.
type Daemon interface {
	Call(ctx context.Context, method string, params, result any) error
	Close() error
}

// Options configure a navigation server.
type Options struct {
	// Root is the workspace root: absolute, clean and symlink-free. Files
	// outside it are refused.
	Root string
	// Alias is Root as the agent spells it, when it reaches Root through
	// a symlink (workspace.Alias of the working directory: macOS's /tmp,
	// a linked ~/code); tools' paths spelled through it are taken as
	// Root's. "" when there is none.
	Alias string
	// Version is lsp-hook's version, reported to the MCP client.
	Version string
	// NavigationTools is the config's navigation_tools: false leaves the
	// navigation tools out (lsp_diagnostics stays).
	NavigationTools bool
	// Connect dials the daemon, starting one when none answers
	// (wire.Connect). It is called on the first tool call, and again
	// after the daemon went away (it exits when idle).
	Connect func(ctx context.Context) (Daemon, error)
}

// NewServer returns an MCP server with the tools opts allows; run it with
// Server.Run on a transport (sdk.StdioTransport for `lsp-hook mcp`). Call
// Close on the returned closer when the server is done, to drop the daemon
// connection.
func NewServer(opts Options) (*sdk.Server, func()) {
	d := &daemon{connect: opts.Connect}
	t := &tools{root: opts.Root, alias: opts.Alias, daemon: d, encodings: make(map[string]string)}
	instructions := "Code navigation backed by the workspace's language servers (gopls, pyright, " +
		"typescript-language-server, …). Positions are a 1-based line plus a symbol substring on that line " +
		"(name#2 for its second occurrence). Answers are path:line:col with the source line. lsp_rename and " +
		"lsp_code_actions show a unified diff and write only with write: true; lsp_check_edit tries an edit " +
		"without writing it."
	if !opts.NavigationTools {
		instructions = "navigation_tools is false in the lsp-hook config: only lsp_diagnostics is offered."
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "lsp-hook", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions})
	t.register(s, opts.NavigationTools)
	return s, d.close
}

// daemon holds the lazily made daemon connection, made again when the
// daemon has gone away.
type daemon struct {
	connect func(ctx context.Context) (Daemon, error)

	mu   sync.Mutex // guards conn
	conn Daemon
}

// call sends one request to the daemon, connecting first when there is no
// connection, and once more on a fresh connection when the old one turns
// out closed (the daemon idled out or was restarted) or its daemon refused
// the request because its config changed (wire.CodeConfigChanged:
// connecting again replaces it).
func (d *daemon) call(ctx context.Context, method string, params, result any) error {
	for attempt := 0; ; attempt++ {
		c, err := d.get(ctx)
		if err != nil {
			return fmt.Errorf("connecting to the lsp-hook daemon: %w", err)
		}
		err = c.Call(ctx, method, params, result)
		if (errors.Is(err, jsonrpc2.ErrClosed) || wire.IsConfigChanged(err)) && attempt == 0 && ctx.Err() == nil {
			d.drop(c)
			continue
		}
		return err
	}
}

// get returns the connection, making it when there is none.
func (d *daemon) get(ctx context.Context) (Daemon, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil {
		return d.conn, nil
	}
	if d.connect == nil {
		return nil, errors.New("no way to reach the daemon configured")
	}
	c, err := d.connect(ctx)
	if err != nil {
		return nil, err
	}
	d.conn = c
	return c, nil
}

// drop forgets c if it is still the connection, and closes it.
func (d *daemon) drop(c Daemon) {
	d.mu.Lock()
	if d.conn == c {
		d.conn = nil
	}
	d.mu.Unlock()
	_ = c.Close()
}

// close closes the connection, if any.
func (d *daemon) close() {
	d.mu.Lock()
	c := d.conn
	d.conn = nil
	d.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
}
