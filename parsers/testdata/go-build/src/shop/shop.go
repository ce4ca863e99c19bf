// Package shop has compile errors: an argument of the wrong type after
// non-ASCII text, a call with too few arguments (the compiler adds
// "have"/"want" lines) and an undefined name.
package shop

// Price adds a string to a length.
func Price() int {
	return add(len("prix: 3 €"), "deux")
}

func add(a, b int) int { return a + b }

// Total adds up prices.
func Total() int {
	return add(1)
}

// Name returns an undefined name.
func Name() string {
	return nom
}
