package main

import (
	"fmt"
	"strings"
)

// greet returns a greeting for name, trimmed of surrounding space.
func greet(name string) string {
	return fmt.Sprintf("hello, %s", strings.TrimSpace(name))
}
