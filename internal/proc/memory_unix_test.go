//go:build unix

package proc

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestTreeRSS: a shell that started a sleep holds its own RSS and the
// sleep's; the sleep alone holds less; a process that is gone is left out.
func TestTreeRSS(t *testing.T) {
	cmd := exec.Command("sh", "-c", `sleep 600 & echo $!; wait`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	sleep, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		exec.Command("kill", strconv.Itoa(sleep)).Run()
		cmd.Wait()
	})
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	sh := cmd.Process.Pid
	rss, err := TreeRSS(sh, sleep, gone.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tree of sh %d: %d bytes; sleep %d: %d bytes", sh, rss[sh], sleep, rss[sleep])
	if rss[sleep] <= 0 {
		t.Errorf("TreeRSS(sleep) = %d, want > 0", rss[sleep])
	}
	if rss[sh] <= rss[sleep] {
		t.Errorf("TreeRSS(sh) = %d, want more than its child sleep's %d", rss[sh], rss[sleep])
	}
	if v, ok := rss[gone.Process.Pid]; ok {
		t.Errorf("TreeRSS of a reaped process = %d, want it left out", v)
	}
}

// TestTotalMemory: the machine has some memory.
func TestTotalMemory(t *testing.T) {
	n, err := TotalMemory()
	if err != nil || n <= 0 {
		t.Fatalf("TotalMemory() = %d, %v; want > 0", n, err)
	}
}
