package mcp_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/mcp"
	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The tests run a daemon in-process (sidecar.Server on a short socket
// path), an MCP server whose tools reach it through wire.Dial, and the
// SDK's client over in-memory transports, against real gopls, pyright and
// typescript-language-server on copies of testdata/langs.

// TestMain puts the servers `make tools` installs on PATH. Started as a
// server's supervisor (internal/proc), the test binary is that instead.
func TestMain(m *testing.M) {
	proc.SupervisorMain()
	if root, err := filepath.Abs(".."); err == nil {
		tools := filepath.Join(root, ".tools")
		os.Setenv("PATH", filepath.Join(tools, "bin")+string(os.PathListSeparator)+
			filepath.Join(tools, "npm", "node_modules", ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	os.Exit(m.Run())
}

// requireServer skips the test when exe is missing, or fails it when
// LSP_HOOK_REQUIRE_SERVERS=1.
func requireServer(t *testing.T, exe string) {
	t.Helper()
	if _, err := lsp.LookPath(exe); err != nil {
		if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
			t.Fatalf("%s is required (LSP_HOOK_REQUIRE_SERVERS=1): %v", exe, err)
		}
		t.Skipf("%s not installed: %v", exe, err)
	}
}

// session copies testdata/langs/<lang> into a fresh workspace, serves a
// daemon for it and an MCP server (navigation tools on when nav is set),
// and returns the workspace root and a connected MCP client session, all
// closed when the test ends.
func session(t *testing.T, lang string, nav bool) (string, *sdk.ClientSession) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if lang != "" {
		if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "testdata", "langs", lang))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root, connect(t, root, serveDaemon(t, root), nav)
}

// connect serves an MCP server for root over the daemon at socket
// (navigation tools on when nav is set) and returns a client session
// connected to it in memory, all closed when the test ends.
func connect(t *testing.T, root, socket string, nav bool) *sdk.ClientSession {
	t.Helper()
	srv, closeDaemon := mcp.NewServer(mcp.Options{
		Root: root, Version: "test", NavigationTools: nav,
		Connect: func(ctx context.Context) (mcp.Daemon, error) {
			c, err := wire.Dial(ctx, socket, "test")
			if err != nil {
				return nil, err
			}
			return c, nil
		},
	})
	t.Cleanup(closeDaemon)
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// serveDaemon runs a daemon with the default config for root on a short
// socket path, shut down when the test ends, and returns the socket.
func serveDaemon(t *testing.T, root string) string {
	t.Helper()
	socket := filepath.Join(testdaemon.ShortDir(t), "d.sock")
	log := testdaemon.Discard()
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	cfg, _ := config.Load(root)
	srv := &sidecar.Server{Engine: engine.NewEngine(root, cfg, lsp.NewManager(cfg, root, log), log), Version: "test", Log: log}
	testdaemon.Serve(t, srv, socket)
	return socket
}

// call calls a tool and returns its text and whether it was an error.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// langCase is what one language's navigation must answer.
type langCase struct {
	lang, server string
	// A call site of greet in the entry file, and where greet is declared.
	usePath   string
	useLine   int
	useSymbol string
	defPath   string
	defLine   int
	defSymbol string
	defWhere  string   // path:line:col of the declared name
	wsWhere   string   // path:line: of the workspace symbol (servers give the declaration's start or its name)
	refs      []string // path:line prefixes every reference answer must hold
	hover     string   // a substring of the hover text
	docSymbol string   // a substring of the definition file's outline
	query     string   // a workspace symbol query finding the definition
}

var langCases = []langCase{
	{
		lang: "go", server: "gopls",
		usePath: "main.go", useLine: 10, useSymbol: "Greet",
		defPath: "greet/greet.go", defLine: 5, defSymbol: "Greet", defWhere: "greet/greet.go:5:6", wsWhere: "greet/greet.go:5:",
		refs:  []string{"main.go:10:20: fmt.Println(greet.Greet(\"world\"))", "loud.go:11:31:"},
		hover: "Greet returns a greeting for name.", docSymbol: "greet/greet.go:5:6 function Greet", query: "Greet",
	},
	{
		lang: "py", server: "pyright-langserver",
		usePath: "main.py", useLine: 5, useSymbol: "greet",
		defPath: "greet.py", defLine: 4, defSymbol: "greet", defWhere: "greet.py:4:5", wsWhere: "greet.py:4:",
		refs:  []string{"main.py:5:11: print(greet(\"world\"))", "loud.py:7:12:"},
		hover: "def greet(name: str) -> str", docSymbol: "greet.py:4:5 function greet", query: "greet",
	},
	{
		lang: "ts", server: "typescript-language-server",
		usePath: "src/main.ts", useLine: 4, useSymbol: "greet",
		defPath: "src/greet.ts", defLine: 2, defSymbol: "greet", defWhere: "src/greet.ts:2:17", wsWhere: "src/greet.ts:2:",
		refs:  []string{"src/main.ts:4:15: console.log(greet(\"world\"));", "src/loud.ts:5:10:"},
		hover: "greet(name: string): string", docSymbol: "src/greet.ts:2:17 function greet", query: "greet",
	},
}

func TestNavigation(t *testing.T) {
	for _, lc := range langCases {
		t.Run(lc.lang, func(t *testing.T) {
			requireServer(t, lc.server)
			_, cs := session(t, lc.lang, true)
			use := map[string]any{"path": lc.usePath, "line": lc.useLine, "symbol": lc.useSymbol}
			def := map[string]any{"path": lc.defPath, "line": lc.defLine, "symbol": lc.defSymbol}

			if got, isErr := call(t, cs, mcp.ToolDefinition, use); isErr || !strings.HasPrefix(got, lc.defWhere+": ") {
				t.Errorf("definition = %q (error %v), want %s: …", got, isErr, lc.defWhere)
			}
			got, isErr := call(t, cs, mcp.ToolReferences, def)
			for _, r := range lc.refs {
				if isErr || !strings.Contains(got, "\n"+r) {
					t.Errorf("references = %q (error %v), want a line %q", got, isErr, r)
				}
			}
			if got, isErr := call(t, cs, mcp.ToolHover, use); isErr || !strings.Contains(got, lc.hover) {
				t.Errorf("hover = %q (error %v), want %q in it", got, isErr, lc.hover)
			}
			if got, isErr := call(t, cs, mcp.ToolDocumentSymbols, map[string]any{"path": lc.defPath}); isErr || !strings.Contains(got, lc.docSymbol) {
				t.Errorf("document symbols = %q (error %v), want %q in it", got, isErr, lc.docSymbol)
			}
			ws := map[string]any{"query": lc.query, "path": lc.usePath}
			if got, isErr := call(t, cs, mcp.ToolWorkspaceSymbols, ws); isErr || !strings.Contains(got, lc.wsWhere) {
				t.Errorf("workspace symbols = %q (error %v), want %s in it", got, isErr, lc.wsWhere)
			}
		})
	}
}

// TestSymbolOccurrence: in `from greet import greet`, greet#1 is the
// module and greet#2 the function.
func TestSymbolOccurrence(t *testing.T) {
	requireServer(t, "pyright-langserver")
	_, cs := session(t, "py", true)
	got, isErr := call(t, cs, mcp.ToolDefinition, map[string]any{"path": "loud.py", "line": 3, "symbol": "greet#2"})
	if isErr || !strings.HasPrefix(got, "greet.py:4:5: def greet(name: str) -> str:") {
		t.Errorf("definition of greet#2 = %q (error %v), want greet.py:4:5", got, isErr)
	}
	got, isErr = call(t, cs, mcp.ToolDefinition, map[string]any{"path": "loud.py", "line": 3, "column": 19})
	if isErr || !strings.HasPrefix(got, "greet.py:4:5:") {
		t.Errorf("definition at column 19 = %q (error %v), want greet.py:4:5", got, isErr)
	}
	got, isErr = call(t, cs, mcp.ToolDefinition, map[string]any{"path": "loud.py", "line": 3, "symbol": "greet#3"})
	if !isErr || !strings.Contains(got, `symbol "greet" occurs 2 time(s) on line 3, not 3`) {
		t.Errorf("definition of greet#3 = %q (error %v), want an error counting 2", got, isErr)
	}
}

// TestRefusals: files outside the workspace are refused before any server
// is asked.
func TestRefusals(t *testing.T) {
	root, cs := session(t, "", true)
	outside := filepath.Join(filepath.Dir(root), "elsewhere.go")
	for _, args := range []map[string]any{
		{"path": "/etc/hostname", "line": 1, "column": 1},
		{"path": "../x.go", "line": 1, "column": 1},
		{"path": outside, "line": 1, "column": 1},
	} {
		got, isErr := call(t, cs, mcp.ToolHover, args)
		if !isErr || !strings.Contains(got, "outside the workspace") {
			t.Errorf("hover %v = %q (error %v), want an outside-the-workspace error", args, got, isErr)
		}
	}
	if got, isErr := call(t, cs, mcp.ToolDiagnostics, map[string]any{"path": "../**/*.go"}); !isErr || !strings.Contains(got, "outside the workspace") {
		t.Errorf("diagnostics ../**/*.go = %q (error %v), want an outside-the-workspace error", got, isErr)
	}
}

// TestNavigationToolsOff: navigation_tools: false leaves lsp_diagnostics
// alone in tools/list; every tool documents its inputs and is read-only,
// but lsp_rename and lsp_code_actions, which say they are destructive.
func TestNavigationToolsOff(t *testing.T) {
	for _, nav := range []bool{true, false} {
		_, cs := session(t, "", nav)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			writes := tool.Name == mcp.ToolRename || tool.Name == mcp.ToolCodeActions
			if a := tool.Annotations; a == nil || a.ReadOnlyHint == writes || writes && (a.DestructiveHint == nil || !*a.DestructiveHint) || tool.Description == "" {
				t.Errorf("tool %s: annotations %+v, description %q", tool.Name, tool.Annotations, tool.Description)
			}
			props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
			for name, p := range props {
				if d, _ := p.(map[string]any)["description"].(string); d == "" {
					t.Errorf("tool %s: input %s has no description", tool.Name, name)
				}
			}
		}
		want := 13
		if !nav {
			want = 1
		}
		if len(names) != want || (!nav && names[0] != mcp.ToolDiagnostics) {
			t.Errorf("navigation %v: tools %v, want %d", nav, names, want)
		}
	}
}

// TestDiagnostics: lsp_diagnostics on a file and on a glob checks the
// files as they are on disk and answers with the lint block.
func TestDiagnostics(t *testing.T) {
	requireServer(t, "gopls")
	root, cs := session(t, "go", true)
	if err := os.WriteFile(filepath.Join(root, "bad.go"), []byte("package main\n\nvar n int = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"bad.go", "**/*.go"} {
		got, isErr := call(t, cs, mcp.ToolDiagnostics, map[string]any{"path": path})
		if isErr || !strings.Contains(got, `<diagnostics file="bad.go">`) || !strings.Contains(got, "ERROR [3:13]") {
			t.Errorf("diagnostics %s = %q (error %v), want bad.go's error at 3:13", path, got, isErr)
		}
	}
	if got, isErr := call(t, cs, mcp.ToolDiagnostics, map[string]any{}); isErr || !strings.Contains(got, `<diagnostics file="bad.go">`) {
		t.Errorf("diagnostics of every file = %q (error %v), want bad.go's", got, isErr)
	}
}
