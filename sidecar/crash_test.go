package sidecar

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestCrashLoopOverSocket: a server that crashes on every change (fakelsp
// crash-mid-request), under a clock the test moves past each back-off:
// each notify_change it crashed on says so and when the server starts
// again; after 5 crashes in 10 minutes the block says to run `lsp-hook
// restart`, and so does status (broken, the count, its last error); the
// restart method brings it back.
func TestCrashLoopOverSocket(t *testing.T) {
	e := fakeEngine(t, "crash-mid-request")
	clock := &testClock{t: time.Now()}
	e.Manager.Now = clock.Now
	testdaemon.WriteFile(t, e.Root, "a.fake", "ERROR: one\n")
	socket := serve(t, e)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	notify := func() wire.Result {
		t.Helper()
		var res wire.Result
		if err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: "a.fake"}}}, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	const unknown = "lsp-hook: no fresh diagnostics from fake (not running); errors it would report are unknown, not absent."
	for i, wait := range []string{"1s", "2s", "4s", "8s"} {
		d, _ := time.ParseDuration(wait)
		res := notify()
		want := "; it restarts on the next change after " + clock.Now().Add(d).Format(time.TimeOnly) + " (in " + wait + ")."
		if !strings.Contains(res.Lint, unknown) || !strings.Contains(res.Lint, "lsp-hook: fake is broken (") || !strings.Contains(res.Lint, want) {
			t.Fatalf("crash %d: lint block\n%s\nwant the crash and %q", i+1, res.Lint, want)
		}
		clock.Add(d)
	}
	const gaveUp = "; it crashed 5 times in 10 minutes: run `lsp-hook restart fake` to start it again."
	for range 2 { // the 5th crash, then a change an hour later
		if res := notify(); !strings.Contains(res.Lint, unknown) || !strings.Contains(res.Lint, gaveUp) {
			t.Fatalf("after 5 crashes: lint block\n%s\nwant %q", res.Lint, gaveUp)
		}
		clock.Add(time.Hour)
	}
	var st StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Servers) != 1 || st.Servers[0].State != lsp.StateBroken || st.Servers[0].Crashes != 5 ||
		!st.Servers[0].RestartAt.IsZero() || !strings.Contains(st.Servers[0].LastError, "it crashed 5 times in 10 minutes") {
		t.Fatalf("status = %+v", st.Servers)
	}
	var b bytes.Buffer
	if err := WriteStatus(&b, st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "crashed: fake (5 crashes); only `lsp-hook restart fake` starts it again") {
		t.Errorf("lsp-hook status:\n%s", b.String())
	}
	var rr RestartResult
	if err := c.Call(ctx, wire.MethodRestart, wire.RestartParams{Server: "fake"}, &rr); err != nil {
		t.Fatal(err)
	}
	if res := notify(); !strings.Contains(res.Lint, "; it restarts on the next change after ") {
		t.Errorf("after restart, the server was not started again:\n%s", res.Lint)
	}
}

func TestWriteStatusCrashes(t *testing.T) {
	at := time.Date(2025, 1, 2, 15, 4, 5, 0, time.Local)
	var b bytes.Buffer
	err := WriteStatus(&b, StatusResult{Pid: 1, Version: "v", Root: "/r", Servers: []ServerStatus{
		{Name: "gopls", Root: "/r", State: lsp.StateBroken, LastError: "…", Crashes: 2, RestartAt: at},
		{Name: "fake", Root: "/r", State: lsp.StateBroken, LastError: "…", Crashes: 1, RestartAt: at},
		{Name: "pyright", Root: "/r", State: lsp.StateActive},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"crashed: gopls (2 crashes); the next change after 15:04:05 starts it again\n",
		"crashed: fake (1 crash); the next change after 15:04:05 starts it again\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status output lacks %q:\n%s", want, b.String())
		}
	}
}

// testClock is an lsp.Manager.Now that moves only when told.
type testClock struct {
	mu sync.Mutex // guards t
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestWriteStatusCompanion(t *testing.T) {
	var b bytes.Buffer
	err := WriteStatus(&b, StatusResult{Pid: 1, Version: "v", Root: "/r", Servers: []ServerStatus{
		{Name: "luau-lsp", Root: "/r", State: lsp.StateActive, Pid: 7,
			Companion: &lsp.CompanionStatus{Command: []string{"rojo", "sourcemap", "--watch"}, Pid: 42}},
		{Name: "other", Root: "/r", State: lsp.StateActive, Pid: 8,
			Companion: &lsp.CompanionStatus{Command: []string{"w"}, Restarts: 2, LastExit: "exit status 1"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"luau-lsp watch: rojo sourcemap --watch (pid 42)\n",
		"other watch: w (between restarts; started again 2 times, last: exit status 1)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status output lacks %q:\n%s", want, b.String())
		}
	}
}

// TestWriteStatusWarningsOff: a server running without its warnings-only
// part says so, and what restarts it whole.
func TestWriteStatusWarningsOff(t *testing.T) {
	var b bytes.Buffer
	err := WriteStatus(&b, StatusResult{Pid: 1, Version: "v", Root: "/r", Servers: []ServerStatus{
		{Name: "clangd", Root: "/r", State: lsp.StateActive, Pid: 7, WarningsOff: []string{"--clang-tidy=false"}, WarningsConfig: []string{".clang-tidy"}},
		{Name: "gopls", Root: "/r", State: lsp.StateActive, Pid: 8},
		{Name: "pyright", Root: "/r/py", State: lsp.StateActive, Pid: 9, VirtualEnv: "/r/.venv"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "clangd runs with --clang-tidy=false: that part only warns, below the severity shown; .clang-tidy near a checked file, or a check asking for warnings, restarts it whole\n"
	if !strings.Contains(b.String(), want) || strings.Contains(b.String(), "gopls runs with") {
		t.Errorf("status output: want the line %q for clangd alone:\n%s", want, b.String())
	}
	if want := "pyright (/r/py) resolves imports against the packages of /r/.venv\n"; !strings.Contains(b.String(), want) {
		t.Errorf("status output: want the line %q:\n%s", want, b.String())
	}
}
