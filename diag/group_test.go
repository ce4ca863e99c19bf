package diag

import (
	"reflect"
	"testing"
)

func TestGroup(t *testing.T) {
	ds := []Diagnostic{
		{Path: "/r/b.go", Line: 2, Message: "y", Severity: SeverityError},
		{Path: "/r/a.go", Line: 1, Message: "x", Severity: SeverityError},
		{Path: "/r/b.go", Line: 1, Message: "z", Severity: SeverityWarning},
		{Path: "/r/b.go", Line: 1, Message: "z", Severity: SeverityError},
		{Path: "/elsewhere/c.go", Line: 1, Message: "w", Severity: SeverityError},
		{Path: "", Line: 0, Message: "global", Severity: SeverityError},
	}
	got := Group(ds, "/r")
	var rels []string
	var counts []int
	for _, f := range got {
		rels = append(rels, f.Rel)
		counts = append(counts, len(f.Diagnostics))
	}
	if want := []string{"", "/elsewhere/c.go", "a.go", "b.go"}; !reflect.DeepEqual(rels, want) {
		t.Errorf("rels = %q, want %q", rels, want)
	}
	if want := []int{1, 1, 1, 2}; !reflect.DeepEqual(counts, want) {
		t.Errorf("counts = %v, want %v (the duplicate at b.go:1 kept once)", counts, want)
	}
	if d := got[3].Diagnostics[0]; d.Severity != SeverityError {
		t.Errorf("of duplicates the most severe is kept, got %v", d.Severity)
	}
}
