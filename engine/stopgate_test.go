package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestBlindSpot: the texts before a session show the servers the state
// before unless the session deleted a file or changed a C header; a
// header put back as it was is no blind spot.
func TestBlindSpot(t *testing.T) {
	dir := testdir.New(t)
	testdir.WriteTree(t, dir, map[string]string{
		"greet.h": "void greet(const char *name, int n);\n",
		"same.h":  "void same(void);\n",
		"main.c":  "int main(void) { return 0; }\n",
	})
	header, same, code := filepath.Join(dir, "greet.h"), filepath.Join(dir, "same.h"), filepath.Join(dir, "main.c")
	gone := filepath.Join(dir, "gone.py")
	befores := map[string][]byte{header: []byte("void greet(const char *name);\n"), same: []byte("void same(void);\n"), code: []byte("int main(void) { return 1; }\n")}
	change := func(paths ...string) []wire.Change {
		var out []wire.Change
		for _, p := range paths {
			out = append(out, wire.Change{Path: p})
		}
		return out
	}
	tests := []struct {
		name    string
		changes []wire.Change
		want    string // a word the reason holds; "" for none
	}{
		{"a source file changed", change(code), ""},
		{"a header changed", change(code, header), "greet.h"},
		{"a header as it was", change(same), ""},
		{"a file deleted", change(code, gone), "gone.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := blindSpot(tt.changes, befores)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("blindSpot = %q, want one naming %q", got, tt.want)
			}
		})
	}
}
