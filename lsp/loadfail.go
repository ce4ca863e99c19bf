package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// loadFailure is the server's message that it could not load the
// workspace folder (config.Server.LoadErrorMessages) and when it came; the
// zero value while none came.
type loadFailure struct {
	message string
	at      time.Time
}

// noteMessage records a window/showMessage of type typ (LSP 3.17
// "MessageType": 1 Error) whose text begins with one of the server's
// LoadErrorMessages as its load failure: the text's later lines (the
// first only repeats the pattern), joined with "; ".
func (c *Client) noteMessage(typ int, text string) {
	if typ != 1 || !slices.ContainsFunc(c.server.LoadErrorMessages, func(p string) bool { return strings.HasPrefix(text, p) }) {
		return
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) > 1 {
		lines = lines[1:]
	}
	msg := strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.TrimSpace(l) == "" }), "; ")
	c.loadMu.Lock()
	c.loadFailed = loadFailure{message: msg, at: time.Now()}
	c.loadMu.Unlock()
	c.log.Warn("server cannot load the workspace", "message", msg)
}

// loadFailure returns the server's load failure message, "" when none.
func (c *Client) loadFailure() string {
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	return c.loadFailed.message
}

// reloadDue reports whether the server said it could not load the
// workspace and one of its root marker files or the files it serves by
// name (gopls: go.work, go.mod) in the root changed since: only a new
// server loads it again.
func (c *Client) reloadDue() bool {
	c.loadMu.Lock()
	at := c.loadFailed.at
	c.loadMu.Unlock()
	if at.IsZero() {
		return false
	}
	for _, m := range slices.Concat(c.server.RootMarkers, c.server.FileNames) {
		if fi, err := os.Stat(filepath.Join(c.root, config.MarkerFile(m))); err == nil && fi.ModTime().After(at) {
			return true
		}
	}
	return false
}
