//go:build linux || darwin

package proc

import (
	"errors"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// pgroup is a unix process group led by the child (setpgid(2) in the
// child between fork and exec: SysProcAttr.Setpgid), so its id is the
// child's pid.
type pgroup struct{}

var _ group = pgroup{}

func newGroup() group { return pgroup{} }

// prepare asks for a new process group, and on Linux for SIGKILL when
// lsp-hook dies (setDeathSignal), except for the supervisor, which must
// live to kill the group.
func (pgroup) prepare(cmd *exec.Cmd, supervisor bool) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if !supervisor {
		setDeathSignal(cmd.SysProcAttr)
	}
}

func (pgroup) started(*exec.Cmd) error { return nil }

// kill sends SIGKILL to the group (kill(2) with a negative pid). The group
// outlives its leader while members remain, so this also ends what a
// crashed child left behind.
func (pgroup) kill(cmd *exec.Cmd) error {
	err := unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
	if errors.Is(err, unix.ESRCH) {
		return nil
	}
	return err
}

func (pgroup) release() {}

// Detach makes cmd, not started yet, run in a session of its own
// (setsid(2): SysProcAttr.Setsid), with no controlling terminal and out of
// its starter's process group: the daemon, which outlives the hook that
// started it. It is not a Child: nothing kills it with its starter.
func Detach(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
}
