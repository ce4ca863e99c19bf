package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"

	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

func TestClaudeDecode(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []wire.Change
		wantErr  string
		wantTool string
		shell    string              // shellOf the event
		calls    map[string][]string // Event.Calls
	}{
		{
			name: "write reads disk, not the event's content",
			in:   `{"session_id":"s1","cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"package a\n"},"tool_response":{"type":"create","filePath":"/r/a.go"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeWrite, Before: new(string)}}, // created: nothing before
		},
		{
			name: "edit carries the text before (tool_response.originalFile), for the session's record",
			in:   `{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y"},"tool_response":{"filePath":"/r/a.go","originalFile":"x\n"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit, Before: ptr("x\n")}},
		},
		{
			name: "edit reads disk",
			in:   `{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}},
		},
		{
			name:  "edit names its call",
			in:    `{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y"},"tool_use_id":"toolu_1"}`,
			want:  []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}},
			calls: map[string][]string{"/r/a.go": {"toolu_1"}},
		},
		{
			name: "multiedit",
			in:   `{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/r/b.yaml","edits":[{"old_string":"a","new_string":"b"}]}}`,
			want: []wire.Change{{Path: "/r/b.yaml", Mode: wire.ModeEdit}},
		},
		{name: "other tool", in: `{"hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"/r/a.go"}}`, wantTool: "Read"},
		{
			name: "notebook edit",
			in:   `{"hook_event_name":"PostToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/r/n.ipynb","new_source":"x = 1","cell_id":"c1"}}`,
			want: []wire.Change{{Path: "/r/n.ipynb", Mode: wire.ModeEdit}},
		},
		{name: "notebook edit without notebook_path", in: `{"hook_event_name":"PostToolUse","tool_name":"NotebookEdit","tool_input":{"file_path":"/r/n.ipynb"}}`, wantErr: "tool_input.notebook_path is missing"},
		{
			name:  "bash with duration",
			in:    `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"sed -i s/a/b/ x.go"},"tool_response":{"stdout":"","stderr":"","interrupted":false},"duration_ms":1500}`,
			shell: "1.5s", wantTool: "Bash",
		},
		{
			name:  "bash duration in tool_response",
			in:    `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"duration_ms":250}}`,
			shell: "250ms",
		},
		{name: "bash without duration", in: `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, shell: "unknown"},
		{name: "bash absurd duration", in: `{"hook_event_name":"PostToolUse","tool_name":"Bash","duration_ms":-5}`, shell: "unknown"},
		{
			name: "batch merges every file",
			in: `{"session_id":"s","cwd":"/r","hook_event_name":"PostToolBatch","tool_calls":[
				{"tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y"},"tool_use_id":"t1","tool_response":"ok"},
				{"tool_name":"Read","tool_input":{"file_path":"/r/c.go"},"tool_use_id":"t2","tool_response":"…"},
				{"tool_name":"Write","tool_input":{"file_path":"/r/b.yaml","content":"a: 1\n"},"tool_use_id":"t3"},
				{"tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"y","new_string":"z"},"tool_use_id":"t4"}]}`,
			want:  []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}, {Path: "/r/b.yaml", Mode: wire.ModeWrite}},
			calls: map[string][]string{"/r/a.go": {"t1", "t4"}, "/r/b.yaml": {"t3"}},
		},
		{
			name:  "batch with bash",
			in:    `{"hook_event_name":"PostToolBatch","tool_calls":[{"tool_name":"Bash","tool_input":{"command":"gofmt -w ."},"tool_use_id":"t1","tool_response":""}]}`,
			shell: "unknown",
		},
		{name: "batch with a bad call", in: `{"hook_event_name":"PostToolBatch","tool_calls":[{"tool_name":"Write","tool_input":{}}]}`, wantErr: "tool_calls[0]"},
		{name: "other hook event", in: `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go"}}`},
		{name: "malformed json", in: `{"tool_name": "Write",`, wantErr: "decoding Claude Code hook event"},
		{name: "empty stdin", in: "  \n", wantErr: "empty input"},
		{name: "trailing data", in: `{"tool_name":"Write"} {"x":1}`, wantErr: "trailing data"},
		{name: "trailing bracket", in: `{"tool_name":"Write"}]`, wantErr: "trailing data"},
		{name: "missing file_path", in: `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{}}`, wantErr: "file_path is missing"},
		{name: "tool_input wrong type", in: `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":"x"}`, wantErr: "decoding Edit tool_input"},
		{name: "no tool_input", in: `{"hook_event_name":"PostToolUse","tool_name":"Write"}`, wantErr: "has no tool_input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Claude{}.Decode(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(ev.Changes)
			want, _ := json.Marshal(tt.want)
			if string(got) != string(want) {
				t.Errorf("changes = %s, want %s", got, want)
			}
			if !maps.EqualFunc(ev.Calls, tt.calls, slices.Equal) {
				t.Errorf("calls = %v, want %v", ev.Calls, tt.calls)
			}
			if tt.wantTool != "" && ev.Tool != tt.wantTool {
				t.Errorf("tool = %q", ev.Tool)
			}
			if got := shellOf(ev); got != tt.shell {
				t.Errorf("shell = %q, want %q", got, tt.shell)
			}
			if ev.Agent != "claude" || ev.Spool != SpoolNone || ev.Once {
				t.Errorf("event = %+v, want Claude Code's own, no spool", ev)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestClaudeEncode(t *testing.T) {
	lint := "LSP errors detected in this file, please fix:\n<diagnostics file=\"a.go\">\nERROR [1:1] x &lt; y\n</diagnostics>"
	res := wire.Result{Lint: lint}
	tests := []struct {
		name    string
		mode    Mode
		hook    string
		res     wire.Result
		want    string // stdout
		wantErr string // stderr
		exit    int
	}{
		{name: "clean prints nothing", mode: ModeContext},
		{name: "clean in exit2 exits 0", mode: ModeExit2},
		{name: "additionalContext", mode: ModeContext, hook: "PostToolUse", res: res,
			want: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"` + jsonText(lint) + `"}}` + "\n"},
		{name: "batch", mode: ModeContext, hook: "PostToolBatch", res: res,
			want: `{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"` + jsonText(lint) + `"}}` + "\n"},
		{name: "no event name", mode: ModeContext, res: res,
			want: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"` + jsonText(lint) + `"}}` + "\n"},
		{name: "block", mode: ModeBlock, hook: "PostToolUse", res: res, want: `{"decision":"block","reason":"` + jsonText(lint) + `"}` + "\n"},
		{name: "exit2", mode: ModeExit2, hook: "PostToolUse", res: res, wantErr: lint + "\n", exit: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans, err := Claude{Mode: tt.mode}.Encode(Event{Hook: tt.hook, Agent: "claude"}, tt.res)
			if err != nil {
				t.Fatal(err)
			}
			if string(ans.Stdout) != tt.want || string(ans.Stderr) != tt.wantErr || ans.Exit != tt.exit {
				t.Errorf("answer = stdout %q stderr %q exit %d\nwant stdout %q stderr %q exit %d",
					ans.Stdout, ans.Stderr, ans.Exit, tt.want, tt.wantErr, tt.exit)
			}
			if strings.Contains(string(ans.Stdout), `\u003c`) {
				t.Errorf("output escapes < and >, unreadable in transcripts: %s", ans.Stdout)
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string (without HTML escapes).
func jsonText(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	out := strings.TrimSpace(b.String())
	return out[1 : len(out)-1]
}

func FuzzClaudeDecode(f *testing.F) {
	f.Add(`{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"x"}}`)
	f.Add(`{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"a"}}`)
	f.Add(`{"tool_name":"MultiEdit","tool_input":null}`)
	f.Add(`[]`)
	f.Add(`{"hook_event_name":"PostToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/r/n.ipynb"}}`)
	f.Add(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"duration_ms":12}`)
	f.Add(`{"hook_event_name":"PostToolBatch","tool_calls":[{"tool_name":"Edit","tool_input":{"file_path":"/r/a"}}]}`)
	f.Add(`{"conversation_id":"c","hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"path":"a"}}`)
	f.Add(`{"session_id":"s","timestamp":"2026-01-01T00:00:00Z","hook_event_name":"Stop"}`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := Claude{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
	})
}

// TestRunInProcess runs the hook with no daemon: the validators still answer.
func TestRunInProcess(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testdir.New(t))
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	event := map[string]any{
		"session_id": "s", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": filepath.Join(root, "conf.toml"), "content": "a = 1\nb = \n"},
	}
	os.WriteFile(filepath.Join(root, "conf.toml"), []byte("a = 1\nb = \n"), 0o644)
	in, _ := json.Marshal(event)
	var out bytes.Buffer
	// The log goes beside a socket in a private runtime directory.
	t.Setenv("XDG_RUNTIME_DIR", testdir.New(t))
	t.Setenv(wire.SocketEnv, "")
	res := Run(context.Background(), Claude{}, bytes.NewReader(in), &out, Options{NoDaemon: true, Local: sidecar.Local{}, Budget: 2 * time.Second}).Result
	if len(res.Files) != 1 || res.Files[0].Rel != "conf.toml" {
		t.Fatalf("result = %+v", res)
	}
	if !strings.Contains(out.String(), `<diagnostics file=\"conf.toml\">\nERROR [2:`) {
		t.Errorf("output = %s", out.String())
	}

	// A malformed event prints nothing and does not panic.
	out.Reset()
	// A malformed event has no cwd: the process's working directory names
	// the workspace.
	t.Chdir(root)
	Run(context.Background(), Claude{}, strings.NewReader("{oops"), &out, Options{NoDaemon: true, Local: sidecar.Local{}})
	if out.Len() != 0 {
		t.Errorf("malformed event printed %q", out.String())
	}
	// Both runs logged beside the workspace's socket, where the daemon logs.
	logged, err := os.ReadFile(wire.LogPath(wire.SocketPath(root)))
	if err != nil {
		t.Fatalf("hook log: %v", err)
	}
	for _, want := range []string{`msg="hook answered"`, `msg="ignoring hook event"`} {
		if !strings.Contains(string(logged), want) {
			t.Errorf("hook log lacks %s:\n%s", want, logged)
		}
	}
}

// TestClaudeLifecycle: Claude Code's session events (hooks reference:
// SessionStart, Stop, SubagentStop with stop_hook_active, SessionEnd),
// Codex's, which take the same names, and Gemini CLI's, Copilot's,
// Cursor's and the OpenCode plugin's decode as session events; the Stop
// gate's answer is Claude's decision control (TestEncodeStop: the others).
func TestClaudeLifecycle(t *testing.T) {
	for _, tc := range []struct {
		a      Adapter
		in     string
		want   Lifecycle
		active bool
	}{
		{Claude{}, `{"session_id":"s","cwd":"/r","hook_event_name":"SessionStart","source":"startup"}`, LifecycleStart, false},
		{Claude{}, `{"session_id":"s","cwd":"/r","hook_event_name":"Stop","stop_hook_active":false}`, LifecycleStop, false},
		{Claude{}, `{"session_id":"s","cwd":"/r","hook_event_name":"SubagentStop","stop_hook_active":true}`, LifecycleStop, true},
		{Claude{}, `{"session_id":"s","cwd":"/r","hook_event_name":"SessionEnd","reason":"exit"}`, LifecycleEnd, false},
		{Claude{}, `{"session_id":"s","cwd":"/r","hook_event_name":"UserPromptSubmit","prompt":"hi"}`, "", false},
		{Codex{}, `{"session_id":"s","cwd":"/r","hook_event_name":"SessionStart"}`, LifecycleStart, false},
		{Codex{}, `{"session_id":"s","cwd":"/r","hook_event_name":"Stop","stop_hook_active":true}`, LifecycleStop, true},
		// Gemini CLI (hooks reference: SessionStart source, AfterAgent
		// prompt, prompt_response, stop_hook_active, SessionEnd reason).
		{Gemini{}, `{"session_id":"s","cwd":"/r","hook_event_name":"SessionStart","timestamp":"2026-01-04T10:15:45Z","source":"startup"}`, LifecycleStart, false},
		{Gemini{}, `{"session_id":"s","cwd":"/r","hook_event_name":"AfterAgent","prompt":"fix it","prompt_response":"done","stop_hook_active":false}`, LifecycleStop, false},
		{Gemini{}, `{"session_id":"s","cwd":"/r","hook_event_name":"AfterAgent","prompt":"fix it","prompt_response":"done","stop_hook_active":true}`, LifecycleStop, true},
		{Gemini{}, `{"session_id":"s","cwd":"/r","hook_event_name":"SessionEnd","reason":"exit"}`, LifecycleEnd, false},
		{Gemini{}, `{"session_id":"s","cwd":"/r","hook_event_name":"BeforeAgent","prompt":"hi"}`, "", false},
		// Copilot CLI, camelCase (no hook_event_name: told by the fields)
		// and PascalCase-configured (cli-hooks-reference).
		{Copilot{}, `{"sessionId":"s","timestamp":1767521745678,"cwd":"/r","source":"new","initialPrompt":"fix it"}`, LifecycleStart, false},
		{Copilot{}, `{"sessionId":"s","timestamp":1767521745678,"cwd":"/r","transcriptPath":"/t.jsonl","stopReason":"end_turn"}`, LifecycleStop, false},
		{Copilot{}, `{"sessionId":"s","timestamp":1767521745678,"cwd":"/r","transcriptPath":"/t.jsonl","agentName":"explore","stopReason":"end_turn"}`, LifecycleStop, false},
		{Copilot{}, `{"sessionId":"s","timestamp":1767521745678,"cwd":"/r","reason":"complete"}`, LifecycleEnd, false},
		{Copilot{}, `{"hook_event_name":"SessionStart","session_id":"s","timestamp":"2026-01-04T10:15:45Z","cwd":"/r","source":"startup"}`, LifecycleStart, false},
		{Copilot{}, `{"hook_event_name":"Stop","session_id":"s","timestamp":"2026-01-04T10:15:45Z","cwd":"/r","transcript_path":"/t","stop_reason":"end_turn"}`, LifecycleStop, false},
		{Copilot{}, `{"hook_event_name":"SessionEnd","session_id":"s","timestamp":"2026-01-04T10:15:45Z","cwd":"/r","reason":"user_exit"}`, LifecycleEnd, false},
		{Copilot{}, `{"sessionId":"s","timestamp":1767521745678,"cwd":"/r","prompt":"hi"}`, "", false},
		// Cursor (hooks: sessionStart session_id, stop status and
		// loop_count, sessionEnd reason); an aborted turn is not gated.
		{Cursor{}, `{"conversation_id":"s","generation_id":"g","hook_event_name":"sessionStart","session_id":"s","is_background_agent":false,"composer_mode":"agent","workspace_roots":["/r"]}`, LifecycleStart, false},
		{Cursor{}, `{"conversation_id":"s","generation_id":"g","hook_event_name":"stop","status":"completed","loop_count":0,"workspace_roots":["/r"]}`, LifecycleStop, false},
		{Cursor{}, `{"conversation_id":"s","generation_id":"g","hook_event_name":"stop","status":"aborted","loop_count":0,"workspace_roots":["/r"]}`, "", false},
		{Cursor{}, `{"conversation_id":"s","generation_id":"g","hook_event_name":"sessionEnd","session_id":"s","reason":"completed","duration_ms":4200,"workspace_roots":["/r"]}`, LifecycleEnd, false},
		// OpenCode: the plugin's session events.
		{OpenCode{}, `{"hook_event_name":"session.created","session_id":"s","cwd":"/r"}`, LifecycleStart, false},
		{OpenCode{}, `{"hook_event_name":"session.deleted","session_id":"s","cwd":"/r"}`, LifecycleEnd, false},
	} {
		ev, err := tc.a.Decode(strings.NewReader(tc.in))
		if err != nil || ev.Lifecycle != tc.want || ev.StopActive != tc.active || ev.Session != "s" || len(ev.Changes) > 0 {
			t.Errorf("%s %s: %+v, %v; want lifecycle %q, active %v", tc.a.Name(), tc.in, ev, err, tc.want, tc.active)
		}
	}
	for _, tc := range []struct {
		res  wire.SessionStopResult
		want string
	}{
		{wire.SessionStopResult{Decision: wire.StopBlock, Lint: "E"}, `{"decision":"block","reason":"E"}` + "\n"},
		{wire.SessionStopResult{Decision: wire.StopWarn, Lint: "E"}, `{"systemMessage":"E"}` + "\n"},
		{wire.SessionStopResult{Decision: wire.StopAllow}, ""},
	} {
		ans, err := Claude{}.EncodeStop(Event{}, tc.res)
		if err != nil || string(ans.Stdout) != tc.want || ans.Exit != 0 {
			t.Errorf("EncodeStop(%+v) = %q, %v; want %q", tc.res, ans.Stdout, err, tc.want)
		}
	}
}

// TestEncodeStop: each agent's answer to the Stop gate's decisions —
// Gemini CLI's AfterAgent decision "deny" with a reason (a retry turn),
// Copilot's agentStop decision "block" (another turn), Cursor's stop
// followup_message (the next user message), Codex's Claude shape; warn is
// a systemMessage where the agent shows one to the user, else nothing.
func TestEncodeStop(t *testing.T) {
	block := wire.SessionStopResult{Decision: wire.StopBlock, Lint: "E <x>", Errors: 1}
	warn := wire.SessionStopResult{Decision: wire.StopWarn, Lint: "E <x>", Errors: 1}
	allow := wire.SessionStopResult{Decision: wire.StopAllow}
	for _, tc := range []struct {
		a    StopEncoder
		ev   Event
		res  wire.SessionStopResult
		want string
	}{
		{Gemini{}, Event{}, block, `{"decision":"deny","reason":"E <x>"}`},
		{Gemini{}, Event{}, warn, `{"systemMessage":"E <x>"}`},
		{Gemini{}, Event{}, allow, ``},
		{Copilot{}, Event{}, block, `{"decision":"block","reason":"E <x>"}`},
		{Copilot{}, Event{}, warn, ``},
		{Copilot{}, Event{}, allow, ``},
		{Cursor{}, Event{}, block, `{"followup_message":"E <x>"}`},
		{Cursor{}, Event{}, warn, ``},
		{Cursor{}, Event{}, allow, ``},
		{Codex{}, Event{}, block, `{"decision":"block","reason":"E ＜x＞"}`}, // tag-free: Codex escapes the reason
		// Cursor and Copilot running .claude/settings.json's Stop hook.
		{Claude{}, Event{Agent: "cursor"}, block, `{"followup_message":"E <x>"}`},
		{Claude{}, Event{Agent: "copilot"}, warn, ``},
	} {
		ans, err := tc.a.EncodeStop(tc.ev, tc.res)
		if got := strings.TrimSuffix(string(ans.Stdout), "\n"); err != nil || got != tc.want || ans.Exit != 0 {
			t.Errorf("%T.EncodeStop(%+v, %s) = %q, %v; want %q", tc.a, tc.ev, tc.res.Decision, got, err, tc.want)
		}
	}
	if _, ok := any(OpenCode{}).(StopEncoder); ok {
		t.Error("OpenCode has no end of turn to block, but its adapter renders a Stop answer")
	}
}
