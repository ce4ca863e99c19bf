package clangdcheck

import (
	"cmp"
	"os"
	"slices"
	"testing"
)

// TestParse reads real `clangd --check` logs (clangd 14.0.6): one with a
// .clang-tidy raising every warning to an error, captured in testdata,
// and hand-made edge cases.
func TestParse(t *testing.T) {
	captured, err := os.ReadFile("testdata/check-warnings-as-errors.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		log  string
		want []Error
	}{
		{"captured, WarningsAsErrors", string(captured), []Error{
			{3, "-Wunused-variable"}, {4, "-Wempty-body"}, {6, "-Wfortify-source"}, {7, "bugprone-sizeof-expression"},
		}},
		{"no errors", "I[15:09:48.916] All checks completed, 0 errors\n", nil},
		{"an info line that looks like one", "I[15:09:48.916] [x] Line 3: y\n", nil},
		{"a line number too large", "E[1] [x] Line 99999999999999999999: y\n", nil},
		{"same line, codes sorted", "E[1] [b] Line 2: y\nE[1] [a] Line 2: y\n", []Error{{2, "a"}, {2, "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse([]byte(tt.log)); !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
	if e := (Error{7, "bugprone-sizeof-expression"}); !e.Tidy() || e.String() != "7 [bugprone-sizeof-expression]" {
		t.Errorf("%v: Tidy %v", e, e.Tidy())
	}
	if (Error{3, "-Wunused-variable"}).Tidy() {
		t.Error("a clang warning counted as clang-tidy's")
	}
}

// FuzzParse: any log parses without a panic into errors with a line
// number and a code, sorted.
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile("testdata/check-warnings-as-errors.txt"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("E[1] [a] Line 2: y\n"))
	f.Fuzz(func(t *testing.T, log []byte) {
		errs := Parse(log)
		for _, e := range errs {
			if e.Code == "" {
				t.Fatalf("an error without a code: %v", errs)
			}
		}
		if !slices.IsSortedFunc(errs, func(a, b Error) int { return cmp.Compare(a.Line, b.Line) }) {
			t.Fatalf("not sorted by line: %v", errs)
		}
	})
}
