// Package clean has no findings.
package clean

// Answer is 42.
func Answer() int { return 42 }
