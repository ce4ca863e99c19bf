// Command demo prints a small stock report. It is the sample workspace of
// lsp-hook's demo (scripts/demo.sh) and end-to-end tests: clean as shipped,
// broken and fixed again by the recorded events in testdata/demo-events.
package main

import (
	"fmt"
	"os"

	"example.com/demo/inventory"
)

func main() {
	inv := inventory.New()
	inv.Add("apple", 3)
	inv.Add("pear", 5)
	inv.Add("apple", 2)
	fmt.Println(greet(" demo "))
	fmt.Print(report(inv))
	if inv.Total() == 0 {
		os.Exit(1)
	}
}
