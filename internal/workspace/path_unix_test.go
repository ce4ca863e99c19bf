//go:build unix

package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestResolveUnix: the rows Windows cannot have — a FIFO (resolved without
// being opened, so without blocking), a newline in a name, and /proc,
// whose links lead anywhere: /proc/self/root/<root>/a.go is the root's
// a.go, yet lexically outside, so refused before anything is looked at.
func TestResolveUnix(t *testing.T) {
	root, _, links := resolveTree(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	testdir.WriteTree(t, root, map[string]string{"new\nline.go": "package a\n"})
	if err := os.Symlink("/proc/self/environ", filepath.Join(root, "environ.go")); err != nil {
		t.Fatal(err)
	}
	rows := []resolveRow{
		{name: "FIFO", path: "pipe.go", want: "pipe.go"},
		{name: "newline", path: "new\nline.go", want: "new\nline.go"},
		{name: "nonexistent with a newline", path: "a\nb.go", want: "a\nb.go"},
		{name: "proc root", path: "/proc/self/root" + root + "/a.go", wantErr: ErrOutside},
		{name: "proc cwd", path: "/proc/self/cwd/a.go", wantErr: ErrOutside},
		{name: "proc environ", path: "/proc/self/environ", wantErr: ErrOutside},
		{name: "symlink to proc", path: "environ.go", wantErr: ErrOutside, wantSub: "(symlink to /proc/"},
		{name: "dev zero", path: "/dev/zero", wantErr: ErrOutside},
	}
	if _, err := os.Stat("/proc/self/root"); err != nil {
		rows = rows[:2] // no procfs (macOS)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		checkResolve(t, Resolve, root, links, rows)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Resolve blocked (opened the FIFO?)")
	}
}

// TestResolveRootSlash: with the workspace at / (a hook run from the file
// system root), /proc is inside it and resolves; reading it is refused
// later (internal/safefile).
func TestResolveRootSlash(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no procfs")
	}
	want := fmt.Sprintf("/proc/%d/status", os.Getpid()) // /proc/self links to it
	for _, p := range []string{"/proc/self/status", "proc/self/../self/status"} {
		if got, err := Resolve("/", p); err != nil || got != want {
			t.Errorf("Resolve(/, %s) = %q, %v; want %q", p, got, err, want)
		}
	}
}
