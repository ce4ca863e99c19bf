//go:build !unix

package lsp

// RaiseOpenFileLimit does nothing and returns 0 (no limit known): Windows
// has no RLIMIT_NOFILE; a process's handles run to 2^24, and
// ReadDirectoryChangesW costs one per watched directory.
func RaiseOpenFileLimit() (uint64, error) { return 0, nil }

// openFileLimit returns 0: there is no descriptor limit to read.
func openFileLimit() uint64 { return 0 }
