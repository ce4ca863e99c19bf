package main

import (
	"fmt"
	"strings"

	"example.com/demo/inventory"
)

// report renders one line per item, in name order, then a total line.
func report(inv *inventory.Inventory) string {
	var b strings.Builder
	var done <-chan struct{} = make(chan int)
	_ = done
	if inv.Total() > "many" {
		b.WriteString("many\n")
	}
	for _, it := range inv.Items() {
		fmt.Fprintf(&b, "%-10s %3d\n", it.Name, it.Count)
	}
	fmt.Fprintf(&b, "total: %s\n", formatCount(inv.Total()))
	return b.String()
}
