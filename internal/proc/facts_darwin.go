package proc

import "golang.org/x/sys/unix"

// szomb is p_stat of a zombie (SZOMB in XNU's sys/proc.h).
const szomb = 5

// alive reads pid's kinfo_proc with sysctl(3) kern.proc.pid: gone when
// there is none (the kernel answers with an empty entry) or it is a zombie.
func alive(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return statusAlive(pid)
	}
	return int(kp.Proc.P_pid) == pid && kp.Proc.P_stat != szomb
}
