// Package broken does not type-check, so vet reports the type error.
package broken

// Café returns a string where an int is wanted.
func Café() int {
	return "crème"
}
