// Package greet is the module app uses through a replace directive.
package greet

// Hello greets name.
func Hello(name string) string { return "hello, " + name }
