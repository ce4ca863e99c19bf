package sidecar

import (
	"context"
	"os"
	"testing"
	"time"

	pollpkg "github.com/lsp-hook/lsp-hook/internal/poll"
	"github.com/lsp-hook/lsp-hook/internal/session"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestRecordsWhileRunning: a running daemon writes its sessions' record
// and hook marks within checkpoints of the requests that change them, not
// only when it stops — a daemon killed (SIGKILL, the OOM killer) leaves
// what it knew — and removes the sessions' record once no session is left.
// cmd/lsp-hook's TestStopGateAcrossDaemonRestart plays the kill with the
// real binary and gopls.
func TestRecordsWhileRunning(t *testing.T) {
	root := gitRoot(t, map[string]string{"a.go": "package a"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, socket := serveServer(t, noServersEngine(root))
	c := testdaemon.Dial(ctx, t, socket)
	if err := c.Call(ctx, wire.MethodSessionStart, wire.SessionParams{Session: "s", Agent: "claude"}, nil); err != nil {
		t.Fatal(err)
	}
	loaded := func(path string, load func(*os.File) (int, error)) int {
		f, err := os.Open(path)
		if err != nil {
			return -1
		}
		defer f.Close()
		n, err := load(f)
		if err != nil {
			t.Fatalf("the running daemon's record %s: %v", path, err)
		}
		return n
	}
	sessions := func() int {
		return loaded(wire.SessionsPath(socket), func(f *os.File) (int, error) { return session.New(nil).Load(f) })
	}
	marks := func() int {
		return loaded(wire.HookMarksPath(socket), func(f *os.File) (int, error) { return new(hookMarks).load(f, time.Now()) })
	}
	within := 20 * checkpointEvery
	poll := func(cond func() bool) bool {
		ctx, cancel := context.WithTimeout(ctx, within)
		defer cancel()
		return pollpkg.Until(ctx, 10*time.Millisecond, 100*time.Millisecond, cond) == nil
	}
	if !poll(func() bool { return sessions() == 1 && marks() == 1 }) {
		t.Fatalf("within %v of session_start, the running daemon's records hold %d sessions and %d hook marks; want 1 and 1",
			within, sessions(), marks())
	}
	if err := c.Call(ctx, wire.MethodSessionEnd, wire.SessionParams{Session: "s", Agent: "claude"}, nil); err != nil {
		t.Fatal(err)
	}
	if !poll(func() bool { return sessions() == -1 }) {
		t.Errorf("within %v of session_end, the sessions' record is still there (%d sessions)", within, sessions())
	}
}
