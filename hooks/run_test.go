package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"

	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

// hookEnv is a workspace (a temp dir with .git) and a private runtime
// directory for the spool and the log.
func hookEnv(t *testing.T) string {
	t.Helper()
	root, _ := filepath.EvalSymlinks(testdir.New(t))
	if git, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command(git, "-C", root, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	} else if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_RUNTIME_DIR", testdir.New(t))
	t.Setenv(wire.SocketEnv, "")
	return root
}

// runHook runs a with the event in-process (validators only) and returns
// stdout, stderr and the exit status.
func runHook(t *testing.T, a Adapter, event string) (stdout, stderr string, exit int) {
	t.Helper()
	var out, errw bytes.Buffer
	o := Run(context.Background(), a, strings.NewReader(event), &out, Options{NoDaemon: true, Local: sidecar.Local{}, Budget: 2 * time.Second, Stderr: &errw})
	return out.String(), errw.String(), o.Exit
}

func putFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func jsonEvent(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const brokenTOML = "a = 1\nb = \n"

// TestRunCopilotSameTurnOnce: postToolUse answers with additionalContext
// at once (Copilot CLI appends it to the tool result); the same content
// is never delivered twice, not by a second postToolUse nor by agentStop;
// agentStop checks only what an older lsp-hook left in the spool and was
// not delivered.
func TestRunCopilotSameTurnOnce(t *testing.T) {
	root := hookEnv(t)
	conf := filepath.Join(root, "conf.toml")
	putFile(t, conf, brokenTOML)
	post := jsonEvent(t, map[string]any{
		"sessionId": "cp", "timestamp": 1704614600000, "cwd": root, "toolName": "edit",
		"toolArgs":   `{"path":"` + conf + `","old_str":"b = 2","new_str":"b = "}`,
		"toolResult": map[string]any{"resultType": "success", "textResultForLlm": "ok"},
	})
	out, _, exit := runHook(t, Copilot{}, post)
	var ans copilotContext
	if err := json.Unmarshal([]byte(out), &ans); err != nil || exit != 0 || !strings.Contains(ans.AdditionalContext, `<diagnostics file="conf.toml">`) {
		t.Fatalf("postToolUse answer = %q, exit %d (%v)", out, exit, err)
	}
	if out, _, _ := runHook(t, Copilot{}, post); out != "" {
		t.Fatalf("a second postToolUse for the same content repeated the block: %q", out)
	}
	stop := jsonEvent(t, map[string]any{"sessionId": "cp", "timestamp": 1704614700000, "cwd": root, "transcriptPath": "/t", "stopReason": "end_turn"})
	if out, _, _ := runHook(t, Copilot{}, stop); out != "" {
		t.Fatalf("agentStop re-delivered the block: %q", out)
	}
	// What an lsp-hook that only recorded at postToolUse left behind.
	other := filepath.Join(root, "other.toml")
	putFile(t, other, brokenTOML)
	sp, err := openSpool(wire.SocketPath(root))
	if err != nil {
		t.Fatal(err)
	}
	if err := sp.record("copilot", "cp", []wire.Change{{Path: conf, Mode: wire.ModeEdit}, {Path: other, Mode: wire.ModeWrite}}); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runHook(t, Copilot{}, stop)
	var dec claudeDecision
	if err := json.Unmarshal([]byte(out), &dec); err != nil || dec.Decision != "block" ||
		!strings.Contains(dec.Reason, `"other.toml"`) || strings.Contains(dec.Reason, `"conf.toml"`) {
		t.Fatalf("agentStop answer = %q (%v), want a block for other.toml alone", out, err)
	}
}

// TestRunDeliverOnce: Cursor runs both its own hook and the Claude Code
// hook for one edit; the block is delivered once, and again once the
// file's content changes, or the file is written again with a text
// delivered before.
func TestRunDeliverOnce(t *testing.T) {
	root := hookEnv(t)
	conf := filepath.Join(root, "conf.toml")
	putFile(t, conf, brokenTOML)
	ev := jsonEvent(t, map[string]any{
		"conversation_id": "conv", "generation_id": "g", "hook_event_name": "postToolUse", "cursor_version": "1.7.2",
		"workspace_roots": []string{root}, "tool_name": "Write", "tool_input": map[string]any{"file_path": conf},
		"tool_output": "{}", "tool_use_id": "t", "cwd": root, "duration": 4,
	})
	first, _, _ := runHook(t, Cursor{}, ev)
	if !strings.Contains(first, `"additional_context"`) {
		t.Fatalf("first run printed %q", first)
	}
	if again, _, _ := runHook(t, Claude{}, ev); again != "" {
		t.Fatalf("the Claude Code hook Cursor also ran repeated the block: %q", again)
	}
	putFile(t, conf, "# changed\n"+brokenTOML)
	if next, _, _ := runHook(t, Claude{}, ev); !strings.Contains(next, `"additional_context"`) {
		t.Fatalf("changed content not reported: %q", next)
	}
	// Fixed, then broken the same way again: a new write of a text
	// already delivered is reported again.
	putFile(t, conf, "a = 1\n")
	if fixed, _, _ := runHook(t, Cursor{}, ev); fixed != "" {
		t.Fatalf("the fix printed %q", fixed)
	}
	putFile(t, conf, "# changed\n"+brokenTOML)
	if again, _, _ := runHook(t, Cursor{}, ev); !strings.Contains(again, `"additional_context"`) {
		t.Fatalf("broken again as before, after a fix: %q, want the block again", again)
	}
	if twice, _, _ := runHook(t, Claude{}, ev); twice != "" {
		t.Fatalf("the Claude Code hook Cursor also ran repeated the block: %q", twice)
	}
}

// TestRunCursorAfterFileEdit: afterFileEdit records, the next postToolUse
// (of any tool) carries the block.
func TestRunCursorAfterFileEdit(t *testing.T) {
	root := hookEnv(t)
	conf := filepath.Join(root, "conf.toml")
	putFile(t, conf, brokenTOML)
	common := map[string]any{"conversation_id": "c2", "generation_id": "g", "cursor_version": "1.7.2", "workspace_roots": []string{root}}
	edit := map[string]any{"hook_event_name": "afterFileEdit", "file_path": conf, "edits": []any{map[string]string{"old_string": "b = 2", "new_string": "b = "}}}
	read := map[string]any{"hook_event_name": "postToolUse", "tool_name": "Read", "tool_input": map[string]any{"file_path": conf}, "tool_output": "{}", "cwd": root}
	for k, v := range common {
		edit[k], read[k] = v, v
	}
	if out, _, _ := runHook(t, Cursor{}, jsonEvent(t, edit)); out != "" {
		t.Fatalf("afterFileEdit printed %q", out)
	}
	out, _, _ := runHook(t, Cursor{}, jsonEvent(t, read))
	if !strings.Contains(out, `conf.toml`) {
		t.Fatalf("postToolUse after afterFileEdit printed %q", out)
	}
	if out, _, _ := runHook(t, Cursor{}, jsonEvent(t, read)); out != "" {
		t.Fatalf("the recorded edit was delivered twice: %q", out)
	}
}

// TestRunCursorShellNotes: a Cursor Shell event (delivered once per
// session, file and content) whose command changed nothing still says,
// each time, how the span was looked at: a note with no files is never
// taken for a block already delivered.
func TestRunCursorShellNotes(t *testing.T) {
	root := hookEnv(t)
	shell := map[string]any{"conversation_id": "c3", "generation_id": "g", "cursor_version": "1.7.2", "workspace_roots": []string{root},
		"hook_event_name": "postToolUse", "tool_name": "Shell", "tool_input": map[string]any{"command": "true"}, "tool_output": "{}", "cwd": root}
	for i := range 2 {
		out, _, _ := runHook(t, Cursor{}, jsonEvent(t, shell))
		if !strings.Contains(out, "only files changed in the last 1m0s were checked") {
			t.Errorf("Shell hook %d printed %q, want the default span's note", i, out)
		}
	}
}

func TestRunModes(t *testing.T) {
	root := hookEnv(t)
	conf := filepath.Join(root, "conf.toml")
	ev := jsonEvent(t, map[string]any{
		"session_id": "s", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": conf, "content": brokenTOML},
	})
	putFile(t, conf, brokenTOML)
	out, errw, exit := runHook(t, Claude{Mode: ModeExit2}, ev)
	if out != "" || exit != 2 || !strings.Contains(errw, `<diagnostics file="conf.toml">`) {
		t.Fatalf("exit2: stdout %q stderr %q exit %d", out, errw, exit)
	}
	out, _, exit = runHook(t, Claude{Mode: ModeBlock}, ev)
	if exit != 0 || !strings.HasPrefix(out, `{"decision":"block","reason":"LSP errors`) {
		t.Fatalf("block: %q exit %d", out, exit)
	}
	putFile(t, conf, "a = 1\n")
	clean := strings.Replace(ev, `b = \n`, ``, 1)
	if out, errw, exit := runHook(t, Claude{Mode: ModeExit2}, clean); out != "" || errw != "" || exit != 0 {
		t.Fatalf("clean exit2: stdout %q stderr %q exit %d", out, errw, exit)
	}
}

// TestRunBashInProcess: without a daemon, a Bash event's files are found
// by modification time.
func TestRunBashInProcess(t *testing.T) {
	root := hookEnv(t)
	old := filepath.Join(root, "old.toml")
	putFile(t, old, brokenTOML)
	past := time.Now().Add(-time.Hour)
	os.Chtimes(old, past, past)
	putFile(t, filepath.Join(root, "new.toml"), brokenTOML)
	ev := jsonEvent(t, map[string]any{
		"session_id": "s", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "sed -i s/2// new.toml"}, "tool_response": map[string]any{"stdout": ""}, "duration_ms": 20,
	})
	out, _, _ := runHook(t, Claude{}, ev)
	if !strings.Contains(out, `new.toml`) || strings.Contains(out, `old.toml`) {
		t.Fatalf("Bash answer = %q, want new.toml only", out)
	}
	if !strings.Contains(out, "lsp-hook: files changed while the shell command ran were found by modification time") {
		t.Errorf("Bash answer = %q, want the note on modification times", out)
	}
	// Nothing changed, and no duration: the default span, said, and
	// silence would read as clean.
	os.Chtimes(filepath.Join(root, "new.toml"), past, past)
	ev = jsonEvent(t, map[string]any{"session_id": "s", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "true"}})
	out, _, _ = runHook(t, Claude{}, ev)
	if !strings.Contains(out, "only files changed in the last 1m0s were checked") || strings.Contains(out, "toml") {
		t.Errorf("Bash answer without duration = %q, want the default span's note alone", out)
	}
}

// TestShellQuestion: what a shell hook asks the daemon: its session's
// chain, and the command's start by the event's duration (with slack)
// only when the event has one; the default span always, for when nothing
// else bounds the span.
func TestShellQuestion(t *testing.T) {
	at := time.UnixMilli(1_000_000)
	tests := []struct {
		name string
		ev   Event
		want wire.ChangedFilesParams
	}{
		{
			name: "duration and session",
			ev:   Event{Agent: "claude", Hook: "PostToolUse", Session: "s1", Shell: true, ShellRan: 300 * time.Millisecond},
			want: wire.ChangedFilesParams{SinceMS: 1_000_000 - 1_300, Session: "claude/PostToolUse/s1", DefaultMS: 60_000},
		},
		{
			name: "no duration",
			ev:   Event{Agent: "claude", Hook: "PostToolBatch", Session: "s1", Shell: true},
			want: wire.ChangedFilesParams{Session: "claude/PostToolBatch/s1", DefaultMS: 60_000},
		},
		{
			name: "no session",
			ev:   Event{Agent: "cursor", Hook: "postToolUse", Shell: true, ShellRan: time.Second},
			want: wire.ChangedFilesParams{SinceMS: 1_000_000 - 2_000, DefaultMS: 60_000},
		},
		{
			name: "cursor running claude's hook",
			ev:   Event{Agent: "cursor", Hook: "PostToolUse", Session: "c9", Shell: true},
			want: wire.ChangedFilesParams{Session: "cursor/PostToolUse/c9", DefaultMS: 60_000},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := request{shell: tt.ev.Shell, ran: tt.ev.ShellRan, chain: chainOf(tt.ev), at: at}
			if got := q.changedParams(); got != tt.want {
				t.Errorf("changedParams = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestRunMalformed: every adapter prints nothing and exits 0 on a
// malformed event, and logs why.
func TestRunMalformed(t *testing.T) {
	root := hookEnv(t)
	t.Chdir(root)
	for _, name := range Agents {
		a, err := New(name, Settings{PathField: pathFieldFor(name)})
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range []string{"{oops", "", "[1,2]", `{"a":1} x`} {
			var out bytes.Buffer
			o := Run(context.Background(), a, strings.NewReader(in), &out, Options{NoDaemon: true, Local: sidecar.Local{}})
			if out.Len() != 0 || o.Exit != 0 {
				t.Errorf("%s on %q printed %q, exit %d", name, in, out.String(), o.Exit)
			}
		}
	}
	logged, _ := os.ReadFile(wire.LogPath(wire.SocketPath(root)))
	if !strings.Contains(string(logged), `msg="ignoring hook event"`) {
		t.Errorf("no log line for malformed events:\n%s", logged)
	}
}

func pathFieldFor(name string) string {
	if name == "generic" {
		return "path"
	}
	return ""
}

// blockingReader never returns: an agent that never closes stdin.
type blockingReader struct{ done chan struct{} }

func (r blockingReader) Read([]byte) (int, error) { <-r.done; return 0, io.EOF }

func TestRunStdinNeverCloses(t *testing.T) {
	root := hookEnv(t)
	t.Chdir(root)
	r := blockingReader{make(chan struct{})}
	defer close(r.done)
	begin := time.Now()
	var out bytes.Buffer
	Run(context.Background(), Claude{}, r, &out, Options{NoDaemon: true, Local: sidecar.Local{}, Budget: 100 * time.Millisecond, ColdBudget: 300 * time.Millisecond})
	if el := time.Since(begin); el > 2*time.Second || out.Len() != 0 {
		t.Fatalf("hook took %v and printed %q with stdin open", el, out.String())
	}
}

func TestModeFlag(t *testing.T) {
	var m Mode
	if m.String() != "additionalContext" {
		t.Errorf("zero mode = %q", m.String())
	}
	for in, want := range map[string]Mode{"block": ModeBlock, "exit2": ModeExit2, "context": ModeContext, "additionalContext": ModeContext} {
		if err := m.Set(in); err != nil || m != want {
			t.Errorf("Set(%q) = %q, %v", in, m, err)
		}
	}
	if err := m.Set("deny"); err == nil {
		t.Error("Set(deny) succeeded")
	}
}

// TestRunClaudeBatchAfterPostToolUse: with both hooks configured,
// PostToolBatch leaves out what PostToolUse already reported — for the
// same tool call — also when the agent spells the workspace through a
// symlink (macOS's /tmp), whose paths the hook respells.
func TestRunClaudeBatchAfterPostToolUse(t *testing.T) {
	for _, linked := range []bool{false, true} {
		name := "direct"
		if linked {
			name = "through a symlink"
		}
		t.Run(name, func(t *testing.T) {
			root := hookEnv(t)
			cwd := root
			if linked {
				cwd = filepath.Join(testdir.New(t), "link")
				if err := os.Symlink(root, cwd); err != nil {
					t.Skipf("no symlinks here: %v", err)
				}
			}
			putFile(t, filepath.Join(root, "a.toml"), brokenTOML)
			putFile(t, filepath.Join(root, "b.toml"), brokenTOML)
			batchAfterPostToolUse(t, root, cwd)
		})
	}
}

// batchAfterPostToolUse is TestRunClaudeBatchAfterPostToolUse in the
// workspace root, spelled cwd in the events.
func batchAfterPostToolUse(t *testing.T, root, cwd string) {
	a, b := filepath.Join(cwd, "a.toml"), filepath.Join(cwd, "b.toml")
	post := jsonEvent(t, map[string]any{
		"session_id": "s", "cwd": cwd, "hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input": map[string]any{"file_path": a, "old_string": "x", "new_string": "y"}, "tool_use_id": "1",
	})
	if out, _, _ := runHook(t, Claude{}, post); !strings.Contains(out, "a.toml") {
		t.Fatalf("PostToolUse printed %q", out)
	}
	batch := jsonEvent(t, map[string]any{
		"session_id": "s", "cwd": cwd, "hook_event_name": "PostToolBatch", "tool_calls": []any{
			map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": a}, "tool_use_id": "1"},
			map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": b}, "tool_use_id": "2"},
		},
	})
	out, _, _ := runHook(t, Claude{}, batch)
	if !strings.Contains(out, `"hookEventName":"PostToolBatch"`) || !strings.Contains(out, "b.toml") || strings.Contains(out, "a.toml") {
		t.Fatalf("PostToolBatch printed %q, want b.toml only", out)
	}
	// Another session, or new content, is reported again.
	if out, _, _ := runHook(t, Claude{}, strings.Replace(batch, `"s"`, `"s2"`, 1)); !strings.Contains(out, "a.toml") {
		t.Fatalf("another session's batch printed %q", out)
	}
	putFile(t, filepath.Join(root, "a.toml"), "# v2\n"+brokenTOML)
	if out, _, _ := runHook(t, Claude{}, batch); !strings.Contains(out, "a.toml") {
		t.Fatalf("batch after a new edit printed %q", out)
	}
	// The content PostToolUse reported, written again by a later call
	// whose own PostToolUse reported nothing (the soak, seed
	// 278276786903321841, Go #164): that call's change is unchecked.
	putFile(t, filepath.Join(root, "a.toml"), brokenTOML)
	later := strings.Replace(batch, `"tool_use_id":"1"`, `"tool_use_id":"3"`, 1)
	if later == batch {
		t.Fatal("the batch event names no call 1")
	}
	if out, _, _ := runHook(t, Claude{}, later); !strings.Contains(out, "a.toml") {
		t.Fatalf("a batch of a later call writing the reported content again printed %q", out)
	}
	if out, _, _ := runHook(t, Claude{}, batch); strings.Contains(out, "a.toml") {
		t.Fatalf("a batch of the reported call printed %q", out)
	}
}

// TestRunNoShell: with Options.NoShell (`hook AGENT --no-shell`) a shell
// tool's event checks nothing and answers nothing.
func TestRunNoShell(t *testing.T) {
	root := hookEnv(t)
	putFile(t, filepath.Join(root, "conf.toml"), brokenTOML)
	ev := jsonEvent(t, map[string]any{"sessionId": "ns", "cwd": root, "toolName": "bash",
		"toolArgs": `{"command":"sed -i s/2// conf.toml"}`, "toolResult": map[string]any{"resultType": "success"}})
	var out bytes.Buffer
	o := Run(context.Background(), Copilot{}, strings.NewReader(ev), &out, Options{NoDaemon: true, Local: sidecar.Local{}, NoShell: true})
	if out.Len() != 0 || o.Exit != 0 || o.Result.Lint != "" {
		t.Errorf("a shell event under NoShell answered %q (exit %d, result %+v)", out.String(), o.Exit, o.Result)
	}
}
