package main

import (
	"strings"

	"example.com/langs/greet"
)

// loud is a second caller of greet.Greet, one the tests never open.
func loud() string {
	return strings.ToUpper(greet.Greet("everyone"))
}
