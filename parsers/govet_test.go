package parsers

import (
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/diag"
)

func TestParseGoVet(t *testing.T) {
	e, w := diag.SeverityError, diag.SeverityWarning
	long := strings.Repeat("x", 100<<10)
	runToolCases(t, "go-vet", ParseGoVet, []toolCase{
		{name: "empty output", in: "", want: nil},
		{
			name: "go 1.26 plain: findings without headers, a compile error under one",
			in: "# m/dep\ndep/dep.go:3:9: undefined: x\n\thave ()\n" +
				"a/a.go:5:2: self-assignment of x\ngen.tmpl:7: printf: bad verb\n",
			want: []diag.Diagnostic{
				{Path: "dep/dep.go", Line: 3, Column: 9, Severity: e, Message: "undefined: x\n\thave ()"},
				{Path: "a/a.go", Line: 5, Column: 2, Severity: w, Message: "self-assignment of x"},
				{Path: "gen.tmpl", Line: 7, Severity: w, Message: "printf: bad verb"},
			},
		},
		{
			name: "go 1.25 plain: findings under headers",
			in:   "# m/a\r\na/a.go:5:2: self-assignment of x\r\na/b.go:6:1: unreachable code\r\n# m/b\r\nvet: b/b.go:1:2: undefined: y\r\n",
			want: []diag.Diagnostic{
				{Path: "a/a.go", Line: 5, Column: 2, Severity: w, Message: "self-assignment of x"},
				{Path: "a/b.go", Line: 6, Column: 1, Severity: w, Message: "unreachable code"},
				{Path: "b/b.go", Line: 1, Column: 2, Severity: e, Message: "undefined: y"},
			},
		},
		{
			name: "vet error without a position, context lines",
			in:   "vet: analysis skipped due to errors in package\na.go:1:2: m\n1\tpackage a\n2\tfunc f() {}\n",
			want: []diag.Diagnostic{
				{Severity: e, Message: "analysis skipped due to errors in package"},
				{Path: "a.go", Line: 1, Column: 2, Severity: w, Message: "m"},
			},
		},
		{
			name: "a finding over 64 KiB",
			in:   "a.go:1:2: " + long + "\n",
			want: []diag.Diagnostic{{Path: "a.go", Line: 1, Column: 2, Severity: w, Message: long}},
		},
		{
			name: "json: objects, text, no newline after an object",
			in: "# m/b\nvet: b/b.go:1:2: undefined: y\n" +
				"{\n\t\"m/a\": {\n\t\t\"printf\": [\n\t\t\t{\"posn\": \"/p/a.go:3:4\", \"end\": \"/p/a.go:3:6\", \"message\": \"bad verb\"}\n\t\t],\n" +
				"\t\t\"assign\": [{\"posn\": \"/p/a.go:5:2\", \"end\": \"/p/a.go:5:2\", \"message\": \"self\", \"suggested_fixes\": []}]\n\t}\n}" +
				"# m/c\nc/c.go:1:1: compile error\n" +
				"{\"m/d\": {\"tests\": [{\"posn\": \"-\", \"message\": \"nowhere\"}, {\"posn\": \"/p/d.go\", \"message\": \"file only\"}]}}\n",
			want: []diag.Diagnostic{
				{Path: "b/b.go", Line: 1, Column: 2, Severity: e, Message: "undefined: y"},
				{Path: "/p/a.go", Line: 5, Column: 2, Severity: w, Code: "assign", Message: "self"},
				{Path: "/p/a.go", Line: 3, Column: 4, EndLine: 3, EndColumn: 6, Severity: w, Code: "printf", Message: "bad verb"},
				{Path: "c/c.go", Line: 1, Column: 1, Severity: e, Message: "compile error"},
				{Severity: w, Code: "tests", Message: "nowhere"},
				{Path: "/p/d.go", Severity: w, Code: "tests", Message: "file only"},
			},
		},
		{
			name: "json: an analyzer's error",
			in:   `{"m/a": {"printf": {"error": "failed prerequisites: inspect"}}}`,
			want: []diag.Diagnostic{{Severity: e, Code: "printf", Message: "m/a: failed prerequisites: inspect"}},
		},
		{name: "json: unknown analyzer entry", in: `{"m/a": {"printf": {"oops": 1}}}`, wantErr: "want a list of findings"},
		{name: "json: a number", in: `{"m/a": {"printf": 3}}`, wantErr: "want a list of findings"},
		{name: "json: truncated", in: "{\n\t\"m/a\": {", wantErr: "object at byte 0"},
		{name: "other output", in: "hello\n", wantErr: "no line is go-vet output"},
	})
}

func TestSplitVetPosn(t *testing.T) {
	for _, c := range []struct {
		in        string
		path      string
		line, col int
	}{
		{"/p/a.go:3:4", "/p/a.go", 3, 4},
		{"/p/a.go:3", "/p/a.go", 3, 0},
		{"/p/a.go", "/p/a.go", 0, 0},
		{"-", "", 0, 0},
		{`C:\p\a.go:3:4`, `C:\p\a.go`, 3, 4},
		{"a.go:-3:4", "a.go:-3", 4, 0},
		{"a.go:1234567890:4", "a.go:1234567890", 4, 0},
	} {
		path, line, col := splitVetPosn(c.in)
		if path != c.path || line != c.line || col != c.col {
			t.Errorf("splitVetPosn(%q) = %q, %d, %d; want %q, %d, %d", c.in, path, line, col, c.path, c.line, c.col)
		}
	}
}

func TestDetectGoVet(t *testing.T) {
	runDetectCases(t, detectGoVet, []detectCase{
		{"vet type error", "# m\nvet: a.go:1:2: undefined: x\n", true},
		{"json", "{\n\t\"m/a\": {\n\t\t\"printf\": [\n", true},
		{"json error", "{\n\t\"m/a\": {\n\t\t\"printf\": {\n", true},
		{"context", "a/a.go:1:2: m\n1\tpackage a\n", true},
		{"go 1.26 finding", "a/a.go:1:2: self-assignment of x\n", true},
		{"finding after another package's compile error", "# m/b\nb/b.go:1:2: undefined: x\na/a.go:1:2: self-assignment of x\n", true},
		{"go build", "# m/a\na/a.go:1:2: undefined: x\n# m/b\nb/b.go:1:2: undefined: y\nb/b.go:2:2: undefined: z\n", false},
		{"go build load error", "a/a.go:3:8: no required module provides package x; to add it:\n\tgo get x\n", false},
		{"go build json", `{"ImportPath":"m","Action":"build-output","Output":"a/a.go:1:2: x\n"}` + "\n", false},
		{"gcc", "a.c:1:2: error: x\n", false},
		{"golangci-lint", `{"Issues":[]}`, false},
	})
}

func TestVetBlocks(t *testing.T) {
	var b vetBlocks
	if b.finding("a.go") || !b.headerless {
		t.Fatal("a finding before any header is outside a block")
	}
	b = vetBlocks{}
	b.startHeader()
	if !b.finding("a.go") || !b.finding("b.go") || b.headerless {
		t.Fatal("findings in the block's directory (here the current one) are inside it")
	}
	if b.finding("sub/c.go") || !b.headerless {
		t.Fatal("a finding in another directory is outside the block")
	}
}
