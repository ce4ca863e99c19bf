package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Windows tests run the test binary itself as the child, in a helper
// mode named by helperEnv (TestMain): Windows has no sh, and Wine runs only
// Windows programs. make wine-test runs them under Wine.

// helperEnv names the helper mode the test binary plays (helper).
const helperEnv = "PROC_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helper plays one mode and returns the exit code:
//
//	sleep   sleeps 10 minutes;
//	cat     reads a line from stdin and writes "got LINE\n";
//	exit3   exits with code 3;
//	parent  starts "sleep" with plain os/exec (so it joins this process's
//	        job, if any), writes "grandchild PID\n", and sleeps;
//	daemon  starts "parent" through Command, writes "child PID\n" and
//	        copies the parent's line, then waits: the daemon lsp-hook is.
func helper(mode string) int {
	switch mode {
	case "sleep":
		time.Sleep(10 * time.Minute)
	case "cat":
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil {
			return 1
		}
		fmt.Print("got ", line)
	case "exit3":
		return 3
	case "parent":
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("grandchild", c.Process.Pid)
		time.Sleep(10 * time.Minute)
	case "daemon":
		c := helperChild(context.Background(), "parent")
		c.Cmd.Stdout = os.Stdout
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("child", c.Pid())
		c.Wait()
	default:
		return 2
	}
	return 0
}

// helperChild is a Child running the test binary in helper mode.
func helperChild(ctx context.Context, mode string) *Child {
	c := Command(ctx, os.Args[0])
	c.Cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	return c
}

// readPids reads lines "WORD PID" from r until it has one for each word,
// failing t on anything else.
func readPids(t *testing.T, r io.Reader, words ...string) map[string]int {
	t.Helper()
	pids := map[string]int{}
	sc := bufio.NewScanner(r)
	for len(pids) < len(words) && sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			t.Fatalf("helper said %q", sc.Text())
		}
		pid, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("helper said %q", sc.Text())
		}
		pids[f[0]] = pid
	}
	for _, w := range words {
		if pids[w] == 0 {
			t.Fatalf("helper gave no %s pid: %v", w, sc.Err())
		}
	}
	return pids
}

// killPids ends pids at the test's end, should the test have left any.
func killPids(t *testing.T, pids ...int) {
	t.Cleanup(func() {
		for _, pid := range pids {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
				p.Release()
			}
		}
	})
}

// wantGone fails t for each of pids still alive after 5 s, and reports
// whether all are gone.
func wantGone(t *testing.T, what string, pids map[string]int) bool {
	t.Helper()
	gone := true
	for name, pid := range pids {
		if !eventually(5*time.Second, func() bool { return !Alive(pid) }) {
			t.Errorf("%s: the %s %d is still running", what, name, pid)
			gone = false
		}
	}
	return gone
}

// TestPassesThrough: a child started with Command runs, with its stdin
// and stdout, and its exit code is the child's own.
func TestPassesThrough(t *testing.T) {
	c := helperChild(context.Background(), "cat")
	c.Cmd.Stdin = strings.NewReader("in\n")
	var out strings.Builder
	c.Cmd.Stdout = &out
	if err := c.Run(); err != nil || out.String() != "got in\n" {
		t.Errorf("stdio: %q, %v; want \"got in\\n\"", out.String(), err)
	}
	var ee *exec.ExitError
	if err := helperChild(context.Background(), "exit3").Run(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("exit 3: %v", err)
	}
}

// startParent starts the "parent" helper through Command with ctx and
// returns it with the pids of the child and the grandchild it started,
// both checked alive.
func startParent(t *testing.T, ctx context.Context) (*Child, map[string]int) {
	t.Helper()
	c := helperChild(ctx, "parent")
	out, err := c.Cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pids := readPids(t, out, "grandchild")
	pids["child"] = c.Pid()
	killPids(t, pids["child"], pids["grandchild"])
	for name, pid := range pids {
		if !Alive(pid) {
			t.Fatalf("the %s %d is not running", name, pid)
		}
	}
	return c, pids
}

// TestKillEndsTheJob: Kill, and the end of the context, end the child and
// the grandchild it started (TerminateJobObject), and Wait reports the
// job's exit code 1.
func TestKillEndsTheJob(t *testing.T) {
	for _, how := range []string{"Kill", "cancel"} {
		t.Run(how, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c, pids := startParent(t, ctx)
			if how == "Kill" {
				if err := c.Kill(); err != nil {
					t.Fatal(err)
				}
			} else {
				cancel()
			}
			wantGone(t, how, pids) // before Wait, whose release would end them too
			var ee *exec.ExitError
			if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("Wait after %s: %v, want exit status 1", how, err)
			}
			if err := c.Kill(); err != nil {
				t.Errorf("Kill of a released job: %v", err)
			}
		})
	}
}

// TestWaitReleasesTheJob: when the child exits on its own, Wait closes the
// job, which ends the grandchild still in it
// (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
func TestWaitReleasesTheJob(t *testing.T) {
	c, pids := startParent(t, context.Background())
	p, err := os.FindProcess(pids["child"])
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil { // TerminateProcess of the child alone
		t.Fatal(err)
	}
	p.Release()
	c.Wait()
	wantGone(t, "Wait", map[string]int{"grandchild": pids["grandchild"]})
}

// TestDaemonKilledTakesItsChildren: a daemon killed with TerminateProcess,
// which cleans nothing up, takes its child and the child's child with it:
// the kernel closes the daemon's handle to the job, the last one.
func TestDaemonKilledTakesItsChildren(t *testing.T) {
	daemon := exec.Command(os.Args[0])
	daemon.Env = append(os.Environ(), helperEnv+"=daemon")
	out, err := daemon.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { daemon.Process.Kill(); daemon.Wait() })
	pids := readPids(t, out, "child", "grandchild")
	killPids(t, pids["child"], pids["grandchild"])
	for name, pid := range pids {
		if !Alive(pid) {
			t.Fatalf("the daemon's %s %d is not running", name, pid)
		}
	}
	if err := daemon.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	daemon.Wait()
	wantGone(t, "daemon killed", pids)
}

// TestKillWhileStarting: a kill that comes between CreateProcess and the
// job (a context ending during Start: exec.Cmd.Cancel is already armed)
// is not lost: the child, still suspended, is ended and never runs.
func TestKillWhileStarting(t *testing.T) {
	c := helperChild(context.Background(), "sleep")
	c.g.prepare(c.Cmd, false)
	if err := c.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killPids(t, c.Pid())
	if err := c.g.kill(c.Cmd); err != nil { // what Cancel does before started
		t.Fatal(err)
	}
	if err := c.g.started(c.Cmd); err != nil {
		t.Fatal(err)
	}
	if !wantGone(t, "kill while starting", map[string]int{"child": c.Pid()}) {
		c.Cmd.Process.Kill() // so that Wait returns
	}
	var ee *exec.ExitError
	if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("Wait: %v, want exit status 1", err)
	}
}
