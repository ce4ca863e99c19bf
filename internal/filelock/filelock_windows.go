package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// allBytes is the lock's range: the whole file, from offset 0 for
// 2^64-1 bytes (LockFileEx's nNumberOfBytesToLockLow and High), as Go's
// own cmd/go lockedfile does.
const allBytes = ^uint32(0)

// lock takes LockFileEx's LOCKFILE_EXCLUSIVE_LOCK on the whole of f, with
// LOCKFILE_FAIL_IMMEDIATELY unless wait. A synchronous handle (os.OpenFile
// opens one) makes the waiting call block until the lock is granted.
func lock(f *os.File, wait bool) error {
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, allBytes, allBytes, new(windows.Overlapped))
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return ErrLocked
	default:
		return &os.PathError{Op: "LockFileEx", Path: f.Name(), Err: err}
	}
}

// unlock releases f's lock with UnlockFileEx over the same range.
func unlock(f *os.File) error {
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, allBytes, allBytes, new(windows.Overlapped)); err != nil {
		return &os.PathError{Op: "UnlockFileEx", Path: f.Name(), Err: err}
	}
	return nil
}
