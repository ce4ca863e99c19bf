package poll

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	b := New(5*time.Millisecond, 30*time.Millisecond)
	var got []time.Duration
	for range 5 {
		got = append(got, b.Next())
	}
	want := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 30 * time.Millisecond, 30 * time.Millisecond}
	if !slices.Equal(got, want) {
		t.Errorf("delays = %v, want %v", got, want)
	}
}

func TestUntil(t *testing.T) {
	tests := []struct {
		name      string
		okAt      int // the try that succeeds; 0: none
		timeout   time.Duration
		wantErr   error
		wantTries func(int) bool
	}{
		{"at once", 1, time.Second, nil, func(n int) bool { return n == 1 }},
		{"on the third try", 3, time.Second, nil, func(n int) bool { return n == 3 }},
		{"never: the context ends", 0, 30 * time.Millisecond, context.DeadlineExceeded, func(n int) bool { return n >= 2 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
			defer cancel()
			n := 0
			err := Until(ctx, time.Millisecond, 4*time.Millisecond, func() bool { n++; return n == tt.okAt })
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) || !tt.wantTries(n) {
				t.Errorf("Until = %v after %d tries", err, n)
			}
		})
	}
}
