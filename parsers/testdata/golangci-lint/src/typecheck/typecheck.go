// Package typecheck does not compile: golangci-lint reports it as typecheck.
package typecheck

// Café declares a variable it never uses.
func Café() {
	crème := 1
}
