package proc

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows needs no supervisor: a Job Object with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE ends its processes when its last
// handle closes, and the kernel closes lsp-hook's handles when it dies.
const (
	superviseByDefault  = false
	supervisorAvailable = false
)

// SupervisorMain returns at once: Windows has no supervisor.
func SupervisorMain() {}

// Supervise writes that Windows needs no supervisor and returns 2.
func Supervise(_ []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "lsp-hook %s: not used on Windows: children run in a Job Object\n", SuperviseCommand)
	return 2
}

// job is a Job Object holding one child and every process it starts
// (children join their parent's job: MSDN "Job Objects"). The child is
// created suspended (CREATE_SUSPENDED), assigned to the job, then resumed,
// so it starts nothing outside the job.
type job struct {
	mu     sync.Mutex     // guards h and killed
	h      windows.Handle // 0 before started has the job, and once released
	killed bool           // kill came while h was 0
}

var _ group = (*job)(nil)

func newGroup() group { return &job{} }

func (j *job) prepare(cmd *exec.Cmd, _ bool) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
}

// started creates the job (CreateJobObject, not inheritable), sets
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE (SetInformationJobObject,
// JobObjectExtendedLimitInformation), assigns the child
// (AssignProcessToJobObject) and resumes its threads. If anything fails
// the child is still resumed, so the caller can kill and reap it.
//
// A kill that came before the job was there (exec.Cmd.Cancel is armed as
// soon as os.StartProcess returns, so a context ending meanwhile calls it
// before started) is done here: the job is terminated with its child
// still suspended, which never runs.
func (j *job) started(cmd *exec.Cmd) error {
	pid := uint32(cmd.Process.Pid)
	killed, err := j.assign(pid)
	if killed {
		return nil
	}
	if rerr := resume(pid); rerr != nil {
		err = errors.Join(err, rerr)
	}
	return err
}

// assign creates the job and puts pid in it; it terminates the job at
// once, and says killed, when a kill came before.
func (j *job) assign(pid uint32) (killed bool, err error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return false, fmt.Errorf("CreateJobObject: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return false, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		windows.CloseHandle(h)
		return false, fmt.Errorf("OpenProcess %d: %w", pid, err)
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(h, p); err != nil {
		windows.CloseHandle(h)
		return false, fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.h = h
	if j.killed {
		if err := windows.TerminateJobObject(h, 1); err != nil {
			return false, fmt.Errorf("TerminateJobObject of a child killed while starting: %w", err)
		}
	}
	return j.killed, nil
}

// resume resumes every thread of pid (a process created suspended has
// one): CreateToolhelp32Snapshot with TH32CS_SNAPTHREAD, Thread32First and
// Thread32Next, OpenThread, ResumeThread.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("CreateToolhelp32Snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		t, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("OpenThread %d: %w", te.ThreadID, err)
		}
		_, err = windows.ResumeThread(t)
		windows.CloseHandle(t)
		if err != nil {
			return fmt.Errorf("ResumeThread %d: %w", te.ThreadID, err)
		}
		resumed++
	}
	if resumed == 0 {
		return fmt.Errorf("no thread of process %d to resume", pid)
	}
	return nil
}

// kill ends every process in the job (TerminateJobObject, exit code 1). A
// released job's processes already ended when it closed; a kill before
// started has the job is left for started to do.
func (j *job) kill(cmd *exec.Cmd) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		j.killed = true
		return nil
	}
	return windows.TerminateJobObject(j.h, 1)
}

// release closes the job's handle, which ends what is left in it
// (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
func (j *job) release() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h != 0 {
		windows.CloseHandle(j.h)
		j.h = 0
	}
}

// Detach makes cmd, not started yet, run detached from its starter's
// console and Ctrl-C group (CreateProcess flags DETACHED_PROCESS and
// CREATE_NEW_PROCESS_GROUP): the daemon, which outlives the hook that
// started it. It is not a Child: no job holds it.
func Detach(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP
	cmd.SysProcAttr.HideWindow = true
}
