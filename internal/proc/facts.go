package proc

import (
	"slices"

	"github.com/shirou/gopsutil/v4/process"
)

// Alive reports whether pid is a running process. A zombie (exited, not
// yet reaped by its parent: where PID 1 does not reap, an exited daemon
// stays one) counts as gone. It asks gopsutil (kill(2) with signal 0 and
// the state in /proc/PID/stat on Linux; OpenProcess and GetExitCodeProcess
// on Windows, which keeps no zombies), and on macOS sysctl(3)
// kern.proc.pid (facts_darwin.go), where gopsutil would run ps(1).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	return alive(pid)
}

// statusAlive is Alive by gopsutil's Process.Status.
func statusAlive(pid int) bool {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return false // gopsutil's ErrorProcessNotRunning
	}
	st, err := p.Status()
	if err != nil {
		// Windows has no process state to read (and keeps no zombies),
		// and a process that exited meanwhile has none: whether the pid
		// exists is then the answer.
		ok, err := process.PidExists(int32(pid))
		return ok && err == nil
	}
	return !slices.Contains(st, process.Zombie)
}
