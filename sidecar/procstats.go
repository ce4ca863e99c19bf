package sidecar

import (
	"os"
	"runtime"
	"runtime/metrics"

	"github.com/shirou/gopsutil/v4/process"
)

// This file is the daemon's view of its own process, for status: what a
// load or soak test (and a user wondering about a long-lived daemon)
// compares over time to see a leak. Language servers are separate
// processes and are not counted.

// ProcessStats is the daemon's own resource use when status was answered.
// Each field is 0 when it could not be read.
type ProcessStats struct {
	// Goroutines is the number of goroutines (runtime.NumGoroutine).
	Goroutines int `json:"goroutines"`
	// OpenFDs is the number of open file descriptors, from gopsutil's
	// NumFDs: the entries of /proc/self/fd less the one held to list them
	// on Linux (procstats_linux.go), proc_pidinfo PROC_PIDLISTFDS on macOS;
	// on Windows every open handle, files or not (GetProcessHandleCount).
	OpenFDs int `json:"open_fds"`
	// RSSKiB is the resident set size in KiB (1024 bytes), from gopsutil's
	// MemoryInfo: /proc/self/statm on Linux (proc(5)), proc_pidinfo
	// PROC_PIDTASKINFO on macOS, the working set on Windows
	// (GetProcessMemoryInfo).
	RSSKiB int64 `json:"rss_kib"`
	// HeapKiB is the Go heap in use in KiB: the bytes of live and
	// not-yet-swept heap objects (runtime/metrics
	// /memory/classes/heap/objects:bytes). It moves with what the daemon
	// keeps; RSS also holds memory the runtime has not returned yet.
	HeapKiB int64 `json:"heap_kib"`
}

// heapObjectsMetric is the runtime/metrics name ProcessStats.HeapKiB reads.
const heapObjectsMetric = "/memory/classes/heap/objects:bytes"

// ReadProcessStats reads this process's goroutines, open file descriptors,
// RSS and Go heap. It never fails: what cannot be read is 0.
func ReadProcessStats() ProcessStats {
	st := ProcessStats{Goroutines: runtime.NumGoroutine()}
	if p, err := process.NewProcess(int32(os.Getpid())); err == nil {
		if n, err := p.NumFDs(); err == nil && int(n) > listingFDs {
			st.OpenFDs = int(n) - listingFDs
		}
		if m, err := p.MemoryInfo(); err == nil {
			st.RSSKiB = int64(m.RSS / 1024)
		}
	}
	sample := []metrics.Sample{{Name: heapObjectsMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		st.HeapKiB = int64(sample[0].Value.Uint64() / 1024)
	}
	return st
}
