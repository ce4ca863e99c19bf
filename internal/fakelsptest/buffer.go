package fakelsptest

import (
	"bytes"
	"sync"
)

// LockedBuffer is a bytes.Buffer safe for concurrent writes and reads: a
// log a test captures while the code under test writes it from several
// goroutines. The zero value is ready to use.
type LockedBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

// Write appends p; it never fails.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
