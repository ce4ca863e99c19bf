package main

import (
	"os"
	"syscall"
)

// maxRSSKiB is ru_maxrss of the reaped command in KiB (getrusage(2) gives
// bytes on macOS): the largest single process among it and the
// descendants it waited for; 0 when unknown.
func maxRSSKiB(st *os.ProcessState) int64 {
	if st == nil {
		return 0
	}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss / 1024
	}
	return 0
}
