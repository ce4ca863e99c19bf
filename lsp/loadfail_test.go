package lsp

import (
	"log/slog"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
)

// TestNoteMessage: only an Error-type window/showMessage beginning with one
// of the server's LoadErrorMessages is a load failure; its message is the
// text after the first line. The texts are gopls v0.23.0's (server/general.go
// addFolders, GOTOOLCHAIN=auto and a go.mod naming go1.99.0, no network).
func TestNoteMessage(t *testing.T) {
	const gopls = "Error loading workspace folders (expected 1, got 0)\n" +
		"failed to load view for file:///tmp/tc: err: exit status 1: stderr: go: downloading go1.99.0 (linux/amd64)\n" +
		"go: download go1.99.0 for linux/amd64: toolchain not available\n\n"
	tests := []struct {
		name string
		typ  int
		text string
		want string
	}{
		{"gopls folder load failure", 1, gopls,
			"failed to load view for file:///tmp/tc: err: exit status 1: stderr: go: downloading go1.99.0 (linux/amd64); go: download go1.99.0 for linux/amd64: toolchain not available"},
		{"a warning is not one", 2, gopls, ""},
		{"another error is not one", 1, "failed to compute hover: no package", ""},
		{"the first line alone", 1, "Error loading workspace folders (expected 2, got 1)", "Error loading workspace folders (expected 2, got 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Client{server: config.Server{LoadErrorMessages: []string{"Error loading workspace folders"}}, log: slog.New(slog.DiscardHandler)}
			c.noteMessage(tt.typ, tt.text)
			if got := c.loadFailure(); got != tt.want {
				t.Errorf("loadFailure() = %q, want %q", got, tt.want)
			}
		})
	}
}
