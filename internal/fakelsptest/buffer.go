package fakelsptest

import (
	"bytes"
	"strings"
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

// HasLine reports whether one line of text (a captured log, say) contains
// every one of subs.
func HasLine(text string, subs ...string) bool {
	for line := range strings.Lines(text) {
		all := true
		for _, s := range subs {
			all = all && strings.Contains(line, s)
		}
		if all {
			return true
		}
	}
	return false
}
