package proc

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// macOS has no PR_SET_PDEATHSIG: every child runs under the supervisor
// unless SuperviseEnv is "0".
const (
	superviseByDefault  = true
	supervisorAvailable = true
)

// setDeathSignal does nothing: the supervisor does the job.
func setDeathSignal(*syscall.SysProcAttr) {}

// canDieWithParent: without the supervisor nothing ends a child with its
// parent.
const canDieWithParent = false

// serverDeathSignal does nothing: if the supervisor itself is killed with
// SIGKILL, the daemon notices its child's exit and kills the group
// (lsp.Manager after a crash).
func serverDeathSignal(*syscall.SysProcAttr) {}

// watchParent returns a channel closed when the process parent exits:
// kqueue(2) with EVFILT_PROC and NOTE_EXIT on its pid. Registering fails
// with ESRCH when it is already gone.
func watchParent(parent int) (<-chan struct{}, error) {
	gone := make(chan struct{})
	kq, err := unix.Kqueue()
	if err != nil {
		return nil, fmt.Errorf("kqueue: %w", err)
	}
	var ev unix.Kevent_t
	unix.SetKevent(&ev, parent, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev.Fflags = unix.NOTE_EXIT
	if _, err := unix.Kevent(kq, []unix.Kevent_t{ev}, nil, nil); err != nil || os.Getppid() != parent {
		unix.Close(kq)
		if err != nil && err != unix.ESRCH {
			return nil, fmt.Errorf("kevent EVFILT_PROC on pid %d: %w", parent, err)
		}
		close(gone)
		return gone, nil
	}
	go func() {
		defer unix.Close(kq)
		events := make([]unix.Kevent_t, 1)
		for {
			n, err := unix.Kevent(kq, nil, events, nil)
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
