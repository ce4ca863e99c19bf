// Package greet has deliberate go vet findings for the parsers' testdata.
package greet

import (
	"fmt"
	"sync"
)

// Hello prints a greeting with a Printf verb that does not match its argument.
func Hello(name string) {
	fmt.Printf("héllo, wörld %d\n", name)
}

// Copy passes a lock by value.
func Copy(mu sync.Mutex) {
	_ = mu
}

// Self assigns x to itself.
func Self() int {
	x := 1
	x = x
	return x
}

// Unreachable has code after a return.
func Unreachable() int {
	return 1
	fmt.Println("never")
	return 2
}
