//go:build !linux

package main

import (
	"github.com/shirou/gopsutil/v4/process"
)

// peakRSSKiB is 0: outside Linux no peak is read (readProcMem then shows
// the RSS now).
func peakRSSKiB(int) int64 { return 0 }

// cpuTicks is pid's user and system CPU time (gopsutil's Times) in ticks
// of 1/100 s, like Linux's USER_HZ; 0 when it cannot be read. Unlike
// Linux's it leaves out the children already waited for.
func cpuTicks(pid int) int64 {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0
	}
	t, err := p.Times()
	if err != nil {
		return 0
	}
	return int64((t.User + t.System) * 100)
}
