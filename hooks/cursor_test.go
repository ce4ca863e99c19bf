package hooks

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

const cursorCommon = `"conversation_id":"conv-1","generation_id":"gen-1","model":"m","cursor_version":"1.7.2","workspace_roots":["/r"],"user_email":null,"transcript_path":null`

func TestCursorDecode(t *testing.T) {
	runDecodeTable(t, Cursor{}, []decodeCase{
		{
			name: "afterFileEdit is recorded",
			in:   `{` + cursorCommon + `,"hook_event_name":"afterFileEdit","file_path":"/r/a.go","edits":[{"old_string":"x","new_string":"y"}]}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}}, session: "conv-1", cwd: "/r", agent: "cursor",
			spool: SpoolRecord, once: true,
		},
		{
			name:  "postToolUse of another tool takes the spool",
			in:    `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Read","tool_input":{"file_path":"/r/a.go"},"tool_output":"{}","tool_use_id":"t","cwd":"/r","duration":3}`,
			spool: SpoolTake, once: true,
		},
		{
			name: "postToolUse of Delete names the gone file, whose callers may break",
			in:   `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Delete","tool_input":{"target_file":"pkg/gone.go"},"tool_output":"{}","tool_use_id":"t","cwd":"/r"}`,
			want: []wire.Change{{Path: "/r/pkg/gone.go", Mode: wire.ModeWrite}}, spool: SpoolTake, once: true,
		},
		{
			name:  "postToolUse of Write adds its file",
			in:    `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"file_path":"/r/b.go","contents":"x"},"tool_output":"{}","tool_use_id":"t","cwd":"/r"}`,
			want:  []wire.Change{{Path: "/r/b.go", Mode: wire.ModeEdit}},
			spool: SpoolTake, once: true,
		},
		{
			name:  "relative path under cwd",
			in:    `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"path":"sub/b.go"},"cwd":"/w"}`,
			want:  []wire.Change{{Path: "/w/sub/b.go", Mode: wire.ModeEdit}},
			spool: SpoolTake, once: true, cwd: "/w",
		},
		{
			name:  "shell with duration",
			in:    `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Shell","tool_input":{"command":"sed -i s/a/b/ x"},"tool_output":"{\"exitCode\":0}","duration":5432}`,
			spool: SpoolTake, once: true, shell: "5.432s",
		},
		{
			name:  "shell without duration",
			in:    `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Shell","tool_input":{"command":"ls"}}`,
			spool: SpoolTake, once: true, shell: "unknown",
		},
		{
			name: "write with an unknown tool_input shape",
			in:   `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Write","tool_input":"x"}`, spool: SpoolTake, once: true,
		},
		{name: "stop takes the spool", in: `{` + cursorCommon + `,"hook_event_name":"stop","status":"completed","loop_count":0}`, spool: SpoolTake, once: true},
		{name: "aborted stop", in: `{` + cursorCommon + `,"hook_event_name":"stop","status":"aborted","loop_count":0}`, once: true},
		{name: "other event", in: `{` + cursorCommon + `,"hook_event_name":"beforeSubmitPrompt","prompt":"hi"}`, once: true},
		{name: "afterFileEdit without file_path", in: `{` + cursorCommon + `,"hook_event_name":"afterFileEdit"}`, wantErr: "file_path is missing"},
		{name: "malformed", in: `{"hook_event_name":`, wantErr: "decoding Cursor hook event"},
		{name: "not an object", in: `[1]`, wantErr: "decoding Cursor hook event"},
	})
}

func TestCursorEncode(t *testing.T) {
	ans, err := Cursor{}.Encode(Event{Agent: "cursor"}, wire.Result{})
	if err != nil || len(ans.Stdout) != 0 || ans.Exit != 0 {
		t.Fatalf("clean answer = %+v, %v", ans, err)
	}
	ans, err = Cursor{}.Encode(Event{Agent: "cursor"}, wire.Result{Lint: "ERROR <x>"})
	if err != nil || string(ans.Stdout) != `{"additional_context":"ERROR <x>"}`+"\n" || ans.Exit != 0 {
		t.Fatalf("answer = %q, %v", ans.Stdout, err)
	}
}

// TestClaudeUnderCursor: Cursor runs the hooks of .claude/settings.json
// with its own event shape; `hook claude` reads it as Cursor's and answers
// as Cursor expects.
func TestClaudeUnderCursor(t *testing.T) {
	in := `{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"file_path":"/r/b.go"},"cwd":"/r"}`
	ev, err := Claude{Mode: ModeBlock}.Decode(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Agent != "cursor" || !ev.Once || ev.Spool != SpoolTake || ev.Session != "conv-1" || len(ev.Changes) != 1 {
		t.Fatalf("event = %+v", ev)
	}
	ans, err := Claude{Mode: ModeBlock}.Encode(ev, wire.Result{Lint: "L"})
	if err != nil || string(ans.Stdout) != `{"additional_context":"L"}`+"\n" {
		t.Fatalf("answer = %q, %v", ans.Stdout, err)
	}
}

func FuzzCursorDecode(f *testing.F) {
	f.Add(`{` + cursorCommon + `,"hook_event_name":"afterFileEdit","file_path":"/r/a.go"}`)
	f.Add(`{` + cursorCommon + `,"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"path":"a"}}`)
	f.Add(`{"hook_event_name":"postToolUse","tool_name":"Shell","duration":-1e308}`)
	f.Add(`{"hook_event_name":"afterFileEdit","file_path":""}`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := Cursor{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
	})
}
