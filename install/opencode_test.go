package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestOpenCodePluginRuns loads the plugin in Node (OpenCode runs plugins
// in Bun, which implements the same node:child_process), calls its
// tool.execute.after hook the way OpenCode does, with a stand-in hook
// command that records its stdin and prints a block: the block is appended
// to output.output for an edit, and a tool outside the list runs nothing.
func TestOpenCodePluginRuns(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in hook is a shell script")
	}
	dir := testdir.New(t)
	hook := filepath.Join(dir, "lsp-hook")
	script := "#!/bin/sh\ncat > \"$(dirname \"$0\")/event.json\"\necho 'LSP errors detected in this file, please fix:'\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := openCodePlugin(HookCommand(hook, "opencode"), false, false)
	if err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(dir, "lsp-hook.mjs")
	if err := os.WriteFile(plugin, src, 0o644); err != nil {
		t.Fatal(err)
	}
	driver := `
const { LspHook } = await import(process.argv[1])
const hooks = await LspHook({ directory: process.argv[2] })
const after = hooks["tool.execute.after"]
const edit = { title: "", output: "Edit applied successfully.", metadata: {} }
await after({ tool: "edit", sessionID: "ses_1", callID: "call_1", args: { filePath: "a.go" } }, edit)
const read = { title: "", output: "contents", metadata: {} }
await after({ tool: "read", sessionID: "ses_1", callID: "call_2", args: { filePath: "a.go" } }, read)
console.log(JSON.stringify([edit.output, read.output]))
`
	out, err := exec.Command(node, "--input-type=module", "-e", driver, plugin, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := `["Edit applied successfully.\n\nLSP errors detected in this file, please fix:","contents"]`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("outputs = %s, want %s", got, want)
	}
	ev, err := os.ReadFile(filepath.Join(dir, "event.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"hook_event_name":"tool.execute.after"`, `"session_id":"ses_1"`, `"tool":"edit"`,
		`"args":{"filePath":"a.go"}`, `"cwd":"` + dir + `"`, `"output":"Edit applied successfully."`} {
		if !strings.Contains(string(ev), field) {
			t.Errorf("event %s lacks %s", ev, field)
		}
	}

	// OpenCode's session.created bus event (Session.Event.Created, {info})
	// reaches the hook as a session start; another event runs nothing. The
	// plugin does not wait for the hook; node does, before it exits.
	os.Remove(filepath.Join(dir, "event.json"))
	events := `
const { LspHook } = await import(process.argv[1])
const hooks = await LspHook({ directory: process.argv[2] })
await hooks.event({ event: { type: "message.updated", properties: { info: { id: "msg_1" } } } })
await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_2", directory: process.argv[2] } } } })
`
	if out, err := exec.Command(node, "--input-type=module", "-e", events, plugin, dir).CombinedOutput(); err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	ev, err = os.ReadFile(filepath.Join(dir, "event.json"))
	if want := `{"hook_event_name":"session.created","session_id":"ses_2","cwd":"` + dir + `"}`; err != nil || string(ev) != want {
		t.Errorf("session.created event = %s, %v; want %s", ev, err, want)
	}
}

// TestInstallOpenCode: the plugin is lsp-hook's own file: a file of that
// name install did not write is refused by install and uninstall alike;
// --no-shell leaves bash out of its tools; a project whose OpenCode config
// turns OpenCode's LSP on gets a note saying so.
func TestInstallOpenCode(t *testing.T) {
	root := testdir.New(t)
	opts := installProjectOpts(root, "opencode")
	path := filepath.Join(root, ".opencode", "plugin", "lsp-hook.js")
	writeInstallFile(t, path, []byte("export const Mine = async () => ({})\n"))
	if _, err := Add("opencode", opts); err == nil || !strings.Contains(err.Error(), "not lsp-hook's plugin") {
		t.Errorf("install over a foreign plugin: %v", err)
	}
	if _, err := Remove("opencode", opts); err == nil {
		t.Error("uninstall removed a foreign plugin")
	}
	os.Remove(path)
	writeInstallFile(t, filepath.Join(root, "opencode.jsonc"), []byte("{\n  // on\n  \"lsp\": {\"gopls\": {}},\n}\n"))
	res := mustInstall(t, "opencode", opts)
	if res.Action != Created || !strings.Contains(strings.Join(res.Notes, "\n"), "opencode.jsonc turns OpenCode's own LSP on") {
		t.Errorf("install: %s, notes %q", res.Action, res.Notes)
	}
	if got := string(readInstallFile(t, path)); !strings.Contains(got, `"apply_patch","bash"]`) || !strings.Contains(got, `const command = "lsp-hook hook opencode"`) {
		t.Errorf("plugin:\n%s", got)
	}
	opts.NoShell = true
	if res := mustInstall(t, "opencode", opts); res.Action != Updated || strings.Contains(string(readInstallFile(t, path)), `"bash"`) {
		t.Errorf("install --no-shell: %s\n%s", res.Action, readInstallFile(t, path))
	}
	// Uninstall takes the plugin and its directory, left empty, away.
	if res := mustUninstall(t, "opencode", opts); res.Action != Removed {
		t.Errorf("uninstall: %s", res.Action)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s: %v", filepath.Dir(path), err)
	}
	for config, on := range map[string]bool{`{"lsp": true}`: true, `{"lsp": false}`: false, `{}`: false, `{"lsp": {"gopls": {"disabled": true}}}`: true} {
		if got, err := openCodeLSPOn([]byte(config)); err != nil || got != on {
			t.Errorf("openCodeLSPOn(%s) = %v, %v; want %v", config, got, err, on)
		}
	}
}
