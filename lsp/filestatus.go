package lsp

import (
	"encoding/json"
	"sync"
)

// This file follows clangd's per-file status, the extension notification
// textDocument/clangd.fileStatus {uri, state} that clangd sends when the
// client's initializationOptions set clangdFileStatus (clangd's
// "Protocol extensions" page). It serves a clangd run without --sync (a
// configured command): a file whose state is not "idle" is still being
// worked on on clangd's worker threads, which may publish its
// diagnostics again, for the same version, once a preamble is rebuilt,
// so a check waits for its files to go idle before its answer is
// complete. The catalogue's clangd runs with --sync, whose checks wait
// for the answer to a request instead (inorder.go).

// clangdFileStatus names clangd's file status notification.
const clangdFileStatus = "textDocument/clangd.fileStatus"

// fileStates is the last clangd.fileStatus state of each URI.
type fileStates struct {
	mu    sync.Mutex // guards state
	state map[string]string
}

// fileStatus records a clangd.fileStatus notification and wakes waiters.
func (c *Client) fileStatus(params json.RawMessage) {
	var p struct {
		URI   string `json:"uri"`
		State string `json:"state"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.URI == "" {
		c.log.Warn("dropping malformed clangd.fileStatus", "err", err)
		return
	}
	c.files.mu.Lock()
	if c.files.state == nil {
		c.files.state = make(map[string]string)
	}
	c.files.state[p.URI] = p.State
	c.files.mu.Unlock()
	c.store.poke()
}

// busy reports whether a file of want (URI → anything) is not idle by
// its last clangd.fileStatus (a server that sends none is never busy).
// A clangd handling its messages in order (config.SignalInOrder, --sync)
// is never busy either: its check waits for the answer to a request sent
// after the change instead, and its status stays at "parsing main file"
// after each build (clangd 14 resets it to idle only in its worker
// threads' loop, which --sync does without).
func (c *Client) busy(want map[string]int32) bool {
	if c.inOrder() {
		return false
	}
	c.files.mu.Lock()
	defer c.files.mu.Unlock()
	for uri := range want {
		if st, ok := c.files.state[uri]; ok && st != "idle" {
			return true
		}
	}
	return false
}
