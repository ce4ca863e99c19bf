package main_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPCommand runs `lsp-hook mcp` as an agent does, over stdio through
// the SDK's command transport: the first tool call starts the workspace
// daemon, and gopls answers a definition across packages through it.
func TestMCPCommand(t *testing.T) {
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	cmd := exec.Command(lspHook, "mcp")
	cmd.Dir = w.root
	cmd.Env = childEnv(w.runtime, w.extra)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "v0"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 6 {
		t.Fatalf("tools/list = %+v, %v; want 6 tools", tools, err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "lsp_goto_definition",
		Arguments: map[string]any{"path": "main.go", "line": 10, "symbol": "Greet"}})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			text = tc.Text
		}
	}
	if res.IsError || !strings.HasPrefix(text, "greet/greet.go:5:6: func Greet(name string) string {") {
		t.Errorf("lsp_goto_definition = %q (error %v)", text, res.IsError)
	}
	if st, ok := w.status(); !ok || st.Counters["request"] != 1 {
		t.Errorf("daemon status running %v, request count %d; want a daemon that served one request", ok, st.Counters["request"])
	}
}
