package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// parents reads /proc/PID/stat of every process (proc(5)): field 4 is the
// parent pid, field 24 the resident set in pages. A process that exits
// while the table is read is left out.
func parents() (map[int]procMem, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	page := int64(os.Getpagesize())
	out := make(map[int]procMem, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue // not a process: /proc/meminfo, /proc/self …
		}
		data, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		if p, err := parseStat(data, page); err == nil {
			out[pid] = p
		}
	}
	return out, nil
}

// parseStat reads the parent pid and the RSS (pages × page bytes) out of
// one /proc/PID/stat line. The command name, field 2, is in parentheses
// and may hold spaces and parentheses itself: fields are counted after
// the last ')'.
func parseStat(data []byte, page int64) (procMem, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procMem{}, fmt.Errorf("no command name in %q", data)
	}
	f := bytes.Fields(data[i+1:]) // f[0] is field 3, the state
	if len(f) < 22 {
		return procMem{}, fmt.Errorf("%d fields after the command name, want at least 22", len(f))
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return procMem{}, fmt.Errorf("parent pid: %w", err)
	}
	pages, err := strconv.ParseInt(string(f[21]), 10, 64)
	if err != nil {
		return procMem{}, fmt.Errorf("rss: %w", err)
	}
	return procMem{ppid: ppid, rss: pages * page}, nil
}
