//go:build !linux

package sidecar

// listingFDs is the descriptors counting our own takes: none outside
// Linux (proc_pidinfo on macOS, GetProcessHandleCount on Windows).
const listingFDs = 0
