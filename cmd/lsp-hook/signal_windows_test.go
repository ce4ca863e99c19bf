package main_test

import "testing"

// sigstop skips the test: Windows has no SIGSTOP to hang a server with.
func sigstop(t *testing.T, _ int) {
	t.Helper()
	t.Skip("no SIGSTOP on Windows")
}

// sigcont does nothing: sigstop never stopped anything.
func sigcont(int) error { return nil }
