//go:build linux

package lsp

import (
	"errors"
	"syscall"
)

// defaultWatchPolicy on Linux: fsnotify uses inotify(7), whose watch on a
// directory reports every entry's changes, so a directory costs one watch
// whatever it holds; the limit is fs.inotify.max_user_watches (per user,
// not descriptors), which fsnotify.Add meets as ENOSPC. The budget is
// DefaultMaxDirs, as before the policy existed: a tree within it is
// watched whole. openFiles is not used.
func defaultWatchPolicy(openFiles uint64) WatchPolicy {
	return WatchPolicy{Backend: "inotify", Budget: DefaultMaxDirs, ScanEvery: DefaultScanEvery, ScanBatch: DefaultScanBatch}
}

// watchLimitErr reports whether err from fsnotify.Add means the backend's
// limit was reached: inotify_add_watch(2) fails with ENOSPC past
// fs.inotify.max_user_watches (and EMFILE past max_user_instances).
func watchLimitErr(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}
