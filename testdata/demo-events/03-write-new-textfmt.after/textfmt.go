package main

import (
	"fmt"
	"strings"
)

// formatCount renders n things of unit, singular for one: "1 item",
// "3 items", "2 boxes".
func formatCount(n int, unit string) string {
	if n == 1 {
		return "1 " + singular(unit)
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// singular drops a plural "es" or "s" ending.
func singular(unit string) string {
	if strings.HasSuffix(unit, "xes") {
		return strings.TrimSuffix(unit, "es")
	}
	return strings.TrimSuffix(unit, "s")
}
