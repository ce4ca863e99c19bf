//go:build race

package sidecar

// cpuScale stretches timing bounds of CPU-bound work under the race
// detector, which slows it several times over.
const cpuScale = 5
