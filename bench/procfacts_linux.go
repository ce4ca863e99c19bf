package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// peakRSSKiB is pid's peak resident set size (VmHWM of /proc/PID/status,
// proc(5)) in KiB; 0 when it cannot be read. gopsutil has no peak.
func peakRSSKiB(pid int) int64 {
	var kib int64
	if _, err := fmt.Sscanf(procField(fmt.Sprintf("/proc/%d/status", pid), "VmHWM"), "%d kB", &kib); err != nil {
		return 0
	}
	return kib
}

// cpuTicks is utime+stime+cutime+cstime of pid from /proc/<pid>/stat
// (proc(5), fields 14–17), in clock ticks (USER_HZ, 1/100 s); 0 when it
// cannot be read (the process is gone). gopsutil leaves out the children
// already waited for (cutime, cstime), whose time must stay in the sum.
func cpuTicks(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	return statTicks(string(data))
}

// maxRSSKiB is ru_maxrss of the reaped command (getrusage(2): in KiB on
// Linux): the largest single process among it and the descendants it
// waited for; 0 when unknown.
func maxRSSKiB(st *os.ProcessState) int64 {
	if st == nil {
		return 0
	}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

// procField returns the value of the first "key: value" line of a /proc
// file, or "?".
func procField(file, key string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return "?"
	}
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}
