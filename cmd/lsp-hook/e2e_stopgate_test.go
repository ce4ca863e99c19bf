package main_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestStopGate plays Claude Code's session events through the real
// binary, daemon and gopls (DESIGN.md "Sessions"): a session writes a type
// error and tries to end its turn — the Stop hook blocks, its reason the
// error go build reports; a second end of the same turn is not blocked
// again (stop_hook_active); once fixed, the turn ends silently. A session
// that starts on an already-broken file and leaves it so ends without a
// block, as does an end of turn for a session the daemon never saw.
func TestStopGate(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	lifecycle := func(session, event string, extra map[string]any) string {
		t.Helper()
		ev := map[string]any{"session_id": session, "cwd": w.root, "hook_event_name": event,
			"transcript_path": "/home/dev/.claude/projects/-demo/" + session + ".jsonl"}
		for k, v := range extra {
			ev[k] = v
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		r := w.run(string(b), nil, "hook", "claude")
		if r.exit != 0 {
			t.Fatalf("%s hook exited %d; stderr:\n%s", event, r.exit, r.stderr)
		}
		return r.stdout
	}
	// editEvent writes text to rel and returns Claude Code's PostToolUse
	// for an Edit of it, with the text before in tool_response.originalFile.
	editEvent := func(session, rel, text string) string {
		t.Helper()
		before := w.readFile(rel)
		w.writeFile(rel, text)
		return w.claudeEventWith(session, "Edit", map[string]any{"file_path": w.path(rel), "old_string": "…", "new_string": "…"},
			map[string]any{"filePath": w.path(rel), "originalFile": before, "userModified": false}, 0)
	}
	decision := func(stdout string) (string, string) {
		t.Helper()
		if stdout == "" {
			return "", ""
		}
		var d struct{ Decision, Reason, SystemMessage string }
		if err := json.Unmarshal([]byte(stdout), &d); err != nil {
			t.Fatalf("Stop answer %q: %v", stdout, err)
		}
		if d.Decision == "" {
			return "warn", d.SystemMessage
		}
		return d.Decision, d.Reason
	}

	if out := lifecycle("s1", "SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Errorf("SessionStart printed %q, want nothing", out)
	}
	// With no daemon running, the hook started one with serve --prewarm:
	// it starts gopls before any edit, and gopls checks the file the user
	// modified last (Manager.Prewarm), at most one.
	prewarmed := func() bool {
		st, ok := w.status()
		for _, s := range st.Servers {
			if ok && s.Name == "gopls" && (s.State == "starting" || s.State == "active") && s.Documents <= 1 {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(15 * time.Second)
	for !prewarmed() {
		if time.Now().After(deadline) {
			st, _ := w.status()
			t.Fatalf("SessionStart did not prewarm gopls: %+v", st.Servers)
		}
		time.Sleep(100 * time.Millisecond)
	}
	clean := w.readFile("main.go")
	broken := strings.Replace(clean, "func main() {", "func main() {\n\tvar n int = \"seven\"\n\t_ = n", 1)
	if broken == clean {
		t.Fatalf("main.go has no func main() {:\n%s", clean)
	}
	w.hook(editEvent("s1", "main.go", broken))
	truth := goErrors(t, w.root)
	if len(truth) != 1 {
		t.Fatalf("go build reports %v, want the one type error", truth)
	}
	d, reason := decision(lifecycle("s1", "Stop", map[string]any{"stop_hook_active": false}))
	if want := fmt.Sprintf("ERROR [%d:", truth[0].line); d != "block" || !strings.Contains(reason, `<diagnostics file="main.go">`) || !strings.Contains(reason, want) {
		t.Fatalf("Stop after a type error: %s %q; want a block naming main.go line %d as go build does", d, reason, truth[0].line)
	}
	if d, _ := decision(lifecycle("s1", "Stop", map[string]any{"stop_hook_active": true})); d == "block" {
		t.Errorf("the second end of the same turn was blocked again")
	}
	w.hook(editEvent("s1", "main.go", clean))
	if errs := goErrors(t, w.root); len(errs) != 0 {
		t.Fatalf("go build after the fix: %v", errs)
	}
	if out := lifecycle("s1", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		t.Errorf("Stop after the fix printed %q, want nothing", out)
	}
	lifecycle("s1", "SessionEnd", map[string]any{"reason": "exit"})

	// A session that starts on a file broken before it, and leaves it so.
	w.writeFile("loud.go", strings.Replace(w.readFile("loud.go"), "package main", "package main\n\nvar pre int = \"broken before\"", 1))
	if len(goErrors(t, w.root)) != 1 {
		t.Fatalf("go build: want loud.go's one error")
	}
	w.hook(editEvent("s2", "loud.go", w.readFile("loud.go")+"\n// a comment\n"))
	if out := lifecycle("s2", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		t.Errorf("Stop of a session that left an older error as it was: %q, want nothing", out)
	}
	if out := lifecycle("never-seen", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		t.Errorf("Stop of an unknown session: %q, want nothing", out)
	}
}
