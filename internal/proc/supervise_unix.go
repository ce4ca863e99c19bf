//go:build linux || darwin

package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// SupervisorMain runs the supervisor and exits when os.Args asks for it
// (os.Args[1] is SuperviseCommand), and returns at once otherwise. A
// binary other than lsp-hook that starts children through this package
// (a test binary, the bench) calls it first in main or TestMain, since the
// supervisor is the running executable started again.
func SupervisorMain() {
	if len(os.Args) > 1 && os.Args[1] == SuperviseCommand {
		os.Exit(Supervise(os.Args[2:], os.Stderr))
	}
}

// Supervise is the supervisor (package comment) for args
// `--parent=PID -- COMMAND [ARG...]`, with problems of its own written to
// stderr. It runs COMMAND in its own process group with its own stdio,
// and returns COMMAND's exit code; a COMMAND killed by a signal is
// re-raised on the supervisor, so its parent sees the same signal. When
// the process PID exits first, it kills its process group, itself
// included, when it leads it (as Child.Start arranges), else COMMAND.
func Supervise(args []string, stderr io.Writer) int {
	parent, argv, err := parseSuperviseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "lsp-hook %s: %v\n", SuperviseCommand, err)
		return 2
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	gone, err := watchParent(parent)
	if err != nil {
		fmt.Fprintf(stderr, "lsp-hook %s: watching parent %d: %v\n", SuperviseCommand, parent, err)
		return 2
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	serverDeathSignal(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "lsp-hook %s: starting %s: %v\n", SuperviseCommand, argv[0], err)
		return 127
	}
	// The command has its own copies: ours must not keep its pipes open.
	os.Stdin.Close()
	os.Stdout.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		select {
		case sig := <-sigs:
			_ = cmd.Process.Signal(sig)
		case <-gone:
			killGroup(cmd.Process.Pid)
			<-exited
			return 1
		case <-exited:
			return exitCode(cmd.ProcessState)
		}
	}
}

// parseSuperviseArgs reads `--parent=PID -- COMMAND [ARG...]`.
func parseSuperviseArgs(args []string) (parent int, argv []string, err error) {
	if len(args) < 3 || args[1] != "--" {
		return 0, nil, errors.New("usage: supervise --parent=PID -- COMMAND [ARG...]")
	}
	p, ok := strings.CutPrefix(args[0], "--parent=")
	if !ok {
		return 0, nil, fmt.Errorf("want --parent=PID, got %q", args[0])
	}
	if parent, err = strconv.Atoi(p); err != nil || parent <= 1 {
		return 0, nil, fmt.Errorf("bad parent pid %q", p)
	}
	return parent, args[2:], nil
}

// killGroup sends SIGKILL to our process group when we lead it (the
// command and all it started, and us), else to the command alone.
func killGroup(pid int) {
	if unix.Getpgrp() == os.Getpid() {
		_ = unix.Kill(-os.Getpid(), unix.SIGKILL)
	}
	_ = unix.Kill(pid, unix.SIGKILL)
}

// exitCode is the command's exit code; a command ended by a signal has the
// signal re-raised on us (default action restored), or 128+signal if we
// survive it.
func exitCode(st *os.ProcessState) int {
	if st == nil {
		return 1
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return st.ExitCode()
	}
	sig := ws.Signal()
	signal.Reset(sig)
	_ = unix.Kill(os.Getpid(), sig)
	return 128 + int(sig)
}
