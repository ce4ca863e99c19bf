package lsp

import (
	"slices"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestStderrLines: what status shows of a server's stderr is the last few
// lines, as safe text: NUL padding and escape characters left out, invalid
// UTF-8 replaced, long lines cut at a character boundary.
func TestStderrLines(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	tests := []struct {
		name, stderr string
		want         []string
	}{
		{"last lines", "one\ntwo\n\nthree\nfour\n", []string{"two", "three", "four"}},
		{"NUL padding", "started\n" + strings.Repeat("\x00", 4096) + "fatal: boom\n" + strings.Repeat("\x00", 100) + "\n",
			[]string{"started", "fatal: boom"}},
		{"escape sequences", "\x1b[31merror\x1b[0m: red\r\n", []string{"[31merror[0m: red"}},
		{"invalid UTF-8", "bad \xff byte\n", []string{"bad \uFFFD byte"}},
		{"long line", long + "\n", []string{strings.Repeat("é", 100) + "…"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(config.Server{Name: "x"}, t.TempDir(), testLogger(t))
			c.stderr.Write([]byte(tt.stderr))
			if got := c.StderrLines(3); !slices.Equal(got, tt.want) {
				t.Errorf("StderrLines(3) = %q, want %q", got, tt.want)
			}
		})
	}
}
