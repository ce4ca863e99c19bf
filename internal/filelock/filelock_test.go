package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestLock: a lock belongs to its open file: a second open of the file
// does not get it (TryLock: ErrLocked; Lock: waits), Unlock and Close
// release it, on every platform.
func TestLock(t *testing.T) {
	p := filepath.Join(testdir.New(t), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if err := TryLock(a); err != nil {
		t.Fatalf("TryLock(a) = %v", err)
	}
	if err := TryLock(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock(b) while a holds it = %v, want ErrLocked", err)
	}
	if err := Unlock(a); err != nil {
		t.Fatalf("Unlock(a) = %v", err)
	}
	if err := TryLock(b); err != nil {
		t.Fatalf("TryLock(b) after Unlock(a) = %v", err)
	}

	got := make(chan error, 1)
	go func() { got <- Lock(a) }()
	select {
	case err := <-got:
		t.Fatalf("Lock(a) while b holds it returned %v; want it to wait", err)
	case <-time.After(100 * time.Millisecond): // sets up the wait; the answer is awaited below
	}
	b.Close()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("Lock(a) after b closed = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Lock(a) still waiting 5 s after b closed")
	}
	if err := TryLock(open()); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock of a third open while a holds it = %v, want ErrLocked", err)
	}
}
