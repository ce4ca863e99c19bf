//go:build unix

package main_test

import (
	"syscall"
	"testing"
)

// sigstop sends SIGSTOP to pid and registers a SIGCONT for the test's end,
// so that a process left stopped by a failed test can still be killed.
func sigstop(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatalf("stopping %d: %v", pid, err)
	}
	t.Cleanup(func() { _ = sigcont(pid) })
}

// sigcont sends SIGCONT to pid.
func sigcont(pid int) error { return syscall.Kill(pid, syscall.SIGCONT) }
