//go:build !linux && !windows && !darwin && !freebsd && !openbsd && !netbsd && !dragonfly

package lsp

// defaultWatchPolicy elsewhere (illumos and Solaris FEN, or fsnotify's
// unsupported backend): counted as kqueue is, one unit per file and per
// directory, within half of openFiles (1024 when unknown), which errs on
// the side of scanning.
func defaultWatchPolicy(openFiles uint64) WatchPolicy {
	budget := 1024
	if openFiles > 0 {
		budget = int(min(openFiles/2, 1<<20))
	}
	return WatchPolicy{Backend: "fsnotify", PerEntry: true, Budget: budget, ScanEvery: DefaultScanEvery, ScanBatch: DefaultScanBatch}
}

// watchLimitErr reports whether err from fsnotify.Add means a limit was
// reached; unknown here, so never.
func watchLimitErr(err error) bool { return false }
