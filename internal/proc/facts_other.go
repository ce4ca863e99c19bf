//go:build !darwin

package proc

// alive is statusAlive: gopsutil reads the state without running anything.
func alive(pid int) bool { return statusAlive(pid) }
