// Package gen is "generated" from gen.tmpl, with //line directives that give
// line numbers but no columns.
package gen

import "fmt"

// Show prints a count with the wrong verb.
func Show(n int) {
//line gen.tmpl:7
	fmt.Printf("count: %s\n", n)
}
