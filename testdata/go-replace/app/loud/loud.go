// Package loud shouts greetings.
package loud

import (
	"strings"

	"example.com/greet"
)

// Shout greets name in capitals.
func Shout(name string) string { return strings.ToUpper(greet.Hello(name)) }
