//go:build unix

package safefile

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// platformCases adds TestRead's unix rows: a FIFO (never opened, so never
// blocking), a socket, a device, and the Linux pseudo-files (skipped where
// the path does not exist, as on macOS).
func platformCases(t *testing.T, dir, file string) []readCase {
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	fifoLink := filepath.Join(dir, "pipelink")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return []readCase{
		{name: "fifo", path: fifo, max: 100, err: ErrNotRegular},
		{name: "fifo, followed", path: fifo, follow: true, max: 100, err: ErrNotRegular},
		{name: "symlink to a fifo, followed", path: fifoLink, follow: true, max: 100, err: ErrNotRegular},
		{name: "socket", path: sock, follow: true, max: 100, err: ErrNotRegular},
		{name: "character device", path: "/dev/zero", follow: true, max: 100, err: ErrNotRegular},
		{name: "procfs", path: "/proc/self/environ", follow: true, max: 1 << 20, err: ErrPseudoFile},
		{name: "sysfs", path: "/sys/kernel/uevent_seqnum", follow: true, max: 1 << 20, err: ErrPseudoFile},
	}
}

// TestRegularNamesTheKind: the refusal says what the path is.
func TestRegularNamesTheKind(t *testing.T) {
	fifo := filepath.Join(testdir.New(t), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFollow(fifo, 100)
	if want := "not a regular file: a named pipe (FIFO)"; err == nil || err.Error() != want {
		t.Errorf("ReadFollow(fifo) = %v, want %q", err, want)
	}
}

// TestOpenFileNoFollow: the open itself refuses a symlink (the race
// Open's look cannot see: a file swapped for a link after it), with the
// error Regular gives a symlink.
func TestOpenFileNoFollow(t *testing.T) {
	dir := testdir.New(t)
	file := filepath.Join(dir, "a")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	f, err := openFile(link, false)
	if err == nil {
		f.Close()
	}
	if want := "not a regular file: a symlink"; err == nil || err.Error() != want {
		t.Errorf("openFile(link, false) = %v, want %q", err, want)
	}
	f, err = openFile(link, true)
	if err != nil {
		t.Fatalf("openFile(link, true) = %v", err)
	}
	f.Close()
}
