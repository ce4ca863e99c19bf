package main_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// stopAgent is one agent's side of TestStopGateAgents: its session
// events and a file tool's event as its hooks send them (the shapes of
// testdata/agents/<agent>/), and how its answer to an end of turn reads.
type stopAgent struct {
	name string
	// start and stop are the session start and the end of a turn
	// (active: the agent's "already continuing" flag, where it has one).
	start func(w *workspace, session string) string
	stop  func(w *workspace, session string, active bool) string
	// edit is the file tool's event after it wrote rel.
	edit func(w *workspace, session, rel string) string
	// blocked reads an end-of-turn answer: whether it keeps the turn
	// going, and the text the model gets ("" for no answer).
	blocked func(t *testing.T, stdout string) (bool, string)
}

// stopAgents are the agents besides Claude Code whose hooks can block an
// end of turn.
var stopAgents = []stopAgent{
	{
		name: "gemini",
		start: func(w *workspace, s string) string {
			return mustJSON(w.t, map[string]any{"session_id": s, "cwd": w.root, "hook_event_name": "SessionStart",
				"timestamp": "2026-01-04T10:15:45.123Z", "source": "startup"})
		},
		stop: func(w *workspace, s string, active bool) string {
			return mustJSON(w.t, map[string]any{"session_id": s, "cwd": w.root, "hook_event_name": "AfterAgent",
				"timestamp": "2026-01-04T10:16:45.123Z", "prompt": "add a counter", "prompt_response": "Done.",
				"stop_hook_active": active})
		},
		edit: func(w *workspace, s, rel string) string {
			return mustJSON(w.t, map[string]any{"session_id": s, "cwd": w.root, "hook_event_name": "AfterTool",
				"timestamp": "2026-01-04T10:16:00.123Z", "tool_name": "replace",
				"tool_input":    map[string]any{"file_path": w.path(rel), "old_string": "…", "new_string": "…"},
				"tool_response": map[string]any{"llmContent": "Successfully modified file", "returnDisplay": ""}})
		},
		blocked: func(t *testing.T, out string) (bool, string) {
			var a struct{ Decision, Reason, SystemMessage string }
			unmarshalAnswer(t, out, &a)
			return a.Decision == "deny", a.Reason
		},
	},
	{
		name: "copilot",
		start: func(w *workspace, s string) string {
			return mustJSON(w.t, map[string]any{"sessionId": s, "timestamp": 1767521745678, "cwd": w.root, "source": "new"})
		},
		stop: func(w *workspace, s string, _ bool) string { // agentStop has no "already active" flag
			return mustJSON(w.t, map[string]any{"sessionId": s, "timestamp": 1767521805678, "cwd": w.root,
				"transcriptPath": "/home/dev/.copilot/session-state/" + s + "/events.jsonl", "stopReason": "end_turn"})
		},
		edit: func(w *workspace, s, rel string) string {
			args := mustJSON(w.t, map[string]any{"path": w.path(rel), "old_str": "…", "new_str": "…"})
			return mustJSON(w.t, map[string]any{"sessionId": s, "timestamp": 1767521765678, "cwd": w.root,
				"toolName": "edit", "toolArgs": args,
				"toolResult": map[string]any{"resultType": "success", "textResultForLlm": "File edited."}})
		},
		blocked: func(t *testing.T, out string) (bool, string) {
			var a struct{ Decision, Reason string }
			unmarshalAnswer(t, out, &a)
			return a.Decision == "block", a.Reason
		},
	},
	{
		name: "cursor",
		start: func(w *workspace, s string) string {
			return mustJSON(w.t, cursorEvent(w, s, "sessionStart", map[string]any{"session_id": s,
				"is_background_agent": false, "composer_mode": "agent"}))
		},
		stop: func(w *workspace, s string, _ bool) string { // loop_count counts the conversation's follow-ups
			return mustJSON(w.t, cursorEvent(w, s, "stop", map[string]any{"status": "completed", "loop_count": 0}))
		},
		edit: func(w *workspace, s, rel string) string {
			return mustJSON(w.t, cursorEvent(w, s, "postToolUse", map[string]any{"tool_name": "Write",
				"tool_input": map[string]any{"file_path": w.path(rel)}, "tool_output": "{}", "tool_use_id": "t1",
				"cwd": w.root, "duration": 3}))
		},
		blocked: func(t *testing.T, out string) (bool, string) {
			var a struct {
				FollowupMessage string `json:"followup_message"`
			}
			unmarshalAnswer(t, out, &a)
			return a.FollowupMessage != "", a.FollowupMessage
		},
	},
}

// cursorEvent is a Cursor hook event: the common fields and extra.
func cursorEvent(w *workspace, conversation, hook string, extra map[string]any) map[string]any {
	ev := map[string]any{"conversation_id": conversation, "generation_id": "g1", "model": "m",
		"hook_event_name": hook, "cursor_version": "1.7.2", "workspace_roots": []string{w.root},
		"user_email": nil, "transcript_path": nil}
	for k, v := range extra {
		ev[k] = v
	}
	return ev
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// unmarshalAnswer decodes a hook's answer; nothing printed leaves v as is.
func unmarshalAnswer(t *testing.T, out string, v any) {
	t.Helper()
	if out == "" {
		return
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("answer %q: %v", out, err)
	}
}

// TestStopGateAgents plays TestStopGate for Gemini CLI (AfterAgent),
// GitHub Copilot (agentStop) and Cursor (stop) through the real binary,
// daemon and gopls, each with its own events and answer: the session
// start prints nothing; a session that writes a type error and ends its
// turn is kept going with the error go build reports as the text; the
// next end of the same turn is not blocked again (Gemini's
// stop_hook_active, or the daemon's count where the agent sends no such
// flag); once fixed, the turn ends silently; an end of turn for a session
// the daemon never saw is allowed. The workspace is committed, so the
// files' git HEAD text is their state before the session.
func TestStopGateAgents(t *testing.T) {
	e2e(t)
	testdir.GitEnv(t) // an author for the commits, and no user config
	requireExe(t, "gopls")
	requireExe(t, "git")
	for _, a := range stopAgents {
		t.Run(a.name, func(t *testing.T) {
			w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
			git := func(args ...string) { t.Helper(); testdir.Git(t, w.root, args...) }
			git("add", "-A")
			git("commit", "-qm", "clean")
			run := func(event string) string {
				t.Helper()
				r := w.run(event, nil, "hook", a.name)
				if r.exit != 0 || r.stderr != "" {
					t.Fatalf("hook %s exited %d; stderr:\n%s", a.name, r.exit, r.stderr)
				}
				return strings.TrimSpace(r.stdout)
			}
			session := "s-" + a.name
			if out := run(a.start(w, session)); out != "" {
				t.Errorf("session start printed %q, want nothing", out)
			}
			clean := w.readFile("main.go")
			w.writeFile("main.go", strings.Replace(clean, "func main() {", "func main() {\n\tvar n int = \"seven\"\n\t_ = n", 1))
			run(a.edit(w, session, "main.go")) // the tool's own answer is not what is tested here
			truth := goErrors(t, w.root)
			if len(truth) != 1 {
				t.Fatalf("go build reports %v, want the one type error", truth)
			}
			block, text := a.blocked(t, run(a.stop(w, session, false)))
			if want := fmt.Sprintf("ERROR [%d:", truth[0].line); !block || !strings.Contains(text, "main.go") || !strings.Contains(text, want) {
				t.Fatalf("end of turn after a type error: block %v, %q; want a block naming main.go line %d as go build does", block, text, truth[0].line)
			}
			if block, _ := a.blocked(t, run(a.stop(w, session, true))); block {
				t.Errorf("the second end of the same turn was blocked again")
			}
			w.writeFile("main.go", clean)
			run(a.edit(w, session, "main.go"))
			if out := run(a.stop(w, session, false)); out != "" {
				t.Errorf("end of turn after the fix printed %q, want nothing", out)
			}
			if out := run(a.stop(w, "never-seen", false)); out != "" {
				t.Errorf("end of turn of an unknown session: %q, want nothing", out)
			}
		})
	}
}
