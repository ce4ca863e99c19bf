//go:build !unix

package agentsuite

import "os/exec"

// ownGroup leaves cmd as it is: without process groups, cancelling kills
// the CLI's process only.
func ownGroup(*exec.Cmd) {}

// killGroup does nothing: there is no group to kill.
func killGroup(*exec.Cmd) {}
