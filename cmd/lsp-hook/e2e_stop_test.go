package main_test

import (
	"strings"
	"testing"
	"time"
)

// TestStopStartingDaemon: `lsp-hook stop` right after a session's start
// (the SessionStart hook spawns a daemon and returns before it listens)
// stops that daemon too: once stop returns, no daemon of the workspace
// runs. Without looking for one in start-up, stop said "no daemon running"
// and the daemon came up after it, with its servers.
func TestStopStartingDaemon(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	start := mustJSON(t, map[string]any{"session_id": "s", "cwd": w.root, "hook_event_name": "SessionStart", "source": "startup"})
	for round := range 12 {
		if r := w.run(start, nil, "hook", "claude"); r.exit != 0 || r.stdout != "" {
			t.Fatalf("round %d: SessionStart: exit %d, stdout %q", round, r.exit, r.stdout)
		}
		r := w.run("", nil, "stop")
		// A process the stopped daemon forked a moment before it exited
		// shows the daemon's command line until its exec (make test caught
		// one: a "serve" child of the stopped pid); it is gone or another
		// program within moments, while a daemon left running stays.
		if r.exit != 0 || !pollUntil(2*time.Second, func() bool { return len(w.daemons()) == 0 }) {
			t.Fatalf("round %d: stop: exit %d, said %q; daemons left: %+v", round, r.exit, strings.TrimSpace(r.stdout), w.daemons())
		}
	}
}
