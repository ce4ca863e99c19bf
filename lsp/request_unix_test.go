//go:build unix

package lsp

// The refusals of what is not a regular file need FIFOs, /dev and /proc:
// unix only. internal/safefile's tests cover Windows' own (reparse points,
// NUL).

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestReadBoundedRefuses: readBounded (the reader of open-for-request,
// re-sync and position conversion) answers at once for what is not a
// regular file under its bound, never opening a FIFO (whose open would
// block with the caller's document lock held) nor reading a device or a
// kernel pseudo-file; a symlink to a regular file is read.
func TestReadBoundedRefuses(t *testing.T) {
	dir := tempDir(t)
	file := writeFile(t, dir, "a.go", "package a\n")
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unblockFIFO(fifo) })
	link := filepath.Join(dir, "link.go")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	big := writeFile(t, dir, "big.go", "")
	if err := os.Truncate(big, 1<<20+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string // the text; "" for a refusal
		err  string // in the refusal
	}{
		{path: file, want: "package a\n"},
		{path: link, want: "package a\n"},
		{path: fifo, err: "not a regular file: a named pipe (FIFO)"},
		{path: dir, err: "not a regular file: a directory"},
		{path: "/dev/zero", err: "not a regular file: a character device"},
		{path: "/proc/self/environ", err: "a kernel pseudo-file"},
		{path: big, err: "1048577 bytes, over the limit of 1048576 bytes"},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var got []byte
		var err error
		go func() {
			defer close(done)
			got, err = readBounded(tt.path, 1<<20)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("readBounded(%s) still blocked after 5 s", tt.path)
		}
		if tt.err == "" && (err != nil || string(got) != tt.want) || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("readBounded(%s) = %q, %v; want %q, error %q", tt.path, got, err, tt.want, tt.err)
		}
	}
}

// TestRequestGoplsFIFO: a navigation request through the Manager for a
// FIFO named like a Go file fails at once, and gopls still answers about
// the real file after it: the FIFO was never opened, so the server's
// document lock was not held waiting for a writer. (_pipe.go: the go
// command leaves such names out of the package; a FIFO gopls reads itself
// blocks gopls, whatever lsp-hook does.)
func TestRequestGoplsFIFO(t *testing.T) {
	requireServer(t, "gopls")
	dir := tempDir(t)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "langs", "go"))); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "_pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewManager(config.Default(), dir, testLogger(t))
	t.Cleanup(m.Shutdown)
	t.Cleanup(func() { unblockFIFO(fifo) }) // first: a reader blocked in open would keep the Manager
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	params := map[string]any{"textDocument": map[string]any{"uri": pathToURI(fifo)}}
	answered := make(chan error, 1)
	go func() {
		_, err := m.Request(ctx, fifo, "textDocument/documentSymbol", params)
		answered <- err
	}()
	select {
	case err := <-answered:
		if err == nil || !strings.Contains(err.Error(), "not a regular file: a named pipe (FIFO)") {
			t.Errorf("request on a FIFO: %v, want a refusal naming it", err)
		}
	case <-time.After(20 * time.Second):
		unblockFIFO(fifo)
		t.Fatalf("request on a FIFO: no answer after 20 s (blocked opening it)")
	}
	mainPath := filepath.Join(dir, "main.go")
	text, err := os.ReadFile(mainPath)
	if err != nil {
		t.Fatal(err)
	}
	next, cancelNext := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelNext()
	for _, o := range m.Check(next, []Doc{{Path: mainPath, Text: text}}, DefaultSettle) {
		if o.Server == "gopls" && o.Freshness != Fresh {
			t.Errorf("the next check: gopls %s (%v), want fresh", o.Freshness, o.Err)
		}
	}
}

// unblockFIFO opens path for writing without blocking and closes it, so a
// reader blocked opening it (a failing test's) goes on.
func unblockFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}
