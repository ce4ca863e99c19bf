package proc

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux the kernel ends a child with its parent (PR_SET_PDEATHSIG), so
// the supervisor is only used when SuperviseEnv asks for it.
const (
	superviseByDefault  = false
	supervisorAvailable = true
)

// setDeathSignal asks for SIGKILL when the thread that started the child
// exits (prctl(2) PR_SET_PDEATHSIG, set by SysProcAttr.Pdeathsig between
// fork and exec). Go's runtime does not end its threads, except one locked
// with runtime.LockOSThread whose goroutine returns.
func setDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// canDieWithParent: the kernel ends a child with its parent without the
// supervisor.
const canDieWithParent = true

// watchParent returns a channel closed when the process parent exits,
// watched through a pidfd (pidfd_open(2), Linux 5.3; it polls readable
// once the process has terminated). Where pidfd_open is missing it polls
// getppid(2) instead (the parent's exit reparents us).
func watchParent(parent int) (<-chan struct{}, error) {
	gone := make(chan struct{})
	fd, err := unix.PidfdOpen(parent, 0)
	if err != nil {
		go pollParent(parent, gone)
		return gone, nil
	}
	if os.Getppid() != parent { // it exited before the pidfd was open
		unix.Close(fd)
		close(gone)
		return gone, nil
	}
	go func() {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, -1)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n > 0 {
				break
			}
		}
		close(gone)
	}()
	return gone, nil
}

// serverDeathSignal: under the supervisor on Linux, the command also gets
// SIGKILL when the supervisor itself is killed (PR_SET_PDEATHSIG), which
// the supervisor could not catch.
func serverDeathSignal(attr *syscall.SysProcAttr) { setDeathSignal(attr) }

// pollParent closes gone once our parent is no longer parent, checking
// every 100 ms: without pidfd_open there is no event for another
// process's exit.
func pollParent(parent int, gone chan<- struct{}) {
	for os.Getppid() == parent {
		time.Sleep(100 * time.Millisecond)
	}
	close(gone)
}
