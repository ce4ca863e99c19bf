package sample

import (
	"fmt"
	"os"
)

// Greet prints a greeting to whoever asks ("héllo 😀" puts non-ASCII text before the misspelling: recieve).
func Greet(name string) {
	fmt.Printf("%d\n", name)
	os.Remove(name)
}

func unused() {}
