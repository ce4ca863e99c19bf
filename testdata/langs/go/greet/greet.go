// Package greet builds greetings.
package greet

// Greet returns a greeting for name.
func Greet(name string) string {
	return "hello, " + name
}
