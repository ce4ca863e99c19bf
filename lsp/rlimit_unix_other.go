//go:build unix && !darwin

package lsp

import "syscall"

// capFileLimit leaves lim alone: outside darwin the hard limit itself is
// what setrlimit(2) accepts (on Linux at most fs.nr_open).
func capFileLimit(lim *syscall.Rlimit) {}
