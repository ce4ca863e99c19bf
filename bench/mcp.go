package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/internal/fileuri"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// This file is section 6, mcp (issue 8, "Measure and report"): warm
// lsp_goto_definition and lsp_find_references through `lsp-hook mcp`
// (the go-sdk client over a command transport to the real binary, which
// asks the workspace daemon, which asks its gopls) against the same LSP
// request sent straight to a gopls process the bench starts and talks to
// over stdio with a bare JSON-RPC client. Both ask about greet.Greet at
// its call in testdata/langs/go/main.go, on one copy of the project;
// after mcpWarmups untimed calls each, the timed calls are interleaved
// (MCP definition, gopls definition, MCP references, gopls references) so
// that machine noise falls on both sides alike.

// secMCP is 6: navigation through lsp-hook mcp vs straight to gopls.
const secMCP section = "mcp"

// mcpWarmups and mcpCalls are the untimed and timed calls per request and side.
const (
	mcpWarmups = 3
	mcpCalls   = 20
)

// mcpRow is one request's timings on both sides.
type mcpRow struct {
	request string  // "definition", "references"
	viaMCP  samples // tools/call through lsp-hook mcp, round trip in the client
	direct  samples // the LSP request to gopls, round trip in the client
}

// mcpResult is the mcp section's outcome; rows is empty when it did not run.
type mcpResult struct {
	workspace string
	rows      []mcpRow
}

// mcpTarget is the position both sides ask about: a 1-based line and the
// symbol on it (MCP's input), and the same place as LSP's 0-based line and
// UTF-16 character (every character before it is ASCII, so the byte
// offset is the UTF-16 offset).
type mcpTarget struct {
	path      string // absolute
	rel       string // relative to the workspace root, as the MCP tool takes it
	line      int    // 1-based
	symbol    string
	lspLine   int // 0-based
	lspColumn int // 0-based UTF-16 code units
}

// mcpSection measures res in a copy of testdata/langs/go.
func (b *bench) mcpSection(ctx context.Context, res *mcpResult) error {
	b.progressf("6. MCP navigation vs gopls on testdata/langs/go (%d + %d calls each)", mcpWarmups, mcpCalls)
	ws := &workspace{name: "testdata/langs/go", dir: filepath.Join(b.tmp, "mcp-go"), daemon: true}
	b.workspaces = append(b.workspaces, ws)
	if err := copyTree(filepath.Join(b.opts.langsDir, "go"), ws.dir, false); err != nil {
		return fmt.Errorf("copying the Go project: %w", err)
	}
	if _, err := output(ctx, ws.dir, b.env, "git", "init", "-q"); err != nil {
		return err
	}
	res.workspace = ws.name
	tgt, err := findMCPTarget(ws.dir, "main.go", "greet.Greet(", "Greet")
	if err != nil {
		return err
	}
	cmd := exec.Command(b.opts.bin, "mcp")
	cmd.Dir, cmd.Env = ws.dir, b.env
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "lsp-hook-bench", Version: "v0"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		return fmt.Errorf("starting lsp-hook mcp: %w", err)
	}
	defer cs.Close()
	gp, err := startGopls(ctx, ws.dir, b.env)
	if err != nil {
		return err
	}
	defer gp.close()
	if err := gp.open(ctx, tgt.path); err != nil {
		return err
	}
	res.rows = []mcpRow{{request: "definition"}, {request: "references"}}
	calls := []struct {
		tool, method string
		params       map[string]any
	}{
		{"lsp_goto_definition", "textDocument/definition", nil},
		{"lsp_find_references", "textDocument/references", map[string]any{"context": map[string]any{"includeDeclaration": false}}},
	}
	for i := -mcpWarmups; i < mcpCalls; i++ {
		for j, c := range calls {
			m, err := timeToolCall(ctx, cs, c.tool, tgt)
			if err != nil {
				return err
			}
			d, err := gp.timeRequest(ctx, c.method, tgt, c.params)
			if err != nil {
				return err
			}
			if i >= 0 {
				res.rows[j].viaMCP = append(res.rows[j].viaMCP, m)
				res.rows[j].direct = append(res.rows[j].direct, d)
			}
		}
	}
	return nil
}

// findMCPTarget finds the first line of rel (under dir) holding anchor
// and the position of symbol inside that anchor.
func findMCPTarget(dir, rel, anchor, symbol string) (mcpTarget, error) {
	path := filepath.Join(dir, rel)
	data, err := os.ReadFile(path)
	if err != nil {
		return mcpTarget{}, fmt.Errorf("reading the navigation target: %w", err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if k := strings.Index(line, anchor); k >= 0 {
			col := k + strings.Index(anchor, symbol)
			if strings.Count(line[:col], symbol) != 0 {
				return mcpTarget{}, fmt.Errorf("%s:%d: %q occurs before the anchor %q", rel, i+1, symbol, anchor)
			}
			return mcpTarget{path: path, rel: rel, line: i + 1, symbol: symbol, lspLine: i, lspColumn: col}, nil
		}
	}
	return mcpTarget{}, fmt.Errorf("%s has no line with %q", rel, anchor)
}

// timeToolCall calls tool at tgt and returns the round trip; a tool error
// or an answer without a location is an error.
func timeToolCall(ctx context.Context, cs *sdk.ClientSession, tool string, tgt mcpTarget) (time.Duration, error) {
	args := map[string]any{"path": tgt.rel, "line": tgt.line, "symbol": tgt.symbol}
	start := time.Now()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	wall := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("calling %s: %w", tool, err)
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError || !strings.Contains(text, ".go:") {
		return 0, fmt.Errorf("%s answered %q (error %v)", tool, firstLines(text, 3), res.IsError)
	}
	return wall, nil
}

// goplsConn is a gopls process the bench started, and its connection.
type goplsConn struct {
	child *proc.Child
	conn  *jsonrpc2.Conn
}

// stdioRWC joins a child's stdout and stdin into one stream.
type stdioRWC struct {
	io.ReadCloser
	w io.WriteCloser
}

// Write writes to the child's stdin.
func (s stdioRWC) Write(p []byte) (int, error) { return s.w.Write(p) }

// Close closes both pipes.
func (s stdioRWC) Close() error { return errors.Join(s.w.Close(), s.ReadCloser.Close()) }

// startGopls starts gopls on stdio as a proc.Child (its own process group,
// dying with the bench), in dir with env, and runs the initialize
// handshake for dir as the workspace folder.
func startGopls(ctx context.Context, dir string, env []string) (*goplsConn, error) {
	return startGoplsWith(ctx, dir, env, jsonrpc2.HandlerWithError(answerGopls))
}

// startGoplsWith is startGopls with h handling what gopls sends the client.
func startGoplsWith(ctx context.Context, dir string, env []string, h jsonrpc2.Handler) (*goplsConn, error) {
	child := proc.Command(context.Background(), "gopls")
	cmd := child.Cmd
	cmd.Dir, cmd.Env = dir, env
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := child.Start(); err != nil {
		return nil, fmt.Errorf("starting gopls: %w", err)
	}
	g := &goplsConn{child: child}
	stream := jsonrpc2.NewBufferedStream(stdioRWC{io.NopCloser(bufio.NewReader(out)), in}, jsonrpc2.VSCodeObjectCodec{})
	g.conn = jsonrpc2.NewConn(context.Background(), stream, h)
	uri := fileURI(dir)
	init := map[string]any{
		"processId": os.Getpid(), "rootUri": uri,
		"workspaceFolders": []any{map[string]any{"uri": uri, "name": filepath.Base(dir)}},
		"capabilities": map[string]any{
			"general":      map[string]any{"positionEncodings": []string{"utf-16"}},
			"textDocument": map[string]any{"definition": map[string]any{}, "references": map[string]any{}},
		},
	}
	var ignored json.RawMessage
	if err := g.conn.Call(ctx, "initialize", init, &ignored); err != nil {
		g.close()
		return nil, fmt.Errorf("initializing gopls: %w", err)
	}
	if err := g.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		g.close()
		return nil, fmt.Errorf("initializing gopls: %w", err)
	}
	return g, nil
}

// answerGopls answers gopls's requests to the client: workspace/configuration
// with one null per item (defaults), everything else with null.
func answerGopls(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	if req.Notif || req.Method != "workspace/configuration" || req.Params == nil {
		return nil, nil
	}
	var p struct{ Items []json.RawMessage }
	if err := json.Unmarshal(*req.Params, &p); err != nil {
		return nil, err
	}
	return make([]any, len(p.Items)), nil
}

// open sends didOpen for path with its text on disk.
func (g *goplsConn) open(ctx context.Context, path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return g.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "go", "version": 1, "text": string(text)}})
}

// timeRequest sends method at tgt (extra merged into the params) and
// returns the round trip; an empty result is an error.
func (g *goplsConn) timeRequest(ctx context.Context, method string, tgt mcpTarget, extra map[string]any) (time.Duration, error) {
	params := map[string]any{
		"textDocument": map[string]any{"uri": fileURI(tgt.path)},
		"position":     map[string]any{"line": tgt.lspLine, "character": tgt.lspColumn},
	}
	for k, v := range extra {
		params[k] = v
	}
	var raw json.RawMessage
	start := time.Now()
	err := g.conn.Call(ctx, method, params, &raw)
	wall := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("gopls %s: %w", method, err)
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" || string(t) == "[]" {
		return 0, fmt.Errorf("gopls %s: empty result", method)
	}
	return wall, nil
}

// close shuts gopls down (shutdown, exit), killing its process group when
// it does not exit within a few seconds.
func (g *goplsConn) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if g.conn.Call(ctx, "shutdown", nil, nil) == nil {
		_ = g.conn.Notify(ctx, "exit", nil)
	}
	done := make(chan struct{})
	go func() { g.child.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		g.child.Kill()
		<-done
	}
	g.conn.Close()
}

// fileURI is the file:// URI of an absolute path (internal/fileuri).
func fileURI(path string) string { return fileuri.FromPath(path) }

// writeMCP prints section 6: p50 (and p90) of each request on both sides,
// the ratio of the p50s and the time MCP adds at p50; nothing when the section did not run.
func writeMCP(w io.Writer, res mcpResult) {
	if len(res.rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n6. Warm navigation on %s: lsp-hook mcp (go-sdk client → mcp → daemon → gopls) vs straight to gopls (JSON-RPC on stdio); p50 of %d calls after %d warm-ups\n\n",
		res.workspace, mcpCalls, mcpWarmups)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "request\tvia MCP p50\tp90\tgopls p50\tp90\tMCP / gopls\tadded p50\t")
	for _, r := range res.rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1f×\t%s\t\n", r.request,
			fmtMS(r.viaMCP.median()), fmtMS(r.viaMCP.p90()), fmtMS(r.direct.median()), fmtMS(r.direct.p90()),
			ratio(r.viaMCP, r.direct), fmtMS(r.viaMCP.median()-r.direct.median()))
	}
	tw.Flush()
}

// fmtMS formats d in milliseconds with two decimals.
func fmtMS(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}
