package main

import "testing"

// TestMedianMem: the round with the median VmRSS, the lower middle one of
// an even count, whatever the order of the rounds; none of none.
func TestMedianMem(t *testing.T) {
	m := func(pid int, rss int64) procMem { return procMem{pid: pid, rss: rss} }
	tests := []struct {
		name string
		in   []procMem
		want procMem
	}{
		{"none", nil, procMem{}},
		{"one", []procMem{m(1, 5)}, m(1, 5)},
		{"three, unordered", []procMem{m(1, 30), m(2, 10), m(3, 20)}, m(3, 20)},
		{"four: the lower middle", []procMem{m(1, 40), m(2, 10), m(3, 30), m(4, 20)}, m(4, 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := medianMem(tt.in); got != tt.want {
				t.Errorf("medianMem(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
