package lsp

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// TestUnchecked: a diagnostic that says the file was not checked leaves
// the file's diagnostics and becomes what the server said of it (two
// lines, the path relative); the others stay.
func TestUnchecked(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ws")
	it, a := filepath.Join(root, "it_test.go"), filepath.Join(root, "a.go")
	gopls := config.Default().LSP.Servers["gopls"]
	c := &Client{server: gopls, root: root}
	files := map[string][]diag.Diagnostic{
		it: {
			{Message: "No packages found for open file " + it + ".\nThis file may be excluded due to its build tags; try adding \"-tags=<build tag>\" to your gopls \"buildFlags\" configuration\nSee the documentation for more information on working with build tags:\nhttps://github.com/golang/tools/blob/master/gopls/doc/settings.md#buildflags."},
			{Message: "No packages found for open file " + it + "."}, // a second one: the first is kept
		},
		a: {{Message: "undefined: x"}, {Message: "No active builds contain " + a + ": consider opening a new workspace folder containing it"}},
	}
	got, _ := c.unchecked(files)
	want := map[string]string{
		it: "No packages found for open file it_test.go. This file may be excluded due to its build tags; try adding \"-tags=<build tag>\" to your gopls \"buildFlags\" configuration",
		a:  "No active builds contain a.go: consider opening a new workspace folder containing it",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unchecked = %q\nwant %q", got, want)
	}
	if len(files[it]) != 0 || len(files[a]) != 1 || files[a][0].Message != "undefined: x" {
		t.Errorf("files left = %+v", files)
	}
	c.server.UncheckedMessages = nil
	if got, _ := c.unchecked(map[string][]diag.Diagnostic{it: {{Message: "No packages found for open file x."}}}); got != nil {
		t.Errorf("a server without UncheckedMessages: %q", got)
	}
}

// TestShortMessage: one line, cut on a word boundary, or on a rune
// boundary when there is none.
func TestShortMessage(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"two\nlines  and\tspaces", 40, "two lines and spaces"},
		{"cut here please", 10, "cut here…"},
		{"ééééé", 5, "éé…"},
		{strings.Repeat("x", 12), 10, strings.Repeat("x", 10) + "…"},
	} {
		if got := shortMessage(tc.msg, tc.max); got != tc.want {
			t.Errorf("shortMessage(%q, %d) = %q, want %q", tc.msg, tc.max, got, tc.want)
		}
	}
}
