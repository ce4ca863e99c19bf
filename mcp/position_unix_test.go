//go:build unix

package mcp

// The refusals of what is not a regular file need FIFOs and /dev: unix
// only. internal/safefile's tests cover Windows' own (reparse points,
// NUL).

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileLinesRefuses: fileLines (a tool's file, and every file a
// server's locations name) answers at once for what is not a regular file
// within maxFileSize — a FIFO's open would block the tool for good,
// /dev/zero would be read without end — and locate says so for a tool's
// file; a regular file (through a symlink too) is read.
func TestFileLinesRefuses(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\r\nvar x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // a reader blocked opening it (a failing test's) goes on
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	big := filepath.Join(dir, "big.go")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, maxFileSize+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path  string
		lines []string
		err   string
	}{
		{path: file, lines: []string{"package a", "var x = 1", ""}},
		{path: filepath.Join(dir, "link.go"), lines: []string{"package a", "var x = 1", ""}},
		{path: fifo, err: "not a regular file: a named pipe (FIFO)"},
		{path: dir, err: "not a regular file: a directory"},
		{path: "/dev/zero", err: "not a regular file: a character device"},
		{path: "/proc/self/environ", err: "a kernel pseudo-file"},
		{path: big, err: "16.0 MiB is larger than the 16 MiB a file may have"},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var lines []string
		var err error
		go func() {
			defer close(done)
			lines, err = fileLines(tt.path)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("fileLines(%s) still blocked after 5 s", tt.path)
		}
		if tt.err == "" && (err != nil || !slices.Equal(lines, tt.lines)) || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("fileLines(%s) = %q, %v; want %q, error %q", tt.path, lines, err, tt.lines, tt.err)
		}
	}
	if _, err := locate(dir, "pipe.go", 1, "x", 0); err == nil || !strings.Contains(err.Error(), "reading pipe.go: not a regular file") {
		t.Errorf("locate on a FIFO: %v, want a refusal naming it", err)
	}
}
