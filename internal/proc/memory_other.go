//go:build !linux

package proc

import "github.com/shirou/gopsutil/v4/process"

// parents asks gopsutil for every process, its parent and its RSS
// (proc_pidinfo on macOS; a Toolhelp32 snapshot and the working set of
// GetProcessMemoryInfo on Windows). A process it cannot read (another
// user's, one that just exited) counts with what could be read.
func parents() (map[int]procMem, error) {
	procs, err := process.Processes()
	if err != nil {
		return nil, err
	}
	out := make(map[int]procMem, len(procs))
	for _, p := range procs {
		var m procMem
		if ppid, err := p.Ppid(); err == nil {
			m.ppid = int(ppid)
		}
		if mi, err := p.MemoryInfo(); err == nil {
			m.rss = int64(mi.RSS)
		}
		out[int(p.Pid)] = m
	}
	return out, nil
}
