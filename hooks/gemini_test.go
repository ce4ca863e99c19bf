package hooks

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

const geminiCommon = `"session_id":"g1","transcript_path":"/t.json","cwd":"/r","hook_event_name":"AfterTool","timestamp":"2026-01-01T00:00:00Z"`

func TestGeminiDecode(t *testing.T) {
	runDecodeTable(t, Gemini{}, []decodeCase{
		{
			name: "write_file is a write read from disk",
			in:   `{` + geminiCommon + `,"tool_name":"write_file","tool_input":{"file_path":"/r/a.go","content":"package a"},"tool_response":{"llmContent":"Successfully created","returnDisplay":"ok"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeWrite}}, session: "g1", cwd: "/r", agent: "gemini",
		},
		{
			name: "replace is an edit",
			in:   `{` + geminiCommon + `,"tool_name":"replace","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y"},"tool_response":{"llmContent":"ok"}}`,
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}},
		},
		{
			name: "failed tool",
			in:   `{` + geminiCommon + `,"tool_name":"replace","tool_input":{"file_path":"/r/a.go"},"tool_response":{"llmContent":"","error":"Failed to edit, 0 occurrences found"}}`,
		},
		{name: "run_shell_command is a shell event", in: `{` + geminiCommon + `,"tool_name":"run_shell_command","tool_input":{"command":"gofmt -w ."},"tool_response":{"llmContent":"ok"}}`, shell: "unknown"},
		{name: "other tool", in: `{` + geminiCommon + `,"tool_name":"read_file","tool_input":{"path":"/r/a.go"}}`},
		{name: "other event", in: `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/r/a.go"}}`},
		{name: "missing file_path", in: `{` + geminiCommon + `,"tool_name":"write_file","tool_input":{"path":"/r/a.go"}}`, wantErr: "file_path is missing"},
		{name: "missing tool_input", in: `{` + geminiCommon + `,"tool_name":"write_file"}`, wantErr: "no tool_input"},
		{name: "malformed", in: `{"tool_name":`, wantErr: "decoding Gemini CLI hook event"},
	})
}

func TestGeminiEncode(t *testing.T) {
	ans, err := Gemini{}.Encode(Event{}, wire.Result{Lint: "L:\n<diagnostics file=\"a.go\">\nERROR [1:2] x &lt;-chan\n</diagnostics>"})
	want := `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"L:\ndiagnostics for a.go:\nERROR [1:2] x ＜-chan"}}` + "\n"
	if err != nil || string(ans.Stdout) != want || ans.Exit != 0 || len(ans.Stderr) != 0 {
		t.Fatalf("answer = %+v, %v", ans, err)
	}
	if _, err := New("gemini", Settings{Mode: ModeExit2}); err == nil {
		t.Error("gemini took --mode exit2, which replaces the tool result")
	}
	if _, err := New("gemini", Settings{Mode: ModeBlock}); err == nil {
		t.Error("gemini took --mode block")
	}
}

func FuzzGeminiDecode(f *testing.F) {
	f.Add(`{` + geminiCommon + `,"tool_name":"write_file","tool_input":{"file_path":"/r/a.go"}}`)
	f.Add(`{"hook_event_name":"AfterTool","tool_name":"replace","tool_input":{"file_path":"a"},"tool_response":{"error":null}}`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := Gemini{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
	})
}
