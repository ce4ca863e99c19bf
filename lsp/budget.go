package lsp

import (
	"time"
)

// This file is what the memory budget across daemons (sidecar, package
// internal/membudget) asks of the Manager: which servers run and when
// each was last used, and to stop one that is still idle.

// RunningServer is a running server as the memory budget sees it: its
// name and root, its process ID, when a check last began or ended on it,
// and whether a check is using it now.
type RunningServer struct {
	Name    string
	Root    string
	Pid     int
	LastUse time.Time
	Busy    bool
}

// Running lists the servers that are up (started, not crashed), in no
// particular order. A server still starting, broken or unavailable is not
// listed.
func (m *Manager) Running() []RunningServer {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []RunningServer
	for k, e := range m.entries {
		c := e.readyClient()
		if c == nil || c.Err() != nil || c.Pid() == 0 {
			continue
		}
		out = append(out, RunningServer{Name: k.server, Root: k.root, Pid: c.Pid(), LastUse: e.lastUse, Busy: e.inflight > 0})
	}
	return out
}

// StopIdle stops the server (name, root) — shutdown, exit, then its
// process group killed after ShutdownGrace, in the background — if it is
// still up, no check is using it, and none began or ended since lastUse
// (what Running said when the choice was made). The next change that
// needs it starts it again. It reports whether it stopped the server.
func (m *Manager) StopIdle(name, root string, lastUse time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := entryKey{name, root}
	e, ok := m.entries[k]
	if m.closed || !ok || e.inflight > 0 || !e.lastUse.Equal(lastUse) {
		return false
	}
	c := e.readyClient()
	if c == nil || c.Err() != nil {
		return false
	}
	// Out of the map and counted in m.bg under one lock, as sweep does:
	// Shutdown either stops it itself or waits for this.
	delete(m.entries, k)
	m.bg.Add(1)
	go func() {
		defer m.bg.Done()
		c.Shutdown(ShutdownGrace)
	}()
	return true
}
