package proc

import (
	"os"
	"os/exec"
	"testing"
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
