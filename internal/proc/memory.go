package proc

import (
	"fmt"

	"github.com/shirou/gopsutil/v4/mem"
)

// This file is what the memory budget (DESIGN.md "Memory") learns about
// processes: how much resident memory a process tree holds, and how much
// memory the machine has. The platform's part is one function per
// platform file:
//
//	parents() (map[int]procMem, error) // every process: its parent pid and RSS in bytes
//
// memory_linux.go reads /proc/PID/stat (proc(5)) of every process in one
// pass; memory_other.go asks gopsutil (proc_pidinfo on macOS,
// GetProcessMemoryInfo's working set and a Toolhelp32 snapshot on
// Windows), best effort: a process it cannot read counts 0.

// procMem is one process as parents sees it.
type procMem struct {
	ppid int   // parent pid; 0 when unknown
	rss  int64 // resident set size in bytes
}

// TreeRSS returns, for each pid of roots, the resident set size in bytes
// of that process and every live descendant of it (a language server and
// what it started: gopls's telemetry child, a node server's workers),
// summed. A root that is not running is left out of the map. Pages shared
// between processes count once per process, as RSS does. It fails only
// when the process table cannot be read at all.
func TreeRSS(roots ...int) (map[int]int64, error) {
	all, err := parents()
	if err != nil {
		return nil, fmt.Errorf("reading the process table: %w", err)
	}
	children := make(map[int][]int, len(all))
	for pid, p := range all {
		if p.ppid != pid {
			children[p.ppid] = append(children[p.ppid], pid)
		}
	}
	out := make(map[int]int64, len(roots))
	for _, root := range roots {
		if _, ok := all[root]; !ok || root <= 0 {
			continue
		}
		var sum int64
		seen := map[int]bool{root: true}
		for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
			sum += all[queue[0]].rss
			for _, c := range children[queue[0]] {
				if !seen[c] {
					seen[c] = true
					queue = append(queue, c)
				}
			}
		}
		out[root] = sum
	}
	return out, nil
}

// TotalMemory returns the machine's physical memory in bytes (gopsutil's
// VirtualMemory Total: MemTotal of /proc/meminfo on Linux, sysctl
// hw.memsize on macOS, GlobalMemoryStatusEx on Windows).
func TotalMemory() (int64, error) {
	vm, err := mem.VirtualMemory()
	if err != nil {
		return 0, fmt.Errorf("reading the machine's memory: %w", err)
	}
	return int64(vm.Total), nil
}
