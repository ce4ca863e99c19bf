package sidecar

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// testDaemonEnv, set in the environment, makes the test binary a daemon
// (TestMain): StartDaemon runs `<exe> serve --root R --socket S`, and the
// test binary is the exe, so a test of Connect needs no lsp-hook binary.
// The variable's value is a file each start appends a line to.
const testDaemonEnv = "SIDECAR_TEST_DAEMON_STARTS"

// testDaemon is the test binary as `lsp-hook serve`: it records its start
// and serves the workspace (validators only) for up to 30 s.
func testDaemon(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	root := fs.String("root", "", "")
	socket := fs.String("socket", "", "")
	if len(args) == 0 || args[0] != "serve" || fs.Parse(args[1:]) != nil {
		fmt.Fprintf(os.Stderr, "test daemon: want serve --root R --socket S, got %q\n", args)
		return 2
	}
	f, err := os.OpenFile(os.Getenv(testDaemonEnv), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 2
	}
	fmt.Fprintln(f, os.Getpid())
	f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = RunDaemon(ctx, DaemonOptions{Root: *root, Socket: *socket, Version: "test", IdleTimeout: -1})
	if err != nil && !errors.Is(err, wire.ErrAlreadyRunning) {
		return 1
	}
	return 0
}

// TestConnectStartsOneDaemon is an agent's burst of parallel edits on a
// workspace with no daemon yet: every hook connects, and one daemon is
// started, not one per hook (the others wait on the start lock and find
// it).
func TestConnectStartsOneDaemon(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := testdaemon.ShortDir(t)
	root, _ = filepath.EvalSymlinks(root)
	starts := filepath.Join(root, "starts")
	t.Setenv(testDaemonEnv, starts)
	socket := filepath.Join(testdaemon.ShortDir(t), "run", "d.sock")
	opts := wire.StartOptions{Executable: exe, Root: root, Socket: socket, Wait: 20 * time.Second}
	const hooks = 20
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		pids    = map[int]int{}
		errs    []error
		started int
	)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, s, err := wire.Connect(ctx, "test", opts)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			pids[c.Hello.Pid]++
			if s {
				started++
			}
			c.Close()
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		if c, err := wire.Dial(context.Background(), socket, "test"); err == nil {
			_ = c.Call(context.Background(), wire.MethodShutdown, struct{}{}, nil)
			c.Close()
		}
	})
	if len(errs) > 0 {
		t.Fatalf("%d of %d connects failed, first: %v", len(errs), hooks, errs[0])
	}
	data, _ := os.ReadFile(starts)
	spawned := strings.Fields(string(data))
	if len(spawned) != 1 || started != 1 || len(pids) != 1 {
		t.Errorf("%d hooks: %d daemons spawned (%v), %d said they started one, answered by pids %v; want one of each",
			hooks, len(spawned), spawned, started, pids)
	}
}

// TestConnectAfterStoppingDaemon: a daemon that was just asked to stop
// (`lsp-hook trust`, `restart`) no longer answers but holds its lock
// until its servers and watcher are gone. A hook connecting then waits for
// the lock and starts one daemon, which answers; it does not start one
// that finds the lock taken and exits.
func TestConnectAfterStoppingDaemon(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	starts := filepath.Join(root, "starts")
	t.Setenv(testDaemonEnv, starts)
	socket := filepath.Join(testdaemon.ShortDir(t), "run", "d.sock")
	if err := wire.EnsureDir(filepath.Dir(socket)); err != nil {
		t.Fatal(err)
	}
	stopping, err := wire.TakeLock(socket)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond) // sets up the race: the stopping daemon exits while the hook connects
		stopping.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, started, err := wire.Connect(ctx, "test", wire.StartOptions{Executable: exe, Root: root, Socket: socket, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Call(context.Background(), wire.MethodShutdown, struct{}{}, nil)
		c.Close()
	})
	data, _ := os.ReadFile(starts)
	if spawned := strings.Fields(string(data)); !started || len(spawned) != 1 {
		t.Errorf("started %v, daemons spawned %v; want one started", started, spawned)
	}
}
