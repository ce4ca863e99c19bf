// Package filelock takes exclusive whole-file locks on open files, for the
// daemon's one-per-socket lock, the hooks' start lock (sidecar) and the
// hook spool's lock (hooks). A lock belongs to the open file (not to the
// process or the path): a second open of the same file, in this process
// or another, does not get it, and closing the file, or the process dying,
// releases it. It imports nothing of lsp-hook's: any package may use it.
//
// The platform's part is one pair of functions per platform file:
//
//	lock(f *os.File, wait bool) error
//	unlock(f *os.File) error
//
// flock(2) on unix (filelock_unix.go: LOCK_EX, LOCK_NB, LOCK_UN; macOS and
// Linux alike); on Windows LockFileEx and UnlockFileEx over the whole
// file's range (filelock_windows.go: LOCKFILE_EXCLUSIVE_LOCK,
// LOCKFILE_FAIL_IMMEDIATELY). lock returns ErrLocked when !wait and
// another open file holds the lock.
package filelock

import (
	"errors"
	"os"
)

// ErrLocked is TryLock's error when another open file holds the lock
// (EWOULDBLOCK from flock(2); ERROR_LOCK_VIOLATION from LockFileEx).
var ErrLocked = errors.New("locked by another open file")

// TryLock takes f's exclusive lock without waiting: ErrLocked when another
// open file holds it.
func TryLock(f *os.File) error { return lock(f, false) }

// Lock takes f's exclusive lock, waiting as long as another open file
// holds it.
func Lock(f *os.File) error { return lock(f, true) }

// Unlock releases f's lock; closing f releases it too.
func Unlock(f *os.File) error { return unlock(f) }
