//go:build darwin || freebsd || openbsd || netbsd || dragonfly

package lsp

import (
	"errors"
	"syscall"
)

// defaultWatchPolicy on macOS and the BSDs: fsnotify uses kqueue(2), which
// reports changes of an open descriptor only (EVFILT_VNODE), so fsnotify
// opens the directory and every entry in it (backend_kqueue.go,
// watchDirectoryFiles: O_EVTONLY on darwin) — one descriptor per file and
// per directory, counted against RLIMIT_NOFILE. The budget is half of
// openFiles, the soft limit (RaiseOpenFileLimit has raised it at daemon
// start; the other half is the daemon's own: its socket, connections,
// servers' pipes, logs), and at most maxKqueueBudget; 1024 descriptors
// when the limit is unknown (0).
func defaultWatchPolicy(openFiles uint64) WatchPolicy {
	budget := 1024
	if openFiles > 0 {
		budget = int(min(openFiles/2, maxKqueueBudget))
	}
	return WatchPolicy{Backend: "kqueue", PerEntry: true, Budget: budget, ScanEvery: DefaultScanEvery, ScanBatch: DefaultScanBatch}
}

// watchLimitErr reports whether err from fsnotify.Add means the backend's
// limit was reached: open(2) fails with EMFILE past RLIMIT_NOFILE and
// ENFILE past the system's kern.maxfiles.
func watchLimitErr(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}
