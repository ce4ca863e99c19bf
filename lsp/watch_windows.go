//go:build windows

package lsp

// defaultWatchPolicy on Windows: fsnotify uses ReadDirectoryChangesW
// (non-recursive, as lsp-hook adds directories one by one), holding one
// directory handle and one overlapped buffer per watched directory; files
// cost nothing of their own. Windows has no per-process descriptor limit
// of the RLIMIT_NOFILE kind (handles run to 2^24), so the budget is
// DefaultMaxDirs, as on Linux. openFiles is not used.
func defaultWatchPolicy(openFiles uint64) WatchPolicy {
	return WatchPolicy{Backend: "ReadDirectoryChangesW", Budget: DefaultMaxDirs, ScanEvery: DefaultScanEvery, ScanBatch: DefaultScanBatch}
}

// watchLimitErr reports whether err from fsnotify.Add means a limit was
// reached; ReadDirectoryChangesW has none lsp-hook can name, so never.
func watchLimitErr(err error) bool { return false }
