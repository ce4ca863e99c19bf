package lsp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// This file runs a server's companion watch command (config.Server.Watch):
// a program some servers need beside them to keep a derived file fresh as
// sources change — luau-lsp reads sourcemap.json, which `rojo sourcemap
// --watch` rewrites. The companion starts with the server, in the
// server's root and environment, in a process group of its own that dies
// with the daemon (proc.Child), and stops when the server stops or
// breaks. When it exits by itself it is started again after a back-off
// (companionBackoff, doubling up to companionMaxBackoff, starting over
// once it ran companionSteady). The server learns of each rewrite of the
// derived file as of any change on disk: through the workspace watcher's
// workspace/didChangeWatchedFiles, for the globs it registered.

const (
	// companionBackoff is the wait before a companion that exited is
	// started again the first time.
	companionBackoff = time.Second
	// companionMaxBackoff caps the wait, however often it exits.
	companionMaxBackoff = time.Minute
	// companionSteady is how long a companion must run for its back-off
	// to start over at companionBackoff.
	companionSteady = time.Minute
)

// CompanionStatus is a server's companion watch command in `status`:
// argv, its process ID while it runs (0 between runs), how many times it
// was started again, and how its last run ended.
type CompanionStatus struct {
	Command  []string `json:"command"`
	Pid      int      `json:"pid,omitempty"`
	Restarts int      `json:"restarts,omitempty"`
	LastExit string   `json:"last_exit,omitempty"`
}

// companion is one running companion watch command.
type companion struct {
	argv []string
	dir  string
	env  []string

	mu       sync.Mutex // guards pid, restarts, lastExit
	pid      int
	restarts int
	lastExit string
	done     chan struct{} // closed when run returns
}

// startCompanion starts server's companion in root with env, run until
// ctx ends, and returns it; nil when the server has none, or when the
// workspace is not trusted (the companion is a program the workspace's
// config names: it never runs before `lsp-hook trust`).
func startCompanion(ctx context.Context, server config.Server, root string, env []string, trusted bool) *companion {
	if len(server.Watch) == 0 || !trusted {
		return nil
	}
	c := &companion{argv: server.Watch, dir: root, env: env, done: make(chan struct{})}
	go c.run(ctx)
	return c
}

// run starts the companion and starts it again after each exit, with
// back-off, until ctx ends; then it kills the companion's process group.
func (c *companion) run(ctx context.Context) {
	defer close(c.done)
	backoff := companionBackoff
	for first := true; ; first = false {
		if !first {
			c.mu.Lock()
			c.restarts++
			c.mu.Unlock()
		}
		began := time.Now()
		err := c.runOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		c.mu.Lock()
		c.lastExit = companionExit(err)
		c.mu.Unlock()
		if time.Since(began) >= companionSteady {
			backoff = companionBackoff
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, companionMaxBackoff)
	}
}

// runOnce runs the companion until it exits or ctx ends (killing it).
func (c *companion) runOnce(ctx context.Context) error {
	exe, err := LookPath(c.argv[0])
	if err != nil {
		return err
	}
	child := proc.Command(context.Background(), exe, c.argv[1:]...)
	child.Cmd.Dir, child.Cmd.Env = c.dir, c.env
	child.Cmd.Stdout, child.Cmd.Stderr = nil, nil
	if err := child.Start(); err != nil {
		return err
	}
	c.mu.Lock()
	c.pid = child.Pid()
	c.mu.Unlock()
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	select {
	case err = <-exited:
	case <-ctx.Done():
		_ = child.Kill()
		err = <-exited
	}
	c.mu.Lock()
	c.pid = 0
	c.mu.Unlock()
	return err
}

// companionExit is how a companion's run ended, one line.
func companionExit(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return strings.TrimSpace(fmt.Sprint(err))
}

// status is the companion's CompanionStatus; nil for no companion.
func (c *companion) status() *CompanionStatus {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return &CompanionStatus{Command: c.argv, Pid: c.pid, Restarts: c.restarts, LastExit: c.lastExit}
}

// wait waits, at most d, for the companion to be stopped after its
// context ended.
func (c *companion) wait(d time.Duration) {
	if c == nil {
		return
	}
	select {
	case <-c.done:
	case <-time.After(d):
	}
}

// companionEnv is the environment of a server's companion: the server's.
func companionEnv(server config.Server, trusted bool) []string {
	return config.ProgramEnv(os.Environ(), server.Env, trusted)
}
