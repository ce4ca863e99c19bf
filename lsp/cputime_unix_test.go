//go:build unix

package lsp

import (
	"syscall"
	"time"
)

// cpuTime is the user and system time of this process and its waited-for
// children (getrusage(2), RUSAGE_SELF and RUSAGE_CHILDREN).
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
