package main

import "testing"

// TestServesSocket: the command lines stop takes for a daemon of the
// socket, in both spellings of the flag, and those it does not.
func TestServesSocket(t *testing.T) {
	const sock = "/run/user/1/lsp-hook/ab.sock"
	for _, tc := range []struct {
		argv []string
		want bool
	}{
		{[]string{"lsp-hook", "serve", "--root", "/w", "--socket", sock, "--prewarm"}, true},
		{[]string{"/usr/bin/lsp-hook", "serve", "--socket=" + sock}, true},
		{[]string{"lsp-hook", "serve", "-socket", sock}, true},
		{[]string{"lsp-hook", "serve", "--socket", sock + "x"}, false},
		{[]string{"lsp-hook", "serve", "--socket"}, false},
		{[]string{"lsp-hook", "stop", "--socket", sock}, false},
		{[]string{"lsp-hook", "serve", "--root", sock}, false},
		{[]string{"lsp-hook"}, false},
	} {
		if got := servesSocket(tc.argv, sock); got != tc.want {
			t.Errorf("servesSocket(%q) = %v, want %v", tc.argv, got, tc.want)
		}
	}
}
