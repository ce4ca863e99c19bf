package sidecar

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestRequestRefusals: a method not passed on, a file outside the
// workspace, and a method the file's server does not support (fakelsp
// announces no hoverProvider) each get an error saying so.
func TestRequestRefusals(t *testing.T) {
	e := fakeEngine(t, "normal")
	path := testdaemon.WriteFile(t, e.Root, "a.fake", "hello\n")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, serve(t, e))
	pos := []byte(`{"textDocument": {"uri": "file:///x"}, "position": {"line": 0, "character": 0}}`)

	tests := []struct {
		name   string
		params wire.RequestParams
		code   int64
		msg    string
	}{
		{"method not passed on", wire.RequestParams{Path: path, Method: "workspace/executeCommand", Params: pos},
			jsonrpc2.CodeInvalidParams, `method "workspace/executeCommand" is not passed on`},
		{"outside the workspace", wire.RequestParams{Path: "/etc/passwd", Method: "textDocument/hover", Params: pos},
			jsonrpc2.CodeInvalidParams, "outside the workspace"},
		{"dot-dot outside", wire.RequestParams{Path: "../x.fake", Method: "textDocument/hover", Params: pos},
			jsonrpc2.CodeInvalidParams, "outside the workspace"},
		{"unsupported", wire.RequestParams{Path: "a.fake", Method: "textDocument/hover", Params: pos},
			wire.CodeUnsupported, "fake does not support textDocument/hover (no hoverProvider in its capabilities)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res wire.RequestResult
			err := c.Call(ctx, wire.MethodRequest, tt.params, &res)
			var je *jsonrpc2.Error
			if !errors.As(err, &je) || je.Code != tt.code || !strings.Contains(je.Message, tt.msg) {
				t.Fatalf("err = %v, want code %d and %q", err, tt.code, tt.msg)
			}
		})
	}
}

// TestRequestGopls asks a real gopls, through the daemon, for the
// definition of a function in another package.
func TestRequestGopls(t *testing.T) {
	e := goplsEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, serve(t, e))
	params := []byte(`{"textDocument": {"uri": "file://` + e.Root + `/main.go"}, "position": {"line": 9, "character": 19}}`)
	var res wire.RequestResult
	if err := c.Call(ctx, wire.MethodRequest, wire.RequestParams{Path: "main.go", Method: "textDocument/definition", Params: params}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Server != "gopls" || res.Root != e.Root || res.Encoding == "" || !strings.Contains(string(res.Result), "/greet/greet.go") {
		t.Errorf("result = %+v (%s)", res, res.Result)
	}
}

// goplsEngine returns an engine with the default servers for a copy of
// testdata/langs/go, skipping the test when gopls is missing (failing it
// under LSP_HOOK_REQUIRE_SERVERS=1).
func goplsEngine(t *testing.T) *engine.Engine {
	t.Helper()
	if _, err := lsp.LookPath("gopls"); err != nil {
		if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
			t.Fatalf("gopls is required (LSP_HOOK_REQUIRE_SERVERS=1): %v", err)
		}
		t.Skipf("gopls not installed: %v", err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "testdata", "langs", "go"))); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	log := testdaemon.Log(t)
	m := lsp.NewManager(cfg, root, log)
	t.Cleanup(m.Shutdown)
	return engine.NewEngine(root, cfg, m, log)
}
