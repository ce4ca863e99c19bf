//go:build unix

package lsp

import "syscall"

// RaiseOpenFileLimit raises the soft RLIMIT_NOFILE (getrlimit(2),
// setrlimit(2)) to the hard limit — on darwin capped at
// kern.maxfilesperproc, which setrlimit refuses to exceed — and returns the
// soft limit in force afterwards, a count of descriptors. The daemon calls
// it once at start: the Watcher's descriptor budget on kqueue(2) platforms
// is half of it (defaultWatchPolicy).
//
// Go already does this for every program since Go 1.19 (go.dev/issue/46279,
// syscall/rlimit.go): at start-up it sets the soft limit to hard-1, capped
// at kern.maxfilesperproc on darwin, and os/exec gives the children it
// starts the original soft limit back, for programs that still use
// select(2). Calling Setrlimit ends that restoration (children would
// inherit the raised limit), so this function only reads when Go's raise
// took effect, and calls Setrlimit only when the soft limit is still below
// its target (the raise failed, or something lowered the limit since).
func RaiseOpenFileLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, err
	}
	want := lim
	want.Cur = want.Max
	capFileLimit(&want)
	if uint64(lim.Cur)+1 >= uint64(want.Cur) { // Go's hard-1 counts as raised
		return uint64(lim.Cur), nil
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want); err != nil {
		return uint64(lim.Cur), err
	}
	return uint64(want.Cur), nil
}

// openFileLimit returns the soft RLIMIT_NOFILE, 0 when it cannot be read.
func openFileLimit() uint64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return uint64(lim.Cur)
}
