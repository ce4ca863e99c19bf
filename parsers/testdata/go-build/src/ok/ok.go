// Package ok compiles.
package ok

// Answer is 42.
func Answer() int { return 42 }
