package main_test

import (
	"strings"
	"testing"
)

// TestRevertAfterDaemonRestart: a session renames Greet to Hello, its
// callers with it; then its daemon stops (its idle timeout, `lsp-hook
// stop`), and the session turns greet/greet.go back to its committed
// text: the callers break. The new daemon's gopls had given no answer
// yet, and the file's text is git HEAD's, which was taken for no change:
// what gopls said of the callers stood as their baseline, and the hook
// answered nothing while go build reports both (make soak, seed
// 6008365553603227565, Go #18, a false clean). With the event's text
// before (Claude Code's originalFile) and without it (an older Claude
// Code, other agents), the hook must name them as go build does.
func TestRevertAfterDaemonRestart(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	for _, withBefore := range []bool{true, false} {
		name := map[bool]string{true: "originalFile", false: "no text before"}[withBefore]
		t.Run(name, func(t *testing.T) {
			w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
			commitAll(t, w.root)
			const callee = "greet/greet.go"
			committed := w.readFile(callee)
			rename := func(text string) string { return strings.ReplaceAll(text, "Greet(", "Hello(") }
			w.hook(w.editEvent("s", callee, rename(committed)))
			for _, caller := range []string{"main.go", "loud.go"} {
				w.hook(w.editEvent("s", caller, rename(w.readFile(caller))))
			}
			if errs := goErrors(t, w.root); len(errs) != 0 {
				t.Fatalf("go build after the rename: %v, want none", errs)
			}
			if r := w.run("", nil, "stop"); r.exit != 0 {
				t.Fatalf("lsp-hook stop: exit %d: %s", r.exit, r.stderr)
			}
			var ev string
			if withBefore {
				ev = w.editEvent("s", callee, committed)
			} else {
				ev = w.edit("s", callee, committed)
			}
			block := w.hook(ev)
			truth := goErrors(t, w.root)
			if len(truth) != 2 {
				t.Fatalf("go build after the revert: %v, want the two callers' errors", truth)
			}
			if p := judge(t, w.root, block, truth); p != "" {
				log, _ := w.logSince(0)
				t.Errorf("the revert's hook: %s\n%s\ndaemon log:\n%s", p, indent(block), indent(log))
			}
		})
	}
}
