package safefile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRead: what Open and OpenFollow refuse, each without blocking (a FIFO
// with no writer included), and what ReadAll reads.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	file := write("a.txt", "hello\n")
	big := write("big.txt", "")
	if err := os.Truncate(big, 1<<20); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
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
	defer l.Close()

	tests := []struct {
		name   string
		path   string
		follow bool
		max    int64
		want   string // the text read, when no error
		err    error  // errors.Is target; nil: read
		big    bool   // a *TooLargeError
	}{
		{name: "regular", path: file, max: 100, want: "hello\n"},
		{name: "regular at its bound", path: file, max: 6, want: "hello\n"},
		{name: "over the bound", path: file, max: 5, big: true},
		{name: "sparse 1 MiB over the bound", path: big, max: 1<<20 - 1, big: true},
		{name: "symlink, not followed", path: link, max: 100, err: ErrNotRegular},
		{name: "symlink, followed", path: link, follow: true, max: 100, want: "hello\n"},
		{name: "fifo", path: fifo, max: 100, err: ErrNotRegular},
		{name: "fifo, followed", path: fifo, follow: true, max: 100, err: ErrNotRegular},
		{name: "symlink to a fifo, followed", path: fifoLink, follow: true, max: 100, err: ErrNotRegular},
		{name: "directory", path: dir, follow: true, max: 100, err: ErrNotRegular},
		{name: "socket", path: sock, follow: true, max: 100, err: ErrNotRegular},
		{name: "character device", path: "/dev/zero", follow: true, max: 100, err: ErrNotRegular},
		{name: "procfs", path: "/proc/self/environ", follow: true, max: 1 << 20, err: ErrPseudoFile},
		{name: "sysfs", path: "/sys/kernel/uevent_seqnum", follow: true, max: 1 << 20, err: ErrPseudoFile},
		{name: "missing", path: filepath.Join(dir, "nope"), follow: true, max: 100, err: os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil && tt.err != os.ErrNotExist {
				t.Skipf("%s: %v", tt.path, err)
			}
			type answer struct {
				b   []byte
				err error
			}
			done := make(chan answer, 1)
			go func() {
				open := Open
				if tt.follow {
					open = OpenFollow
				}
				f, fi, err := open(tt.path)
				if err != nil {
					done <- answer{nil, err}
					return
				}
				defer f.Close()
				b, err := ReadAll(f, fi, tt.max)
				done <- answer{b, err}
			}()
			var got answer
			select {
			case got = <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: still blocked after 5 s", tt.path)
			}
			var tooLarge *TooLargeError
			switch {
			case tt.big:
				if !errors.As(got.err, &tooLarge) || tooLarge.Max != tt.max {
					t.Errorf("got %q, %v; want a *TooLargeError with max %d", got.b, got.err, tt.max)
				}
			case tt.err != nil:
				if !errors.Is(got.err, tt.err) {
					t.Errorf("got %q, %v; want %v", got.b, got.err, tt.err)
				}
			case got.err != nil || string(got.b) != tt.want:
				t.Errorf("got %q, %v; want %q", got.b, got.err, tt.want)
			}
		})
	}
}

// TestRegularNamesTheKind: the refusal says what the path is.
func TestRegularNamesTheKind(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFollow(fifo, 100)
	if want := "not a regular file: a named pipe (FIFO)"; err == nil || err.Error() != want {
		t.Errorf("ReadFollow(fifo) = %v, want %q", err, want)
	}
}
