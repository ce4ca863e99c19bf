//go:build !windows

package testdir

// onWine is false: Wine runs Windows programs only.
func onWine() bool { return false }
