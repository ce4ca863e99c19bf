package main

import (
	"os"
	"strings"
	"sync"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// This file is what the bench learns about processes it did not start
// itself (the daemon's servers, what they start), from gopsutil on every
// platform; procfacts_linux.go adds what only Linux's /proc tells.

// descendants returns every live descendant of root (not root itself),
// by pid, named by its command line, from every process's parent pid;
// none for a root of 0 or 1.
func descendants(root int) map[int]string {
	out := make(map[int]string)
	if root <= 1 { // pid 0 or init: every process of the machine, never a tree the bench owns
		return out
	}
	children := make(map[int][]int) // parent pid → child pids
	procs, _ := process.Processes()
	for _, p := range procs {
		if ppid, err := p.Ppid(); err == nil {
			children[int(ppid)] = append(children[int(ppid)], int(p.Pid))
		}
	}
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if _, seen := out[c]; !seen && alive(c) {
				out[c] = cmdline(c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// cmdline is pid's command line, arguments joined by spaces, cut at 60
// bytes; "?" when unreadable.
func cmdline(pid int) string {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return "?"
	}
	args, err := p.CmdlineSlice()
	s := strings.TrimSpace(strings.Join(args, " "))
	if err != nil || s == "" {
		return "?"
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// alive reports whether pid is a live process (a zombie counts as gone).
func alive(pid int) bool { return proc.Alive(pid) }

// kill kills pid alone (SIGKILL; TerminateProcess on Windows), if it is
// still there.
func kill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// readProcMem reads pid's memory: RSS from gopsutil, the peak from
// peakRSSKiB where the platform keeps one (else the RSS now); ok is false
// when the process is gone.
func readProcMem(pid int) (m procMem, ok bool) {
	m.pid = pid
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return m, false
	}
	mi, err := p.MemoryInfo()
	if err != nil {
		return m, false
	}
	m.rss = int64(mi.RSS / 1024)
	m.peak = max(peakRSSKiB(pid), m.rss)
	return m, true
}

// bootTimeCached makes gopsutil read the boot time once: in a container
// (docker, lxc) it takes it from /proc/uptime, now minus the uptime in
// whole seconds, so CreateTime of one process came out 1,000 ms apart
// between calls (86 of 300 reads here) — a leftover's start time then
// never matched the one sampled, and reapLeftovers left it running
// (make test: TestMeasureProc, "leftover = []").
var bootTimeCached sync.Once

// startTime is pid's start time in milliseconds since the epoch
// (gopsutil's CreateTime, over a boot time read once: bootTimeCached); ok
// is false when the process is gone.
func startTime(pid int) (ms int64, ok bool) {
	bootTimeCached.Do(func() { process.EnableBootTimeCache(true) })
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0, false
	}
	ms, err = p.CreateTime()
	return ms, err == nil
}
