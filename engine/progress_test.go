package engine

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct {
	mu sync.Mutex // guards t
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestProgressLine(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{0, 456, 0, "diagnose  0/456 files"},
		{0, 456, 3 * time.Second, "diagnose  0/456 files"},
		{5, 10, 0, "diagnose  5/10 files"},
		{50, 100, 10 * time.Second, "diagnose  50/100 files  5.0 files/s  ETA 10s"},
		// 333 left at 45.6 files/s is 7.3 s: rounded up.
		{123, 456, 123 * time.Second / 456 * 10, "diagnose  123/456 files  45.6 files/s  ETA 8s"},
		{3, 4, 3 * time.Millisecond, "diagnose  3/4 files  1000.0 files/s  ETA 1s"},
		{10, 1000, 5 * time.Second, "diagnose  10/1000 files  2.0 files/s  ETA 8m15s"},
		{456, 456, 10 * time.Second, "diagnose  456/456 files  45.6 files/s  ETA 0s"},
		{7, 5, time.Second, "diagnose  7/5 files  7.0 files/s  ETA 0s"},
		{1, 1 << 40, 1000 * time.Hour, "diagnose  1/1099511627776 files  0.0 files/s  ETA 100h0m0s"},
	}
	for _, tt := range tests {
		if got := progressLine(tt.done, tt.total, tt.elapsed); got != tt.want {
			t.Errorf("progressLine(%d, %d, %v) = %q, want %q", tt.done, tt.total, tt.elapsed, got, tt.want)
		}
	}
}

// TestProgressRedraw: the first line is drawn at once, redraws come at
// most every 100 ms, a shorter line blanks out the longer one before it,
// and Finish clears the line once.
func TestProgressRedraw(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	var buf bytes.Buffer
	p := newProgressClock(&buf, 20, true, clock.now)
	step := func(d time.Duration, n int, want string) {
		t.Helper()
		buf.Reset()
		clock.advance(d)
		p.Add(n)
		if got := buf.String(); got != want {
			t.Errorf("after %v and Add(%d): wrote %q, want %q", d, n, got, want)
		}
	}
	if got, want := buf.String(), "\rdiagnose  0/20 files"; got != want {
		t.Errorf("NewProgress wrote %q, want %q", got, want)
	}
	step(1*time.Second, 10, "\rdiagnose  10/20 files  10.0 files/s  ETA 1s")
	step(50*time.Millisecond, 1, "") // too soon
	step(49*time.Millisecond, 1, "") // still too soon: 99 ms since the draw
	step(1*time.Millisecond, 0, "\rdiagnose  12/20 files  10.9 files/s  ETA 1s")
	step(time.Second, 8, "\rdiagnose  20/20 files  9.5 files/s  ETA 0s ") // one space covers the longer line before

	buf.Reset()
	p.Finish()
	if got, want := buf.String(), "\r"+strings.Repeat(" ", len("diagnose  20/20 files  9.5 files/s  ETA 0s"))+"\r"; got != want {
		t.Errorf("Finish wrote %q, want %q", got, want)
	}
	buf.Reset()
	p.Finish()
	step(time.Second, 1, "")
	if buf.Len() != 0 {
		t.Errorf("after Finish: wrote %q, want nothing", buf.String())
	}
}

// TestProgressPadding: a line shorter than the one before is padded with
// spaces to cover it.
func TestProgressPadding(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	var buf bytes.Buffer
	p := newProgressClock(&buf, 1000, true, clock.now)
	clock.advance(100 * time.Millisecond)
	p.Add(1) // 10.0 files/s, ETA 1m40s
	long := "diagnose  1/1000 files  10.0 files/s  ETA 1m40s"
	buf.Reset()
	clock.advance(100 * time.Millisecond)
	p.Add(999) // 5000.0 files/s, ETA 0s: two characters shorter
	short := "diagnose  1000/1000 files  5000.0 files/s  ETA 0s"
	if got, want := buf.String(), "\r"+short+strings.Repeat(" ", max(len(long)-len(short), 0)); got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

func TestProgressDisabled(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 10, false)
	p.Add(3)
	p.Add(7)
	p.Finish()
	if buf.Len() != 0 {
		t.Errorf("disabled Progress wrote %q", buf.String())
	}
}

// TestProgressConcurrent: Add from many goroutines (run with -race) counts
// every file.
func TestProgressConcurrent(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1000, 0)}
	var buf bytes.Buffer
	p := newProgressClock(&buf, 800, true, clock.now)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				clock.advance(time.Millisecond)
				p.Add(1)
			}
		})
	}
	wg.Wait()
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done != 800 {
		t.Errorf("done = %d, want 800", done)
	}
	p.Finish()
}

func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	if IsTerminal(nil) {
		t.Error("nil is a terminal")
	}
}
