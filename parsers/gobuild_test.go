package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseGoBuild(t *testing.T) {
	long := strings.Repeat("é", 50<<10) // 100 KiB, over bufio.Scanner's default
	e := diag.SeverityError
	runToolCases(t, "go-build", ParseGoBuild, []toolCase{
		{name: "empty output", in: "", want: nil},
		{
			name: "continuation lines",
			in: "# example.com/m\n" +
				"./a.go:3:9: not enough arguments in call to f\n\thave ()\n\twant (int)\n" +
				"./a.go:4:2: undefined: x\n",
			want: []diag.Diagnostic{
				{Path: "./a.go", Line: 3, Column: 9, Severity: e, Message: "not enough arguments in call to f\n\thave ()\n\twant (int)"},
				{Path: "./a.go", Line: 4, Column: 2, Severity: e, Message: "undefined: x"},
			},
		},
		{
			name: "CRLF, no column, too many errors",
			in:   "# example.com/m\r\na.go:3: bad\r\n\tmore\r\na.go:4:1: too many errors\r\n",
			want: []diag.Diagnostic{{Path: "a.go", Line: 3, Severity: e, Message: "bad\n\tmore"}},
		},
		{
			name: "Windows path",
			in:   "# m\nC:\\src\\m\\a.go:3:9: undefined: x\n",
			want: []diag.Diagnostic{{Path: `C:\src\m\a.go`, Line: 3, Column: 9, Severity: e, Message: "undefined: x"}},
		},
		{
			name: "a line over 64 KiB",
			in:   "# m\na.go:1:2: " + long + "\na.go:2:1: next\n",
			want: []diag.Diagnostic{
				{Path: "a.go", Line: 1, Column: 2, Severity: e, Message: long},
				{Path: "a.go", Line: 2, Column: 1, Severity: e, Message: "next"},
			},
		},
		{
			name: "a tab line without a diagnostic before it",
			in:   "# m\n\tstray\na.go:1:1: x\n",
			want: []diag.Diagnostic{{Path: "a.go", Line: 1, Column: 1, Severity: e, Message: "x"}},
		},
		{
			name: "json: interleaved packages keep their continuations",
			in: `{"ImportPath":"m/a","Action":"build-output","Output":"# m/a\n"}` + "\n" +
				`{"ImportPath":"m/a","Action":"build-output","Output":"a/a.go:1:2: not enough arguments\n"}` + "\n" +
				`{"ImportPath":"m/b","Action":"build-output","Output":"# m/b\nb/b.go:3:4: undefined: y\n"}` + "\n" +
				`{"ImportPath":"m/a","Action":"build-output","Output":"\thave ()\n"}` + "\n" +
				`{"Time":"2026-01-01T00:00:00Z","Action":"start","Package":"m/a"}` + "\n" +
				`{"ImportPath":"m/a","Action":"build-fail"}` + "\n",
			want: []diag.Diagnostic{
				{Path: "a/a.go", Line: 1, Column: 2, Severity: e, Message: "not enough arguments\n\thave ()"},
				{Path: "b/b.go", Line: 3, Column: 4, Severity: e, Message: "undefined: y"},
			},
		},
		{
			name: "json and text lines from stderr",
			in:   "go: downloading example.com/x v1.0.0\n" + `{"ImportPath":"m","Action":"build-output","Output":"a.go:1:1: x\n"}` + "\n",
			want: []diag.Diagnostic{{Path: "a.go", Line: 1, Column: 1, Severity: e, Message: "x"}},
		},
		{name: "broken event", in: `{"ImportPath":` + "\n", wantErr: "decoding build event"},
		{name: "other output", in: "hello\nworld\n", wantErr: "no line is go-build output"},
		{name: "a line number too long", in: "a.go:1234567890:1: x\n", wantErr: "no line is go-build output"},
	})
}

func TestCutGoPosition(t *testing.T) {
	for _, c := range []struct {
		in   string
		want goPosition
		ok   bool
	}{
		{"a.go:1:2: m", goPosition{"a.go", 1, 2, "m"}, true},
		{"a.go:1: m", goPosition{"a.go", 1, 0, "m"}, true},
		{"a.go:1:2:", goPosition{"a.go", 1, 2, ""}, true},
		{"dir with space/a.go:1:2: m: 3:4: x", goPosition{"dir with space/a.go", 1, 2, "m: 3:4: x"}, true},
		{`C:\a.go:1:2: m`, goPosition{`C:\a.go`, 1, 2, "m"}, true},
		{"vet: a.go:1:2: m", goPosition{}, false},
		{"\ta.go:1:2: m", goPosition{}, false},
		{"a.go:x:2: m", goPosition{}, false},
		{"a.go:1:2 m", goPosition{}, false},
		{"a.go:1", goPosition{}, false},
		{":1:2: m", goPosition{}, false},
	} {
		got, ok := cutGoPosition(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("cutGoPosition(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestDetectGoBuild(t *testing.T) {
	runDetectCases(t, detectGoBuild, []detectCase{
		{"json", `{"ImportPath":"m","Action":"build-output","Output":"# m\n"}` + "\n", true},
		{"header", "# example.com/m\n./a.go:1:2: undefined: x\n", true},
		{"load error with hint", "a/a.go:3:8: no required module provides package x; to add it:\n\tgo get x\n", true},
		{"go vet 1.26 finding", "a/a.go:3:8: self-assignment of x\n", false},
		{"gcc", "a.c:3:5: error: expected ';'\n", false},
		{"go test json without build output", `{"Time":"2026-01-01T00:00:00Z","Action":"start","Package":"m"}` + "\n", false},
	})
}

// TestParseGoBuildManyContinuations guards against joining continuation
// lines one at a time, which is quadratic: 100,000 lines of 10 bytes would
// copy about 50 GB.
func TestParseGoBuildManyContinuations(t *testing.T) {
	const n = 100_000
	in := "a.go:1:2: m\n" + strings.Repeat("\tcontinued\n", n)
	ds, err := ParseGoBuild(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || strings.Count(ds[0].Message, "\n") != n {
		t.Fatalf("got %d diagnostics, want 1 with %d continuation lines", len(ds), n)
	}
}
