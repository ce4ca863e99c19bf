package sidecar

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
)

// This file is the daemon's view of its own process, for status: what a
// load or soak test (and a user wondering about a long-lived daemon)
// compares over time to see a leak. Language servers are separate
// processes and are not counted.

// ProcessStats is the daemon's own resource use when status was answered.
// Each field is 0 when it could not be read (no /proc: not Linux).
type ProcessStats struct {
	// Goroutines is the number of goroutines (runtime.NumGoroutine).
	Goroutines int `json:"goroutines"`
	// OpenFDs is the number of open file descriptors: the entries of
	// /proc/self/fd, less the one held to list them.
	OpenFDs int `json:"open_fds"`
	// RSSKiB is the resident set size in KiB (1024 bytes): VmRSS in
	// /proc/self/status (proc(5)).
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
	st := ProcessStats{Goroutines: runtime.NumGoroutine(), OpenFDs: openFDs(), RSSKiB: rssKiB()}
	sample := []metrics.Sample{{Name: heapObjectsMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		st.HeapKiB = int64(sample[0].Value.Uint64() / 1024)
	}
	return st
}

// openFDs counts /proc/self/fd's entries, less the descriptor used to read
// the directory; 0 when it cannot be read.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil || len(ents) == 0 {
		return 0
	}
	return len(ents) - 1
}

// rssKiB returns VmRSS from /proc/self/status, which the kernel gives in
// kB (meaning KiB); 0 when it cannot be read.
func rssKiB() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:"))
		if !ok {
			continue
		}
		// "VmRSS:	   21504 kB"
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0
		}
		n, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return 0
		}
		return n
	}
	return 0
}
