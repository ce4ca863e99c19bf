package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

func TestClaudeDecode(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []sidecar.Change
		wantErr  string
		wantTool string
	}{
		{
			name: "write carries content",
			in:   `{"session_id":"s1","cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"package a\n"},"tool_response":{"type":"create","filePath":"/r/a.go"}}`,
			want: []sidecar.Change{{Path: "/r/a.go", Mode: sidecar.ModeWrite, Content: ptr("package a\n")}},
		},
		{
			name: "edit reads disk",
			in:   `{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/r/a.go","old_string":"x","new_string":"y"}}`,
			want: []sidecar.Change{{Path: "/r/a.go", Mode: sidecar.ModeEdit}},
		},
		{
			name: "multiedit",
			in:   `{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/r/b.yaml","edits":[{"old_string":"a","new_string":"b"}]}}`,
			want: []sidecar.Change{{Path: "/r/b.yaml", Mode: sidecar.ModeEdit}},
		},
		{name: "other tool", in: `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, wantTool: "Bash"},
		{name: "notebook edit not yet", in: `{"hook_event_name":"PostToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/r/n.ipynb"}}`},
		{name: "other hook event", in: `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go"}}`},
		{name: "malformed json", in: `{"tool_name": "Write",`, wantErr: "decoding Claude Code hook event"},
		{name: "empty stdin", in: "  \n", wantErr: "empty input"},
		{name: "trailing data", in: `{"tool_name":"Write"} {"x":1}`, wantErr: "trailing data"},
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
			if tt.wantTool != "" && ev.Tool != tt.wantTool {
				t.Errorf("tool = %q", ev.Tool)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestClaudeEncode(t *testing.T) {
	var b bytes.Buffer
	if err := (Claude{}).Encode(&b, ""); err != nil || b.Len() != 0 {
		t.Fatalf("clean file printed %q, %v", b.String(), err)
	}
	lint := "LSP errors detected in this file, please fix:\n<diagnostics file=\"a.go\">\nERROR [1:1] x &lt; y\n</diagnostics>"
	if err := (Claude{}).Encode(&b, lint); err != nil {
		t.Fatal(err)
	}
	var out struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.HookSpecificOutput.HookEventName != "PostToolUse" || out.HookSpecificOutput.AdditionalContext != lint {
		t.Errorf("output = %s", b.String())
	}
	if !strings.Contains(b.String(), `<diagnostics file=\"a.go\">`) {
		t.Errorf("output escapes < and >, unreadable in transcripts: %s", b.String())
	}
}

func FuzzClaudeDecode(f *testing.F) {
	f.Add(`{"cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/r/a.go","content":"x"}}`)
	f.Add(`{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"a"}}`)
	f.Add(`{"tool_name":"MultiEdit","tool_input":null}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, in string) {
		ev, err := Claude{}.Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, c := range ev.Changes {
			if c.Path == "" {
				t.Fatalf("change without a path from %q", in)
			}
			if c.Mode != sidecar.ModeEdit && c.Mode != sidecar.ModeWrite {
				t.Fatalf("bad mode %q", c.Mode)
			}
		}
	})
}

// TestRunInProcess runs the hook with no daemon: the validators still answer.
func TestRunInProcess(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	event := map[string]any{
		"session_id": "s", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": filepath.Join(root, "conf.toml"), "content": "a = 1\nb = \n"},
	}
	os.WriteFile(filepath.Join(root, "conf.toml"), []byte("a = 1\nb = \n"), 0o644)
	in, _ := json.Marshal(event)
	var out bytes.Buffer
	// The log goes beside a socket in a private runtime directory.
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv(sidecar.SocketEnv, "")
	res := Run(context.Background(), Claude{}, bytes.NewReader(in), &out, Options{NoDaemon: true, Budget: 2 * time.Second})
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
	Run(context.Background(), Claude{}, strings.NewReader("{oops"), &out, Options{NoDaemon: true})
	if out.Len() != 0 {
		t.Errorf("malformed event printed %q", out.String())
	}
	// Both runs logged beside the workspace's socket, where the daemon logs.
	logged, err := os.ReadFile(sidecar.LogPath(sidecar.SocketPath(root)))
	if err != nil {
		t.Fatalf("hook log: %v", err)
	}
	for _, want := range []string{`msg="hook answered"`, `msg="ignoring hook event"`} {
		if !strings.Contains(string(logged), want) {
			t.Errorf("hook log lacks %s:\n%s", want, logged)
		}
	}
}
