// Package user imports broken, so go vet must compile broken first and
// prints the compiler's error for it.
package user

import (
	"fmt"

	"example.com/vetdemo/broken"
)

// F misuses a Printf verb and calls into the broken package.
func F() {
	fmt.Printf("%d", "x")
	_ = broken.Café()
}
