// Package poll is lsp-hook's one way to wait for something that cannot be
// waited on directly (a daemon's lock to be free, a process to exit, a
// socket to answer): try, then sleep a delay that doubles from a first
// one up to a ceiling, until the try succeeds or the context ends.
//
// poll imports only the standard library.
package poll

import (
	"context"
	"time"
)

// Backoff yields the delays between tries: First, then twice the previous,
// never more than Max. The zero value yields 0 forever; use New.
type Backoff struct {
	next, max time.Duration
}

// New returns a Backoff starting at first and doubling up to max.
func New(first, max time.Duration) *Backoff {
	return &Backoff{next: first, max: max}
}

// Next returns the delay to sleep before the next try and doubles the one
// after it (up to the ceiling).
func (b *Backoff) Next() time.Duration {
	d := b.next
	b.next = min(b.next*2, b.max)
	return d
}

// Until calls try at once and then after each of New(first, max)'s delays,
// until it reports true (Until returns nil) or ctx ends (Until returns
// ctx.Err(), without a last try).
func Until(ctx context.Context, first, max time.Duration, try func() bool) error {
	b := New(first, max)
	for {
		if try() {
			return nil
		}
		t := time.NewTimer(b.Next())
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
