package hooks

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

func TestCopilotDecode(t *testing.T) {
	runDecodeTable(t, Copilot{}, []decodeCase{
		{
			name: "postToolUse edit is checked now",
			in:   `{"sessionId":"cp1","timestamp":1704614600000,"cwd":"/r","toolName":"edit","toolArgs":"{\"path\":\"/r/a.go\",\"old_str\":\"x\",\"new_str\":\"y\"}","toolResult":{"resultType":"success","textResultForLlm":"ok"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}}, session: "cp1", cwd: "/r", agent: "copilot",
			once: true,
		},
		{
			name: "create with object args and a relative path",
			in:   `{"sessionId":"cp1","timestamp":1,"cwd":"/r","toolName":"create","toolArgs":{"path":"b.go","file_text":"package b"},"toolResult":{"resultType":"success"}}`,
			want: []wire.Change{{Path: "/r/b.go", Mode: wire.ModeWrite}}, once: true,
		},
		{
			name: "failed tool records nothing",
			in:   `{"sessionId":"cp1","cwd":"/r","toolName":"edit","toolArgs":"{\"path\":\"/r/a.go\"}","toolResult":{"resultType":"failure","textResultForLlm":"no match"}}`,
			once: true,
		},
		{
			name: "view records nothing",
			in:   `{"sessionId":"cp1","cwd":"/r","toolName":"str_replace_editor","toolArgs":{"command":"view","path":"/r/a.go"},"toolResult":{"resultType":"success"}}`,
			once: true,
		},
		{
			name: "bash is a shell event",
			in:   `{"sessionId":"cp1","cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"sed -i s/a/b/ a.go\"}","toolResult":{"resultType":"success"}}`,
			once: true, shell: "unknown",
		},
		{
			name: "apply_patch: toolArgs holds the raw patch, paths relative to cwd",
			in:   `{"sessionId":"cp1","timestamp":1,"cwd":"/r","toolName":"apply_patch","toolArgs":"*** Begin Patch\n*** Add File: n.go\n+package n\n*** Update File: a.go\n@@\n-x\n+y\n*** Delete File: d.go\n*** End Patch\n","toolResult":{"resultType":"success","textResultForLlm":"Done"}}`,
			want: []wire.Change{{Path: "/r/n.go", Mode: wire.ModeWrite, Before: new(string)}, {Path: "/r/a.go", Mode: wire.ModeEdit}, {Path: "/r/d.go", Mode: wire.ModeWrite}}, once: true,
		},
		{
			name: "apply_patch as a function tool: toolArgs holds {input}",
			in:   `{"sessionId":"cp1","timestamp":1,"cwd":"/r","toolName":"apply_patch","toolArgs":"{\"input\":\"*** Begin Patch\\n*** Update File: /abs/a.go\\n@@\\n-x\\n+y\\n*** End Patch\"}","toolResult":{"resultType":"success"}}`,
			want: []wire.Change{{Path: "/abs/a.go", Mode: wire.ModeEdit}}, once: true,
		},
		{name: "apply_patch that failed", in: `{"sessionId":"cp1","cwd":"/r","toolName":"apply_patch","toolArgs":"junk","toolResult":{"resultType":"failure"}}`, once: true},
		{name: "apply_patch without a patch", in: `{"sessionId":"cp1","cwd":"/r","toolName":"apply_patch","toolArgs":"junk","toolResult":{"resultType":"success"}}`, wantErr: "Begin Patch"},
		{
			name: "str_replace and insert are edits",
			in:   `{"sessionId":"cp1","cwd":"/r","toolName":"insert","toolArgs":"{\"path\":\"a.go\",\"insert_line\":1,\"new_str\":\"x\"}","toolResult":{"resultType":"success"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}}, once: true,
		},
		{name: "preToolUse is not ours", in: `{"sessionId":"cp1","cwd":"/r","toolName":"edit","toolArgs":"{\"path\":\"/r/a.go\"}"}`, once: true},
		{
			name:  "agentStop takes the spool",
			in:    `{"sessionId":"cp1","timestamp":1704614800000,"cwd":"/r","transcriptPath":"/t","stopReason":"end_turn"}`,
			spool: SpoolTake, once: true, session: "cp1",
		},
		{
			name: "PascalCase PostToolUse from .claude/settings.json",
			in:   `{"session_id":"cp2","timestamp":"2026-01-01T00:00:00Z","cwd":"/r","hook_event_name":"PostToolUse","tool_name":"edit","tool_input":{"path":"/r/a.go"},"tool_result":{"resultType":"success"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}}, session: "cp2", once: true,
		},
		{name: "PascalCase Stop", in: `{"session_id":"cp2","timestamp":"2026-01-01T00:00:00Z","cwd":"/r","hook_event_name":"Stop","stop_hook_active":false}`, spool: SpoolTake, once: true},
		{name: "session start", in: `{"sessionId":"cp1","timestamp":1,"cwd":"/r","source":"new"}`, once: true},
		{name: "bad toolArgs", in: `{"sessionId":"cp1","toolName":"edit","toolArgs":"{oops","toolResult":{}}`, wantErr: "decoding tool arguments"},
		{name: "malformed", in: `{"toolName":`, wantErr: "decoding Copilot hook event"},
	})
}

func TestCopilotEncode(t *testing.T) {
	for hook, want := range map[string]string{
		"postToolUse": `{"additionalContext":"L"}`,
		"PostToolUse": `{"additionalContext":"L"}`,
		"agentStop":   `{"decision":"block","reason":"L"}`,
		"Stop":        `{"decision":"block","reason":"L"}`,
	} {
		ev := Event{Hook: hook}
		if strings.HasSuffix(hook, "Stop") || hook == "Stop" {
			ev.Lifecycle = LifecycleStop // as decodeCopilot marks them
		}
		ans, err := Copilot{}.Encode(ev, wire.Result{Lint: "L"})
		if err != nil || string(ans.Stdout) != want+"\n" || ans.Exit != 0 {
			t.Errorf("%s answer = %+v, %v; want %s", hook, ans, err, want)
		}
	}
	if ans, _ := (Copilot{}).Encode(Event{}, wire.Result{}); len(ans.Stdout) != 0 {
		t.Fatalf("clean answer = %q", ans.Stdout)
	}
}

// TestRunnerOf: the Claude adapter tells Claude Code's events from those
// Cursor and Copilot send to the hooks of .claude/settings.json.
func TestRunnerOf(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"session_id":"s","transcript_path":"/t","cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Write"}`, "claude"},
		{`{"conversation_id":"c","hook_event_name":"postToolUse","tool_name":"Write"}`, "cursor"},
		{`{"cursor_version":"1.7","hook_event_name":"PostToolUse"}`, "cursor"},
		{`{"workspace_roots":["/r"]}`, "cursor"},
		{`{"sessionId":"s","toolName":"edit"}`, "copilot"},
		{`{"session_id":"s","timestamp":"2026-01-01T00:00:00Z","hook_event_name":"PostToolUse"}`, "copilot"},
		{`{"session_id":"s","timestamp":"2026-01-01T00:00:00Z","transcript_path":"/t","hook_event_name":"AfterTool"}`, "claude"},
		{`{"timestamp":null}`, "claude"},
		{`not json`, "claude"},
	} {
		if got := runnerOf([]byte(tt.in)); got != tt.want {
			t.Errorf("runnerOf(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestClaudeDecodeRunner: Claude{}.Decode reads the event and the
// runner's fields in one pass, and gives another runner's event to its
// decoder even when a field has a type ClaudeEvent cannot take (then the
// fields are probed alone, as runnerOf does).
func TestClaudeDecodeRunner(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"session_id":"s","transcript_path":"/t","cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Read"}`, "claude"},
		{`{"conversation_id":"c","hook_event_name":"afterFileEdit","file_path":"/r/a.go","workspace_roots":["/r"]}`, "cursor"},
		{`{"conversation_id":"c","hook_event_name":"stop","status":"completed","stop_hook_active":"no","workspace_roots":["/r"]}`, "cursor"},
		{`{"sessionId":"s","cwd":"/r","toolName":"view","toolArgs":"{}","duration_ms":"soon"}`, "copilot"},
	} {
		ev, err := Claude{}.Decode(strings.NewReader(tt.in))
		if err != nil || ev.Agent != tt.want {
			t.Errorf("Decode(%s) = agent %q, %v; want %s", tt.in, ev.Agent, err, tt.want)
		}
	}
	if _, err := (Claude{}).Decode(strings.NewReader(`{"session_id":"s","hook_event_name":"PostToolUse","duration_ms":"soon"}`)); err == nil {
		t.Error("a Claude Code event with a malformed duration_ms decoded without an error")
	}
}

func FuzzCopilotDecode(f *testing.F) {
	f.Add(`{"sessionId":"cp1","cwd":"/r","toolName":"edit","toolArgs":"{\"path\":\"/r/a.go\"}","toolResult":{"resultType":"success"}}`)
	f.Add(`{"sessionId":"cp1","cwd":"/r","stopReason":"end_turn"}`)
	f.Add(`{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"a"},"tool_result":{}}`)
	f.Add(`{"toolName":"create","toolArgs":"\"x\"","toolResult":1}`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := Copilot{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
	})
}
