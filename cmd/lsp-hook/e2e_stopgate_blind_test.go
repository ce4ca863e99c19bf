package main_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStopGateBlindSpotBesideBlock: a session deletes a header (clangd
// resolves includes on disk, so the texts before the session cannot show
// it the state before: a blind spot) and makes an error of its own in
// main.c. The Stop hook blocks on main.c's error; greet.c's and loud.c's
// errors — the header they include is gone — are in their baselines
// too, so whether the session made them is unknown. They were left out of
// the block, which read as if those files were clean while clang reports
// them (make test's soak, seed 2372183960821548871, C Stop #2, #4 and #17:
// src/label.c left out of blocks naming src/math.c). They are shown
// beside it now, with a note saying whether the session made them is
// unknown, as they were already when nothing else was found.
func TestStopGateBlindSpotBesideBlock(t *testing.T) {
	e2e(t)
	requireExe(t, "clangd")
	w := newWorkspaceOf(t, "langs/c", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	commitAll(t, w.root)
	w.hook(w.editEvent("warm", "main.c", w.readFile("main.c"))) // the daemon and clangd warm, in another session
	time.Sleep(1500 * time.Millisecond)                         // the watcher covers the command's span (its start, with a second's slack)
	command := "rm " + w.path("greet.h")
	if out, err := exec.Command("sh", "-c", command).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", command, err, out)
	}
	w.hook(w.claudeEventWith("s", "Bash", map[string]any{"command": command},
		map[string]any{"stdout": "", "stderr": "", "interrupted": false, "isImage": false}, 10*time.Millisecond))
	w.hook(w.editEvent("s", "main.c", w.readFile("main.c")+"\nint broken = undeclared_name;\n"))
	truth := cErrors(t, w.root, "main.c", "greet.c", "loud.c")
	var files []string
	for _, e := range truth {
		if !slices.Contains(files, e.file) {
			files = append(files, e.file)
		}
	}
	if len(files) != 3 {
		t.Fatalf("the compiler reports errors in %v, want main.c, greet.c and loud.c: %v", files, truth)
	}
	d, reason := stopDecision(t)(w.lifecycle("s", "Stop", map[string]any{"stop_hook_active": false}))
	if d != "block" || !strings.Contains(reason, "undeclared_name") {
		log, _ := w.logSince(0)
		t.Fatalf("Stop: %q %q; want a block on main.c's undeclared_name; the log:\n%s", d, reason, indent(log))
	}
	for _, f := range files {
		if !strings.Contains(reason, `file="`+f+`"`) {
			t.Errorf("the block leaves out %s, where clang reports errors:\n%s", f, indent(reason))
		}
	}
	if !strings.Contains(reason, "whether the session introduced the errors shown in") {
		t.Errorf("the block shows errors it cannot tell are the session's without saying so:\n%s", indent(reason))
	}
}
