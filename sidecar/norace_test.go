//go:build !race

package sidecar

// cpuScale stretches timing bounds of CPU-bound work under the race
// detector; without it, bounds hold as written.
const cpuScale = 1
