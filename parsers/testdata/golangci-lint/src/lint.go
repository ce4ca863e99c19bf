// Package lint has deliberate findings for golangci-lint's default linters.
package lint

import (
	"fmt"
	"os"
)

// Greet prints a greeting; the Printf verb does not match (govet).
func Greet(name string) {
	fmt.Printf("héllo, wörld — %d\n", name)
}

// Touch ignores the error os.WriteFile returns (errcheck).
func Touch(path string) {
	os.WriteFile(path, nil, 0o644)
}

// Count assigns a value that is never used (ineffassign).
func Count() int {
	n := 1
	n = 2
	return n
}

func unused() {} // never called (unused)

// Éclair compares a value to itself (staticcheck SA4000).
func Éclair(x int) bool {
	return "é" != "" && x == x
}
