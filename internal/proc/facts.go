package proc

import (
	"slices"

	"github.com/shirou/gopsutil/v4/process"
)

// Alive reports whether pid is a running process. A zombie (exited, not
// yet reaped by its parent: where PID 1 does not reap, an exited daemon
// stays one) counts as gone. It asks gopsutil: kill(2) with signal 0 and
// the state in /proc/PID/stat on Linux, `ps -o state` on macOS,
// OpenProcess and GetExitCodeProcess on Windows (which keeps no zombies).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return false // gopsutil's ErrorProcessNotRunning
	}
	st, err := p.Status()
	if err != nil { // not implemented (Windows), or it exited meanwhile
		ok, err := process.PidExists(int32(pid))
		return ok && err == nil
	}
	return !slices.Contains(st, process.Zombie)
}
