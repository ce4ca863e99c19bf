package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// FuzzToolCall calls every tool through the MCP SDK (in-memory transports)
// with arbitrary arguments, against a daemon that answers every request
// with an arbitrary LSP result in an arbitrary encoding. The tool must
// answer (a result or an error) within a deadline, never panic, and send
// the daemon only what the workspace boundary and the position rules
// allow: paths inside the root, an LSP method the daemon passes on, and a
// 0-based position on a line the file has, its character within the line
// in the encoding used.

// fuzzTools are the tools a FuzzToolCall input calls, by its first byte.
var fuzzTools = []string{ToolDefinition, ToolReferences, ToolHover, ToolDocumentSymbols, ToolWorkspaceSymbols, ToolDiagnostics,
	ToolTypeDefinition, ToolImplementation, ToolIncomingCalls, ToolOutgoingCalls}

// fuzzDaemon is the daemon FuzzToolCall's tools reach: it checks what it
// is sent and answers with the input's result.
type fuzzDaemon struct {
	root string

	mu       sync.Mutex      // guards enc, answer and problems
	enc      string          // the position encoding answers name
	answer   json.RawMessage // the LSP result of every request
	problems []string        // what the tools sent that they must not
}

func (d *fuzzDaemon) problem(format string, args ...any) {
	d.mu.Lock()
	d.problems = append(d.problems, fmt.Sprintf(format, args...))
	d.mu.Unlock()
}

func (d *fuzzDaemon) inside(path string) bool {
	return filepath.IsAbs(path) && filepath.Clean(path) == path && (path == d.root || strings.HasPrefix(path, d.root+"/"))
}

func (d *fuzzDaemon) Call(_ context.Context, method string, params, result any) error {
	switch method {
	case wire.MethodRequest:
		p := params.(wire.RequestParams)
		if !d.inside(p.Path) || !slices.Contains(wire.RequestMethods, p.Method) {
			d.problem("request %s for %s", p.Method, p.Path)
		}
		d.checkPosition(p)
		d.mu.Lock()
		enc, answer := d.enc, d.answer
		d.mu.Unlock()
		*result.(*wire.RequestResult) = wire.RequestResult{Server: "fuzz", Root: d.root, Encoding: enc, Result: answer}
	case wire.MethodNotifyChange:
		p := params.(wire.NotifyChangeParams)
		if len(p.Changes) == 0 || len(p.Changes) > maxGlobFiles {
			d.problem("notify_change of %d changes", len(p.Changes))
		}
		for _, c := range p.Changes {
			if !d.inside(c.Path) {
				d.problem("notify_change for %s", c.Path)
			}
		}
		*result.(*wire.Result) = wire.Result{Lint: "LSP errors detected in this file, please fix:"}
	case wire.MethodDiagnostics:
		*result.(*wire.Result) = wire.Result{}
	default:
		d.problem("method %s", method)
	}
	return nil
}

// checkPosition checks a request's textDocument and position, when it
// has them.
func (d *fuzzDaemon) checkPosition(p wire.RequestParams) {
	var q struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
		Position *lsp.Position `json:"position"`
	}
	if err := json.Unmarshal(p.Params, &q); err != nil {
		d.problem("request params %s: %v", p.Params, err)
		return
	}
	if q.Position == nil {
		return
	}
	if q.TextDocument.URI != fileURI(p.Path) {
		d.problem("position in %s for the file %s", q.TextDocument.URI, p.Path)
	}
	lines, err := fileLines(p.Path)
	if err != nil || int(q.Position.Line) >= len(lines) {
		d.problem("position %+v in %s, which has %d lines (%v)", *q.Position, p.Path, len(lines), err)
		return
	}
	line := []byte(lines[q.Position.Line])
	for _, enc := range []string{lsp.EncodingUTF16, lsp.EncodingUTF8, lsp.EncodingUTF32} {
		if lsp.Character(line, utf8.RuneCount(line)+1, enc) >= q.Position.Character {
			return // within the line in some encoding (the first send guesses it)
		}
	}
	d.problem("character %d past the end of line %q", q.Position.Character, line)
}

func (d *fuzzDaemon) Close() error { return nil }

// fuzzWorkspace copies testdata/langs/go into a fresh root, with a link
// out of it.
func fuzzWorkspace(f *testing.F) string {
	root, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	root = filepath.Join(root, "ws")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "testdata", "langs", "go"))); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(root), "secret.go"), []byte("package secret\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink("../secret.go", filepath.Join(root, "out.go")); err != nil {
		f.Fatal(err)
	}
	return root
}

func FuzzToolCall(f *testing.F) {
	root := fuzzWorkspace(f)
	loc := func(path string, line, char int) string {
		return fmt.Sprintf(`{"uri":%q,"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}}`,
			fileURI(filepath.Join(root, path)), line, char, line, char+5)
	}
	add := func(tool string, args map[string]any, answer string, enc uint8) {
		b, _ := json.Marshal(args)
		f.Add(uint8(slices.Index(fuzzTools, tool)), b, []byte(answer), enc)
	}
	use := map[string]any{"path": "main.go", "line": 10, "symbol": "Greet"}
	add(ToolDefinition, use, loc("greet/greet.go", 4, 5), 0)
	add(ToolDefinition, map[string]any{"path": "main.go", "line": 10, "column": 20}, "["+loc("greet/greet.go", 4, 5)+"]", 1)
	add(ToolReferences, map[string]any{"path": "greet/greet.go", "line": 5, "symbol": "Greet#1", "include_declaration": true},
		"["+loc("main.go", 9, 19)+","+loc("loud.go", 10, 30)+`,{"uri":"file:///usr/lib/go/x.go","range":{"start":{"line":1,"character":1},"end":{"line":1,"character":2}}}]`, 2)
	add(ToolHover, use, `{"contents":{"kind":"markdown","value":"Greet returns a greeting for name."}}`, 0)
	add(ToolDocumentSymbols, map[string]any{"path": "greet/greet.go"},
		`[{"name":"Greet","kind":12,"selectionRange":{"start":{"line":4,"character":5},"end":{"line":4,"character":10}},"children":[]}]`, 0)
	add(ToolWorkspaceSymbols, map[string]any{"query": "Greet", "path": "main.go"},
		`[{"name":"Greet","kind":12,"location":{"uri":"`+fileURI(filepath.Join(root, "greet/greet.go"))+`","range":{"start":{"line":4,"character":0},"end":{"line":6,"character":1}}}}]`, 0)
	add(ToolDiagnostics, map[string]any{"path": "**/*.go"}, `null`, 0)
	add(ToolDiagnostics, map[string]any{}, `null`, 0)
	add(ToolHover, map[string]any{"path": "out.go", "line": 1, "column": 1}, `null`, 0)
	add(ToolHover, map[string]any{"path": "../secret.go", "line": 1, "symbol": "package"}, `null`, 0)
	add(ToolDefinition, map[string]any{"path": "main.go", "line": 0, "symbol": "x"}, `null`, 0)
	add(ToolDefinition, map[string]any{"path": "main.go", "line": 10, "symbol": "Greet", "column": 3}, `null`, 0)
	add(ToolDefinition, map[string]any{"path": "main.go", "line": "10", "symbol": 3}, `null`, 0)
	f.Add(uint8(0), []byte(`[1]`), []byte(`null`), uint8(0))
	// One server and client session serve every input of a worker (a
	// session per input costs an MCP handshake); the daemon's answer and
	// encoding are the input's.
	d := &fuzzDaemon{root: root}
	srv, closeDaemon := NewServer(Options{Root: root, Version: "fuzz", NavigationTools: true,
		Connect: func(context.Context) (Daemon, error) { return d, nil }})
	f.Cleanup(closeDaemon)
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "fuzz", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { cs.Close() })
	f.Fuzz(func(t *testing.T, tool uint8, args, answer []byte, enc uint8) {
		if !json.Valid(args) {
			return
		}
		d.mu.Lock()
		d.enc, d.answer, d.problems = []string{lsp.EncodingUTF16, lsp.EncodingUTF8, lsp.EncodingUTF32}[int(enc)%3], answer, nil
		d.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		name := fuzzTools[int(tool)%len(fuzzTools)]
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if ctx.Err() != nil {
			t.Fatalf("%s %s: no answer within 10s (%v)", name, args, err)
		}
		d.mu.Lock()
		problems := d.problems
		d.mu.Unlock()
		for _, p := range problems {
			t.Errorf("%s %s sent the daemon: %s", name, args, p)
		}
		if err != nil {
			return // arguments the tool's schema refuses
		}
		if len(res.Content) == 0 {
			t.Fatalf("%s %s: an answer with no content", name, args)
		}
	})
}
