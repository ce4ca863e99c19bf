package sidecar

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// relistenWait bounds how long a daemon may take to notice its socket is
// gone and listen again: a few check intervals, for a loaded machine.
const relistenWait = 10 * time.Second

// relistenServer runs a daemon without language servers on socket and
// returns it; it is shut down when the test ends.
func relistenServer(t *testing.T, socket string) *Server {
	t.Helper()
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	cfg := config.Default()
	cfg.LSP.Enabled = false
	srv := serveAt(t, engine.NewEngine(root, cfg, nil, testdaemon.Discard()), socket)
	// Once it answers, Serve has noted the files it serves.
	if !untilTrue(relistenWait, func() bool { return greets(socket) }) {
		t.Fatal("the daemon does not answer")
	}
	return srv
}

// greets reports whether a daemon greets on socket.
func greets(socket string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c, err := wire.Dial(ctx, socket, "test")
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// untilTrue polls cond until it holds or d has passed, and reports
// whether it held.
func untilTrue(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// TestRelisten deletes a serving daemon's socket file, then its whole
// directory (socket, lock, log): each time the daemon listens again, 0600,
// and holds the lock, so no second daemon can start beside it.
func TestRelisten(t *testing.T) {
	socket := filepath.Join(testdaemon.ShortDir(t), "run", "d.sock")
	relistenServer(t, socket)
	for _, c := range []struct {
		name   string
		remove func() error
	}{
		{"socket file", func() error { return os.Remove(socket) }},
		{"socket directory", func() error { return os.RemoveAll(filepath.Dir(socket)) }},
		{"socket file again", func() error { return os.Remove(socket) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.remove(); err != nil {
				t.Fatal(err)
			}
			if !untilTrue(relistenWait, func() bool { return greets(socket) }) {
				t.Fatalf("no daemon answers %v after the %s was deleted", relistenWait, c.name)
			}
			if fi, err := os.Stat(socket); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("re-created socket: %v, mode %v; want 0600", err, fi.Mode().Perm())
			}
			second := &Server{Engine: engine.NewEngine(testdaemon.ShortDir(t), config.Default(), nil, testdaemon.Discard()), Log: testdaemon.Discard()}
			if err := second.Listen(socket); !errors.Is(err, wire.ErrAlreadyRunning) {
				second.Shutdown()
				t.Errorf("a second daemon's Listen = %v, want wire.ErrAlreadyRunning", err)
			}
		})
	}
}

// TestRelistenYields: when the socket directory is deleted and another
// daemon takes the new lock first, the first daemon shuts down and leaves
// the other's socket in place.
func TestRelistenYields(t *testing.T) {
	socket := filepath.Join(testdaemon.ShortDir(t), "run", "d.sock")
	first := relistenServer(t, socket)
	if err := os.RemoveAll(filepath.Dir(socket)); err != nil {
		t.Fatal(err)
	}
	relistenServer(t, socket) // takes a fresh lock before the first daemon looks again
	select {
	case <-first.Done():
	case <-time.After(relistenWait):
		t.Fatalf("the first daemon still runs %v after another took its socket over", relistenWait)
	}
	first.Shutdown() // waits until it is over
	if !greets(socket) {
		t.Error("the second daemon's socket is gone: the first daemon removed it on its way out")
	}
}
