package proc

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestAlive: this process is alive; a child that exited and was reaped is
// not, nor is pid 0.
func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Errorf("Alive(self) = false")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if Alive(cmd.Process.Pid) {
		t.Errorf("Alive(%d) of a reaped child = true", cmd.Process.Pid)
	}
	if Alive(0) {
		t.Errorf("Alive(0) = true")
	}
}

// eventually polls cond every 10 ms until it holds or d has passed.
func eventually(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}
