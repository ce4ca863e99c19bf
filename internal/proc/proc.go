// Package proc starts and ends the child processes lsp-hook owns (language
// servers, linters, installers) with the same three promises on every
// platform:
//
//  1. the child runs in a group of its own, apart from lsp-hook's;
//  2. Kill (and the end of the context it was made with) ends the whole
//     group: the child and everything it started;
//  3. when lsp-hook dies without cleaning up (kill -9, a crash), the group
//     dies too: no language server outlives the daemon that started it.
//
// How each platform keeps them:
//
//	         own group                  Kill                      lsp-hook killed
//	linux    setpgid(2)                 kill(2) of -pgid, SIGKILL prctl(2) PR_SET_PDEATHSIG, SIGKILL (*)
//	darwin   setpgid(2)                 kill(2) of -pgid, SIGKILL the supervisor (supervise_unix.go)
//	windows  a Job Object per child     TerminateJobObject        JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
//
// (*) PR_SET_PDEATHSIG ends the child itself; what the child started (a
// `go list` of gopls's) is left to the next Kill of the group, or runs on
// if the daemon died. The supervisor ends the whole group.
//
// macOS has no PR_SET_PDEATHSIG. There a child runs under a supervisor, the
// lsp-hook binary itself in a hidden mode (`lsp-hook supervise`): it leads
// the child's process group, starts the real command in it with the stdio
// it was given, and watches its parent with kqueue(2) EVFILT_PROC
// NOTE_EXIT; when the parent exits it kills the group. Otherwise it exits
// as the command did and forwards SIGTERM and SIGINT to it. Setting
// LSP_HOOK_SUPERVISE=1 uses the supervisor on Linux too (it watches the
// parent with pidfd_open(2)), which is how its test runs; =0 turns it off
// on macOS.
//
// Facts about processes (alive, RSS, open descriptors) come from gopsutil
// (facts.go), which reads /proc on Linux, libproc and sysctl on macOS and
// the Win32 API on Windows; the RSS of a process tree and the machine's
// memory, for the memory budget, from memory.go.
//
// proc imports only the standard library, golang.org/x/sys and gopsutil;
// it must not import any lsp-hook package.
package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
)

// Child is a command lsp-hook owns (see the package comment). Set Cmd's
// fields (Dir, Env, stdio, WaitDelay) before Start; start, wait and kill it
// through Child, never through Cmd, so that the group is set up and
// released.
type Child struct {
	// Cmd is the command. Under the supervisor its Path and Args name
	// lsp-hook once started; Args[0] as given is kept in Name.
	Cmd *exec.Cmd
	// Name is the program as given to Command.
	Name string
	g    group
}

// group is how one platform holds a child's processes together: a unix
// process group (proc_unix.go) or a Windows Job Object (proc_windows.go).
type group interface {
	// prepare sets cmd's attributes before it starts; supervisor says
	// cmd runs the supervisor.
	prepare(cmd *exec.Cmd, supervisor bool)
	// started runs right after cmd started, before anyone may kill it.
	started(cmd *exec.Cmd) error
	// kill ends every process of the group; it is safe to call at any
	// time after started, more than once, and concurrently with release.
	kill(cmd *exec.Cmd) error
	// release frees what the group holds, once cmd has been waited for.
	release()
}

// SuperviseCommand is the hidden lsp-hook command that runs the supervisor:
// `lsp-hook supervise --parent=PID -- COMMAND [ARG...]` (Supervise).
// Child.Start writes it; people do not.
const SuperviseCommand = "supervise"

// SuperviseEnv forces the supervisor on ("1") or off ("0"); unset, it is on
// on macOS only (package comment).
const SuperviseEnv = "LSP_HOOK_SUPERVISE"

// Command returns a Child that runs name with args, not started yet. When
// ctx ends, the whole group is killed (exec.Cmd.Cancel is Kill); a ctx that
// never ends (context.Background) is fine for a child killed by hand.
func Command(ctx context.Context, name string, args ...string) *Child {
	c := &Child{Cmd: exec.CommandContext(ctx, name, args...), Name: name, g: newGroup()}
	c.Cmd.Cancel = c.Kill
	return c
}

// Start starts the child in a group of its own, under the supervisor where
// it is used (package comment).
func (c *Child) Start() error {
	if c.Cmd.Err != nil { // name not found on PATH
		return c.Cmd.Err
	}
	supervisor := supervised()
	if supervisor {
		if err := c.superviseArgs(); err != nil {
			return err
		}
	}
	c.g.prepare(c.Cmd, supervisor)
	if err := c.Cmd.Start(); err != nil {
		return err
	}
	if err := c.g.started(c.Cmd); err != nil {
		_ = c.Cmd.Process.Kill()
		_ = c.Cmd.Wait()
		c.g.release()
		return fmt.Errorf("putting %s in a group of its own: %w", c.Name, err)
	}
	return nil
}

// superviseArgs makes c.Cmd run the command under the supervisor:
// `<this executable> supervise --parent=<our pid> -- <path> <args>`.
func (c *Child) superviseArgs() error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding lsp-hook's executable for the supervisor: %w", err)
	}
	args := []string{self, SuperviseCommand, "--parent=" + strconv.Itoa(os.Getpid()), "--", c.Cmd.Path}
	c.Cmd.Args = append(args, c.Cmd.Args[1:]...)
	c.Cmd.Path = self
	return nil
}

// Wait waits for the child to exit (exec.Cmd.Wait), then releases its
// group: on Windows that closes the Job Object, which ends what is still
// in it; on unix what the child left in its group runs on until Kill.
func (c *Child) Wait() error {
	err := c.Cmd.Wait()
	c.g.release()
	return err
}

// Run starts the child and waits for it.
func (c *Child) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}

// Kill ends the child's whole group at once: SIGKILL to the process group
// on unix (kill(2) with -pgid), TerminateJobObject on Windows. A group
// already gone is not an error.
func (c *Child) Kill() error {
	if c.Cmd.Process == nil {
		return errors.New("proc: Kill of a child not started")
	}
	return c.g.kill(c.Cmd)
}

// Pid is the child's process id: under the supervisor, the supervisor's,
// which is also the id of the group. 0 before Start.
func (c *Child) Pid() int {
	if c.Cmd.Process == nil {
		return 0
	}
	return c.Cmd.Process.Pid
}

// supervised reports whether children start under the supervisor. It is
// read anew each time, so a test can set SuperviseEnv.
func supervised() bool {
	switch os.Getenv(SuperviseEnv) {
	case "1":
		return supervisorAvailable
	case "0":
		return false
	}
	return superviseByDefault
}
