package main_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/sidecar"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPCommand runs `lsp-hook mcp` as an agent does, over stdio through
// the SDK's command transport: the first tool call starts the workspace
// daemon, and gopls answers a definition across packages through it. The
// agent runs it in a directory that reaches the workspace through a
// symlink (macOS's /tmp), and names a file in that spelling: it is the
// workspace's file all the same.
func TestMCPCommand(t *testing.T) {
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(w.root, link); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	cmd := exec.Command(lspHook, "mcp")
	cmd.Dir = link
	cmd.Env = append(childEnv(w.runtime, w.extra), "PWD="+link) // as a shell sets it: os.Getwd keeps its spelling
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "v0"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 13 {
		t.Fatalf("tools/list = %+v, %v; want 13 tools", tools, err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "lsp_goto_definition",
		Arguments: map[string]any{"path": filepath.Join(link, "main.go"), "line": 10, "symbol": "Greet"}})
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
	// Checking a signature change before writing it: the callers it would
	// break are listed, and the file on disk is as it was.
	greet := filepath.Join(w.root, "greet", "greet.go")
	before, err := os.ReadFile(greet)
	if err != nil {
		t.Fatal(err)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "lsp_check_edit", Arguments: map[string]any{"path": "greet/greet.go",
		"old_string": "func Greet(name string) string", "new_string": "func Greet(name string, times int) string"}})
	if err != nil {
		t.Fatal(err)
	}
	text = ""
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			text = tc.Text
		}
	}
	if res.IsError || !strings.Contains(text, `<diagnostics file="main.go">`) || !strings.Contains(text, "not enough arguments in call to greet.Greet") {
		t.Errorf("lsp_check_edit = %q (error %v), want main.go's broken call", text, res.IsError)
	}
	if after, err := os.ReadFile(greet); err != nil || string(after) != string(before) {
		t.Errorf("lsp_check_edit changed greet/greet.go: %q, %v", after, err)
	}
}

// mcpEnv is the whole environment the official MCP SDKs give a stdio
// server on unix by default (TypeScript SDK src/client/stdio.ts,
// DEFAULT_INHERITED_ENV_VARS; the Python SDK's get_default_environment):
// this process's HOME, LOGNAME, SHELL, TERM and USER, and path as PATH.
func mcpEnv(path string) []string {
	env := []string{"PATH=" + path}
	for _, k := range []string{"HOME", "LOGNAME", "SHELL", "TERM", "USER"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// TestMCPMinimalEnvOneDaemon: `lsp-hook mcp` started with only the MCP
// SDK's environment (no XDG_RUNTIME_DIR, no TMPDIR) and a hook started
// with the full one (its own TMPDIR) reach one daemon and one gopls; and
// `status` and `stop` under the minimal environment find that daemon.
func TestMCPMinimalEnvOneDaemon(t *testing.T) {
	requireExe(t, "gopls")
	if runtime.GOOS == "windows" {
		t.Skip("the MCP SDKs' Windows environment keeps LOCALAPPDATA, the socket's directory")
	}
	// The full environment without XDG_RUNTIME_DIR: the hooks' socket is
	// then the uid's, wherever this machine keeps it.
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "XDG_RUNTIME_DIR=", "TMPDIR=" + testdaemon.ShortDir(t)})
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	cmd := exec.Command(lspHook, "mcp")
	cmd.Dir = w.root
	cmd.Env = mcpEnv(langPath())
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "v0"}, nil).
		Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "lsp_goto_definition",
		Arguments: map[string]any{"path": "main.go", "line": 10, "symbol": "Greet"}})
	if err != nil || res.IsError {
		t.Fatalf("lsp_goto_definition = %+v, %v", res, err)
	}
	block := w.hook(w.edit("s1", "main.go", "package main\n\nfunc main() {\n\tvar x int = \"a\"\n\t_ = x\n}\n"))
	if !strings.Contains(block, "ERROR [4:14]") {
		t.Errorf("hook block = %q, want the type error", block)
	}
	if d := w.daemons(); len(d) != 1 {
		t.Errorf("daemons = %+v, want one for the hook and mcp", d)
	}
	if g := goplsServers(w.root); len(g) != 1 {
		t.Errorf("gopls servers = %+v, want one", g)
	}
	var st sidecar.StatusResult
	if err := json.Unmarshal([]byte(runMinimal(t, w, "status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Counters["request"] != 1 || st.Counters["notify_change"] != 1 {
		t.Errorf("status under the minimal environment: counters %v, want the daemon that served mcp's request and the hook", st.Counters)
	}
	runMinimal(t, w, "stop")
	if d := waitFor(10*time.Second, w.daemons); len(d) != 0 {
		t.Errorf("daemons after stop under the minimal environment = %+v", d)
	}
}

// runMinimal runs lsp-hook args in w's root with only the MCP SDK's
// environment and returns its stdout, failing the test on a non-zero exit.
func runMinimal(t *testing.T, w *workspace, args ...string) string {
	t.Helper()
	cmd := exec.Command(lspHook, args...)
	cmd.Dir = w.root
	cmd.Env = mcpEnv(langPath())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lsp-hook %s under %v: %v\n%s", strings.Join(args, " "), cmd.Env, err, out)
	}
	return string(out)
}
