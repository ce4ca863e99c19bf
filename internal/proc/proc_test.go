//go:build linux || darwin

package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testDaemonEnv makes the test binary play the daemon (testDaemon).
const testDaemonEnv = "PROC_TEST_DAEMON"

func TestMain(m *testing.M) {
	SupervisorMain()
	if os.Getenv(testDaemonEnv) != "" {
		os.Exit(testDaemon())
	}
	os.Exit(m.Run())
}

// testDaemon starts a shell through Command that starts a sleep and
// prints "server <its pid> <the sleep's pid>", prints "child <the Child's
// pid>", and waits to be killed.
func testDaemon() int {
	c := Command(context.Background(), "sh", "-c", `sleep 600 & echo server $$ $!; wait`)
	c.Cmd.Stdout = os.Stdout
	if err := c.Start(); err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("child", c.Pid())
	c.Wait()
	return 0
}

// owned is what testDaemon reported: the Child's pid (the group's id) and
// the processes in the group.
type owned struct {
	group int
	pids  []int
}

// startDaemon runs testDaemon with env added and reads what it started.
func startDaemon(t *testing.T, env ...string) (*exec.Cmd, owned) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(append(os.Environ(), testDaemonEnv+"=1"), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var o owned
	sc := bufio.NewScanner(out)
	for (o.group == 0 || len(o.pids) == 0) && sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "child":
			o.group = atoi(t, f[1])
		case len(f) == 3 && f[0] == "server":
			o.pids = append(o.pids, atoi(t, f[1]), atoi(t, f[2]))
		default:
			t.Fatalf("test daemon said %q", sc.Text())
		}
	}
	if o.group == 0 || len(o.pids) == 0 {
		t.Fatalf("test daemon ended early: %v", sc.Err())
	}
	t.Cleanup(func() { syscall.Kill(-o.group, syscall.SIGKILL) })
	return cmd, o
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDaemonKilledTakesItsChildren: a daemon killed with SIGKILL, which
// cleans nothing up, takes its child with it: under the supervisor (which
// watches its parent) the child's whole process group, the server's own
// child included; on Linux without the supervisor (PR_SET_PDEATHSIG) the
// server itself.
func TestDaemonKilledTakesItsChildren(t *testing.T) {
	for _, supervise := range []string{"1", "0"} {
		t.Run("supervise="+supervise, func(t *testing.T) {
			if supervise == "0" && !canDieWithParent {
				t.Skip("only the supervisor ends children with their parent here")
			}
			daemon, o := startDaemon(t, SuperviseEnv+"="+supervise)
			group := append([]int{o.group}, o.pids...)
			dies := group
			if supervise == "0" {
				dies = o.pids[:1]
			}
			if supervise == "1" && (o.group == o.pids[0] || !Alive(o.group)) {
				t.Fatalf("child %d, server %d: want the supervisor between them", o.group, o.pids[0])
			}
			for _, pid := range group {
				if pgid, err := syscall.Getpgid(pid); err != nil || pgid != o.group || !Alive(pid) {
					t.Fatalf("pid %d: group %d (%v), alive %v; want alive in group %d", pid, pgid, err, Alive(pid), o.group)
				}
			}
			if err := daemon.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			daemon.Wait()
			for _, pid := range dies {
				if !eventually(5*time.Second, func() bool { return !Alive(pid) }) {
					t.Errorf("pid %d of the killed daemon's child group %v is still running", pid, group)
				}
			}
		})
	}
}

// TestSupervisorPassesThrough: under the supervisor a child's stdio, exit
// code, death by a signal and SIGTERM are the command's own, and Kill
// ends the command's group.
func TestSupervisorPassesThrough(t *testing.T) {
	t.Setenv(SuperviseEnv, "1")
	run := func(script string) (string, error) {
		c := Command(context.Background(), "sh", "-c", script)
		c.Cmd.Stdin = strings.NewReader("in\n")
		var out strings.Builder
		c.Cmd.Stdout = &out
		err := c.Run()
		return out.String(), err
	}
	if out, err := run(`read x; echo "got $x"`); err != nil || out != "got in\n" {
		t.Errorf("stdio: %q, %v; want \"got in\\n\"", out, err)
	}
	var ee *exec.ExitError
	if _, err := run(`exit 3`); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("exit 3: %v", err)
	}
	if _, err := run(`kill -KILL $$`); err == nil || err.Error() != "signal: killed" {
		t.Errorf("killed: %v, want signal: killed", err)
	}

	c := Command(context.Background(), "sh", "-c", `trap 'exit 7' TERM; echo ready; sleep 600 & echo $!; wait`)
	out, err := c.Cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "ready" || !sc.Scan() {
		t.Fatalf("no ready: %v", sc.Err())
	}
	sleep := atoi(t, sc.Text())
	if err := c.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("SIGTERM to the supervisor: %v, want the command's trap's exit 7", err)
	}
	if !Alive(sleep) {
		t.Fatalf("the command's child %d ended with it; want it left for Kill", sleep)
	}
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	if !eventually(5*time.Second, func() bool { return !Alive(sleep) }) {
		t.Errorf("Kill left the command's child %d running", sleep)
	}
}

// TestKillEndsTheGroup: Kill, and the end of the context, end the child
// and what it started, with and without the supervisor.
func TestKillEndsTheGroup(t *testing.T) {
	for _, supervise := range []string{"1", "0"} {
		t.Run("supervise="+supervise, func(t *testing.T) {
			t.Setenv(SuperviseEnv, supervise)
			ctx, cancel := context.WithCancel(context.Background())
			c := Command(ctx, "sh", "-c", `sleep 600 & echo $!; wait`)
			out, err := c.Cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			if !sc.Scan() {
				t.Fatalf("no pid: %v", sc.Err())
			}
			sleep := atoi(t, sc.Text())
			cancel()
			if err := c.Wait(); err == nil || err.Error() != "signal: killed" {
				t.Errorf("Wait after cancel: %v, want signal: killed", err)
			}
			if !eventually(5*time.Second, func() bool { return !Alive(sleep) }) {
				t.Errorf("the child's child %d outlived the cancel", sleep)
			}
		})
	}
}

// TestSuperviseUsage: bad arguments are a usage error, exit 2.
func TestSuperviseUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"--", "true"}, {"--parent=x", "--", "true"}, {"--parent=1", "--", "true"}, {"--parent=5", "true"}} {
		var b strings.Builder
		if code := Supervise(args, &b); code != 2 || !strings.Contains(b.String(), "supervise") {
			t.Errorf("Supervise(%q) = %d, %q; want 2 and a message", args, code, b.String())
		}
	}
}
