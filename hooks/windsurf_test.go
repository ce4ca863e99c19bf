package hooks

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/wire"
)

func TestWindsurfDecode(t *testing.T) {
	runDecodeTable(t, Windsurf{}, []decodeCase{
		{
			name: "post_write_code",
			in:   `{"agent_action_name":"post_write_code","trajectory_id":"tr1","execution_id":"ex1","timestamp":"2026-01-01T00:00:00Z","tool_info":{"file_path":"/r/sub/a.go","edits":[{"old_string":"import os","new_string":"import os\nimport sys"}]}}`,
			want: []wire.Change{{Path: "/r/sub/a.go", Mode: wire.ModeEdit}}, session: "tr1", cwd: "/r/sub", agent: "windsurf",
		},
		{name: "another action", in: `{"agent_action_name":"post_read_code","tool_info":{"file_path":"/r/a.go"}}`},
		{name: "missing file_path", in: `{"agent_action_name":"post_write_code","tool_info":{}}`, wantErr: "tool_info.file_path is missing"},
		{name: "malformed", in: `{"agent_action_name":`, wantErr: "decoding Windsurf hook event"},
	})
}

func TestWindsurfEncode(t *testing.T) {
	ans, err := Windsurf{}.Encode(Event{}, wire.Result{Lint: "ERROR [1:1] x"})
	if err != nil || string(ans.Stdout) != "ERROR [1:1] x\n" || ans.Exit != 0 {
		t.Fatalf("answer = %+v, %v", ans, err)
	}
	for _, m := range []Mode{ModeBlock, ModeExit2} {
		if _, err := New("windsurf", Settings{Mode: m}); err == nil {
			t.Errorf("windsurf took --mode %s", m)
		}
	}
}

func FuzzWindsurfDecode(f *testing.F) {
	f.Add(`{"agent_action_name":"post_write_code","trajectory_id":"t","tool_info":{"file_path":"/r/a.go"}}`)
	f.Add(`{"agent_action_name":"post_write_code","tool_info":{"file_path":"rel.go"}}`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := Windsurf{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		checkEvent(t, in, ev)
	})
}
