//go:build darwin

package lsp

import "syscall"

// capFileLimit lowers lim.Cur to kern.maxfilesperproc (sysctl(3)): darwin's
// setrlimit(2) fails with EINVAL above it, and the hard limit is often
// RLIM_INFINITY. Go's own start-up raise does the same
// (syscall/rlimit_darwin.go).
func capFileLimit(lim *syscall.Rlimit) {
	n, err := syscall.SysctlUint32("kern.maxfilesperproc")
	if err == nil && lim.Cur > uint64(n) {
		lim.Cur = uint64(n)
	}
}
