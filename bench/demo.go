package main

// demoFiles is the small module the bench generates when testdata/demo does
// not exist: a root package of two files that imports an internal package,
// and a command that imports the root package, so an edit of the root
// package has a dependent for gopls and go build to recheck.
var demoFiles = map[string]string{
	"go.mod": "module example.com/demo\n\ngo 1.22\n",
	"config.json": `{
  "name": "demo",
  "units": "metric",
  "shapes": ["circle", "rect"]
}
`,
	"internal/units/units.go": `// Package units converts lengths.
package units

// Length is a length in metres.
type Length float64

// Common lengths.
const (
	Metre      Length = 1
	Centimetre Length = 0.01
	Inch       Length = 0.0254
)

// In returns l expressed in unit u.
func (l Length) In(u Length) float64 { return float64(l / u) }
`,
	"shapes.go": `// Package demo is a small module the lsp-hook bench edits.
package demo

import (
	"fmt"
	"math"

	"example.com/demo/internal/units"
)

// Shape is anything with an area and a perimeter, in square metres and metres.
type Shape interface {
	Area() float64
	Perimeter() units.Length
}

// Circle is a circle of radius R.
type Circle struct{ R units.Length }

// Area is πR².
func (c Circle) Area() float64 { return math.Pi * float64(c.R*c.R) }

// Perimeter is 2πR.
func (c Circle) Perimeter() units.Length { return 2 * math.Pi * c.R }

// Rect is a W × H rectangle.
type Rect struct{ W, H units.Length }

// Area is W·H.
func (r Rect) Area() float64 { return float64(r.W * r.H) }

// Perimeter is 2(W+H).
func (r Rect) Perimeter() units.Length { return 2 * (r.W + r.H) }

// Describe names a shape with its area.
func Describe(s Shape) string {
	switch s := s.(type) {
	case Circle:
		return fmt.Sprintf("circle r=%.2fcm area=%.4fm²", s.R.In(units.Centimetre), s.Area())
	case Rect:
		return fmt.Sprintf("rect %.2f×%.2fm area=%.4fm²", float64(s.W), float64(s.H), s.Area())
	default:
		return fmt.Sprintf("%T area=%.4fm²", s, s.Area())
	}
}
`,
	"store.go": `package demo

import (
	"errors"
	"sort"
	"sync"
)

// ErrNotFound is returned by Store.Get for an unknown name.
var ErrNotFound = errors.New("shape not found")

// Store keeps named shapes; it is safe for concurrent use.
type Store struct {
	mu     sync.Mutex // guards shapes
	shapes map[string]Shape
}

// Put stores s under name, replacing any shape of that name.
func (st *Store) Put(name string, s Shape) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.shapes == nil {
		st.shapes = make(map[string]Shape)
	}
	st.shapes[name] = s
}

// Get returns the shape stored under name, or ErrNotFound.
func (st *Store) Get(name string) (Shape, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.shapes[name]
	if !ok {
		return nil, ErrNotFound
	}
	return s, nil
}

// Names returns the stored names, sorted.
func (st *Store) Names() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	names := make([]string, 0, len(st.shapes))
	for n := range st.shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TotalArea is the sum of the stored shapes' areas, in square metres.
func (st *Store) TotalArea() float64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	var sum float64
	for _, s := range st.shapes {
		sum += s.Area()
	}
	return sum
}
`,
	"cmd/demo/main.go": `// Command demo prints a few shapes.
package main

import (
	"fmt"

	"example.com/demo"
	"example.com/demo/internal/units"
)

func main() {
	var st demo.Store
	st.Put("coin", demo.Circle{R: 1.2 * units.Centimetre})
	st.Put("door", demo.Rect{W: 0.9, H: 2.1})
	for _, n := range st.Names() {
		s, _ := st.Get(n)
		fmt.Println(n, demo.Describe(s))
	}
	fmt.Printf("total %.3fm²\n", st.TotalArea())
}
`,
}
