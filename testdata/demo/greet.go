package main

import (
	"fmt"
	"strings"
)

// greet returns a greeting for name, trimmed of surrounding space.
func greet(name string) string {
	return fmt.Sprintf("hello, %s", strings.TrimSpace(name))
}

// formatCount renders a count of items: "1 item", "3 items".
func formatCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}
