package lsp

import (
	"go/build/constraint"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoBuildConstraint: the constraint lines of a Go file's header, as
// the go command reads them (`go help buildconstraint`): before the
// package clause, not inside /* */ comments, either syntax.
func TestGoBuildConstraint(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"none", "package main\n", ""},
		{"go:build", "//go:build ignore\n\npackage main\n", "//go:build ignore"},
		{"after a licence header", "// Copyright 2026.\n// Licence.\n\n//go:build linux && amd64\n\npackage p\n", "//go:build linux && amd64"},
		{"both syntaxes", "//go:build windows\n// +build windows\n\npackage p\n", "//go:build windows\n// +build windows"},
		{"after the package clause", "package p\n\n//go:build ignore\n", ""},
		{"inside a block comment", "/*\n//go:build ignore\n*/\npackage p\n", ""},
		{"after a one-line block comment", "/* doc */\n//go:build tools\npackage p\n", "//go:build tools"},
		{"code after a block comment's end", "/*\n*/ package p\n//go:build ignore\n", ""},
		{"crlf", "//go:build ignore\r\n\r\npackage main\r\n", "//go:build ignore"},
		{"not a constraint", "//go:generate stringer\n// go:build ignore\npackage p\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := GoBuildConstraint([]byte(tt.text)); got != tt.want {
			t.Errorf("%s: GoBuildConstraint(%q) = %q, want %q", tt.name, tt.text, got, tt.want)
		}
	}
}

// FuzzGoBuildConstraint: any text gives an answer whose every line is a
// constraint line (go/build/constraint's IsGoBuild or IsPlusBuild) of the
// text, in its order.
func FuzzGoBuildConstraint(f *testing.F) {
	f.Add([]byte("//go:build ignore\n\npackage main\n"))
	f.Add([]byte("/*\n//go:build x\n*/ //go:build y\npackage p"))
	f.Add([]byte("// +build linux\n//go:build linux\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		got := GoBuildConstraint(text)
		if got == "" {
			return
		}
		rest := string(text)
		for line := range strings.SplitSeq(got, "\n") {
			if !constraint.IsGoBuild(line) && !constraint.IsPlusBuild(line) {
				t.Fatalf("GoBuildConstraint(%q) gave %q, not a constraint line", text, line)
			}
			i := strings.Index(rest, line)
			if i < 0 {
				t.Fatalf("GoBuildConstraint(%q) gave %q, not in the text after the lines before it", text, line)
			}
			rest = rest[i+len(line):]
		}
	})
}

// TestStaleIgnoredText: a file gopls may leave out of its build only from
// a stale view has no build constraint and no cgo import.
func TestStaleIgnoredText(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"plain", "package main\n\nfunc f() {}\n", true},
		{"a constraint", "//go:build ignore\n\npackage main\n", false},
		{"cgo alone", "package p\n\n// #include <stdio.h>\nimport \"C\"\n", false},
		{"cgo in a block", "package p\n\nimport (\n\t\"fmt\"\n\t\"C\"\n)\n", false},
		{"a string \"C\" in code", "package p\n\nvar s = \"C\" + x\n", true},
	}
	for _, tt := range tests {
		if got := staleIgnoredText([]byte(tt.text)); got != tt.want {
			t.Errorf("%s: staleIgnoredText(%q) = %v, want %v", tt.name, tt.text, got, tt.want)
		}
	}
}

// TestRestartForStale: a server is restarted once for each text of a file
// it left out of its build from a stale view, again for a new text.
func TestRestartForStale(t *testing.T) {
	m := &Manager{}
	c := &Client{docs: map[string]*document{}}
	p := filepath.Join(t.TempDir(), "extra.go")
	send := func(text string) {
		c.docs[pathToURI(p)] = &document{path: p, sent: []sentVersion{{version: 1, hash: textHash([]byte(text))}}}
	}
	steps := []struct {
		text string
		want bool
	}{
		{"package main\n", true},
		{"package main\n", false}, // still left out after the restart: not restarted again
		{"package main\n\nfunc f() {}\n", true},
		{"package main\n\nfunc f() {}\n", false},
	}
	for i, st := range steps {
		send(st.text)
		if got := m.restartForStale(c, []string{p}); got != st.want {
			t.Errorf("step %d (%q): restartForStale = %v, want %v", i, st.text, got, st.want)
		}
	}
}
