package main_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

// TestConfigChangeTakesEffect: the user (or the agent) writes the
// workspace's .lsp-hook.yaml while its daemon runs. The next hook must
// answer by the new config, not the one the daemon loaded at its start
// (it did, until the daemon idled out 30 minutes later or `lsp-hook
// restart`): the daemon says its config changed (hello's config_changed)
// and the hook replaces it, with the session's record carried over.
// Played on the Stop gate, whose answer the config decides: a session
// leaves a type error that go build reports; `stop_gate: off` written,
// the end of turn is allowed; the file removed, the next end of turn is
// blocked again, naming the error. And on the JSON validator: turned off,
// a broken JSON file's hook says nothing; the config removed, it says the
// error again.
func TestConfigChangeTakesEffect(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	lifecycle, editEvent, decision := w.lifecycle, w.editEvent, stopDecision(t)
	pid := func() int {
		st, ok := w.status()
		if !ok {
			t.Fatal("no daemon running after a hook")
		}
		return st.Pid
	}

	clean := w.readFile("main.go")
	broken := strings.Replace(clean, "func main() {", "func main() {\n\tvar n int = \"seven\"\n\t_ = n", 1)
	w.hook(editEvent("s1", "main.go", broken))
	truth := goErrors(t, w.root)
	if len(truth) != 1 {
		t.Fatalf("go build reports %v, want the one type error", truth)
	}
	first := pid()

	w.writeFile(".lsp-hook.yaml", "stop_gate: off\n")
	if st, _ := w.status(); !st.ConfigChanged {
		t.Errorf("status after the config was written: config_changed false, want true")
	}
	if out := lifecycle("s1", "Stop", map[string]any{"stop_hook_active": false}); out != "" {
		t.Errorf("Stop with stop_gate: off just written printed %q, want nothing", out)
	}
	second := pid()
	if second == first {
		t.Errorf("the daemon (pid %d) was not replaced after its config changed", first)
	}

	if err := os.Remove(w.path(".lsp-hook.yaml")); err != nil {
		t.Fatal(err)
	}
	d, reason := decision(lifecycle("s1", "Stop", map[string]any{"stop_hook_active": false}))
	if want := fmt.Sprintf("ERROR [%d:", truth[0].line); d != "block" || !strings.Contains(reason, want) {
		t.Errorf("Stop once the config was removed: %s %q; want a block naming main.go line %d as go build does (the session's record carried over two daemons)",
			d, reason, truth[0].line)
	}
	if third := pid(); third == second {
		t.Errorf("the daemon (pid %d) was not replaced after its config file was removed", second)
	}
	w.hook(editEvent("s1", "main.go", clean))

	w.writeFile("data.json", "{\"a\": 1,}\n")
	if block := w.hook(editEvent("s1", "data.json", w.readFile("data.json"))); !strings.Contains(block, `<diagnostics file="data.json">`) {
		t.Fatalf("the JSON validator's hook with no config: %q, want data.json's error", block)
	}
	w.writeFile(".lsp-hook.yaml", "validators: {json: false}\n")
	if block := w.hook(editEvent("s1", "data.json", w.readFile("data.json"))); strings.Contains(block, "data.json") {
		t.Errorf("the hook after `validators: {json: false}` was written: %q, want nothing of data.json", block)
	}
	if err := os.Remove(w.path(".lsp-hook.yaml")); err != nil {
		t.Fatal(err)
	}
	if block := w.hook(editEvent("s1", "data.json", w.readFile("data.json"))); !strings.Contains(block, `<diagnostics file="data.json">`) {
		t.Errorf("the hook once the config was removed: %q, want data.json's error again", block)
	}

	// A session starting after a config change: the daemon is replaced,
	// and the new one prewarms (its gopls starts before any edit).
	before := pid()
	w.writeFile(".lsp-hook.yaml", "severity: warning\n")
	if out := lifecycle("s2", "SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Errorf("SessionStart printed %q, want nothing", out)
	}
	replaced := func() bool {
		st, ok := w.status()
		if !ok || st.Pid == before || st.ConfigChanged {
			return false
		}
		return slices.ContainsFunc(st.Servers, func(s sidecar.ServerStatus) bool { return s.Name == "gopls" && s.Pid != 0 })
	}
	if !pollUntil(15*time.Second, replaced) {
		st, _ := w.status()
		t.Errorf("after SessionStart with a changed config: daemon pid %d (was %d), config_changed %v, servers %+v; want a new daemon prewarming gopls",
			st.Pid, before, st.ConfigChanged, st.Servers)
	}
	w.stopAll()
}
