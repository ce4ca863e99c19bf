package lsp

import (
	"encoding/json"
	"sync"
)

// This file follows clangd's per-file status, the extension notification
// textDocument/clangd.fileStatus {uri, state} that clangd sends when the
// client's initializationOptions set clangdFileStatus (clangd's
// "Protocol extensions" page). A file whose state is not "idle" is still
// being worked on: clangd may publish its diagnostics first from a stale
// preamble (the headers as they were) and again once the preamble is
// rebuilt, for the same version, so a check waits for its files to go
// idle before its answer is complete.

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
func (c *Client) busy(want map[string]int32) bool {
	c.files.mu.Lock()
	defer c.files.mu.Unlock()
	for uri := range want {
		if st, ok := c.files.state[uri]; ok && st != "idle" {
			return true
		}
	}
	return false
}
