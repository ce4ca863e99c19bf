// Package inventory counts items by name.
package inventory

import "sort"

// Item is one kind of item and how many of it are in stock.
type Item struct {
	Name  string
	Count int
}

// Inventory counts items by name. The zero value is not usable; call New.
type Inventory struct {
	counts map[string]int
}

// New returns an empty inventory.
func New() *Inventory {
	return &Inventory{counts: make(map[string]int)}
}

// Add adds n items called name.
func (inv *Inventory) Add(name string, n int) {
	inv.counts[name] += n
}

// Total returns the number of items of every kind.
func (inv *Inventory) Total() int {
	total := 0
	for _, n := range inv.counts {
		total += n
	}
	return total
}

// Items returns every kind of item in name order.
func (inv *Inventory) Items() []Item {
	items := make([]Item, 0, len(inv.counts))
	for name, n := range inv.counts {
		items = append(items, Item{Name: name, Count: n})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Name < items[j].Name })
	return items
}
