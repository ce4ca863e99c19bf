package proc

import (
	"os"

	"github.com/shirou/gopsutil/v4/process"
)

// Cmdlines returns the command line (argv) of every process this user
// can read, other than this one, by pid: gopsutil's CmdlineSlice
// (/proc/PID/cmdline on Linux, sysctl(3) KERN_PROCARGS2 on macOS, the
// process's PEB on Windows). A process that exits while the list is read,
// or whose command line cannot be read (another user's, a kernel thread),
// is left out. It costs a read per process: callers ask it on rare paths
// only.
func Cmdlines() (map[int][]string, error) {
	procs, err := process.Processes()
	if err != nil {
		return nil, err
	}
	self := os.Getpid()
	out := make(map[int][]string, len(procs))
	for _, p := range procs {
		if int(p.Pid) == self {
			continue
		}
		argv, err := p.CmdlineSlice()
		if err != nil || len(argv) == 0 {
			continue
		}
		out[int(p.Pid)] = argv
	}
	return out, nil
}
