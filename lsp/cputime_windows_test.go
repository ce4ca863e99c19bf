package lsp

import (
	"os"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// cpuTime is the user and system time of this process (gopsutil's Times:
// GetProcessTimes); Windows does not add the waited-for children's.
func cpuTime() time.Duration {
	p, err := process.NewProcess(int32(os.Getpid()))
	if err != nil {
		return 0
	}
	t, err := p.Times()
	if err != nil {
		return 0
	}
	return time.Duration((t.User + t.System) * float64(time.Second))
}
