package hooks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

const codexCommon = `"session_id":"x1","turn_id":"t1","transcript_path":null,"cwd":"/r","hook_event_name":"PostToolUse","model":"gpt-5","permission_mode":"default","tool_use_id":"call_1","tool_response":"Success."`

func codexEvent(tool string, input any) string {
	b, _ := json.Marshal(input)
	return `{` + codexCommon + `,"tool_name":"` + tool + `","tool_input":` + string(b) + `}`
}

func TestCodexDecode(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: pkg/new.go\n+package pkg\n*** Update File: main.go\n@@\n-x\n+y\n*** Update File: old.go\n*** Move to: pkg/moved.go\n*** Delete File: gone.go\n*** End Patch\n"
	runDecodeTable(t, Codex{}, []decodeCase{
		{
			name: "apply_patch adds, updates, moves and deletes",
			in:   codexEvent("apply_patch", map[string]string{"command": patch}),
			want: []wire.Change{
				{Path: "/r/pkg/new.go", Mode: wire.ModeWrite, Before: new(string)}, {Path: "/r/main.go", Mode: wire.ModeEdit},
				{Path: "/r/old.go", Mode: wire.ModeWrite}, {Path: "/r/pkg/moved.go", Mode: wire.ModeWrite}, {Path: "/r/gone.go", Mode: wire.ModeWrite},
			},
			session: "x1", cwd: "/r", agent: "codex",
		},
		{
			name: "freeform tool_input",
			in:   codexEvent("apply_patch", patch),
			want: []wire.Change{
				{Path: "/r/pkg/new.go", Mode: wire.ModeWrite, Before: new(string)}, {Path: "/r/main.go", Mode: wire.ModeEdit},
				{Path: "/r/old.go", Mode: wire.ModeWrite}, {Path: "/r/pkg/moved.go", Mode: wire.ModeWrite}, {Path: "/r/gone.go", Mode: wire.ModeWrite},
			},
		},
		{
			name: "function-call input",
			in:   codexEvent("apply_patch", map[string]string{"input": "*** Begin Patch\n*** Update File: a.go\n@@\n+x\n*** End Patch"}),
			want: []wire.Change{{Path: "/r/a.go", Mode: wire.ModeEdit}},
		},
		{name: "Bash is a shell event", in: codexEvent("Bash", map[string]string{"command": "sed -i s/a/b/ x.go"}), shell: "unknown"},
		{name: "other event", in: `{"hook_event_name":"Stop","tool_name":"apply_patch"}`},
		{name: "not a patch", in: codexEvent("apply_patch", map[string]string{"command": "echo hi"}), wantErr: "no \"*** Begin Patch\" line"},
		{name: "no command", in: codexEvent("apply_patch", map[string]string{"cmd": "x"}), wantErr: "tool_input.command is missing"},
		{name: "no tool_input", in: `{"hook_event_name":"PostToolUse","tool_name":"apply_patch"}`, wantErr: "no tool_input"},
		{name: "malformed", in: `{"tool_name":1}`, wantErr: "decoding Codex hook event"},
	})
}

func TestCodexEncode(t *testing.T) {
	for _, tt := range []struct {
		mode Mode
		want string
		exit int
	}{
		{ModeContext, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"L"}}` + "\n", 0},
		{ModeBlock, `{"decision":"block","reason":"L"}` + "\n", 0},
		{ModeExit2, "", 2},
	} {
		ans, err := Codex{Mode: tt.mode}.Encode(Event{}, wire.Result{Lint: "L"})
		if err != nil || string(ans.Stdout) != tt.want || ans.Exit != tt.exit {
			t.Errorf("%s: answer = %+v, %v", tt.mode, ans, err)
		}
	}
}

func FuzzCodexDecode(f *testing.F) {
	f.Add(codexEvent("apply_patch", map[string]string{"command": "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"}))
	f.Add(codexEvent("apply_patch", "*** Begin Patch\n*** Update File: ../x\n*** Move to: /y\n*** End Patch"))
	f.Add(`{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":null}`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := Codex{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
	})
}
