// Package asm has an assembly function whose frame does not match its Go
// declaration, for asmdecl.
package asm

// Add returns a+b.
func Add(a, b int64) int64
