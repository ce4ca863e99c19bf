package lsp

import (
	"path/filepath"
	"sort"
	"time"
)

// This file is the Manager's background work: the janitor that stops idle
// servers and closes idle documents, and the workspace watcher's wiring.

// startWatcherLocked starts making the workspace's Watcher, once, in the
// background: walking a large workspace takes a while, and the first
// server's start-up need not wait for it. m.mu must be held.
func (m *Manager) startWatcherLocked() {
	if m.watchReady != nil {
		return
	}
	ready := make(chan struct{})
	m.watchReady = ready
	go func() {
		defer close(ready)
		var w *Watcher
		var err error
		if m.WatchPolicy != nil {
			w, err = NewWatcherWith(m.workspace, m.log, *m.WatchPolicy)
		} else {
			w, err = NewWatcher(m.workspace, m.log)
		}
		if err != nil {
			m.log.Warn("not watching the workspace for out-of-band changes", "err", err)
			return
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.closed {
			w.Close()
			return
		}
		m.watcher = w
	}()
}

// watch subscribes c to the workspace's Watcher once it is ready.
func (m *Manager) watch(c *Client) {
	m.mu.Lock()
	ready := m.watchReady
	m.mu.Unlock()
	<-ready
	m.mu.Lock()
	w, closed := m.watcher, m.closed
	m.mu.Unlock()
	if w != nil && !closed {
		c.Watch(w)
	}
}

// noteWatchInterest tells the workspace's Watcher, when it runs, what the
// servers care about: the directories of their open documents and of docs
// (about to be opened), and their registered FileSystemWatchers. A Watcher
// that cannot watch the whole tree watches those first (watchplan.go).
func (m *Manager) noteWatchInterest(docs []Doc) {
	m.mu.Lock()
	w := m.watcher
	m.mu.Unlock()
	if w == nil {
		return
	}
	in := watchInterest{open: make(map[string]bool)}
	for _, d := range docs {
		in.open[filepath.Dir(filepath.Clean(d.Path))] = true
	}
	for _, c := range m.readyClients() {
		for _, d := range c.openDocuments() {
			in.open[filepath.Dir(d.path)] = true
		}
		for _, fw := range c.regs.watchers() {
			in.globs = append(in.globs, boundWatcher{fw: fw, root: c.root})
		}
	}
	w.setInterest(in)
}

// WatcherStatus describes the workspace's Watcher (Watcher.Status); nil
// when it is not running (no server started yet, WatchFiles off, or it
// could not start).
func (m *Manager) WatcherStatus() *WatcherStatus {
	m.mu.Lock()
	w := m.watcher
	m.mu.Unlock()
	if w == nil {
		return nil
	}
	st := w.Status()
	return &st
}

// startJanitorLocked starts the janitor once, when the first server starts
// and there is something for it to do. m.mu must be held.
func (m *Manager) startJanitorLocked() {
	if m.janitor != nil {
		return
	}
	var every time.Duration
	for _, d := range []time.Duration{m.IdleServerTimeout, m.DocumentIdleTimeout} {
		if d > 0 && (every == 0 || d < every) {
			every = d
		}
	}
	if every == 0 {
		return
	}
	// A quarter of the shortest timeout: a server or document outstays its
	// timeout by at most that much.
	every = min(max(every/4, 10*time.Millisecond), time.Minute)
	m.janitor = make(chan struct{})
	go m.janitorLoop(m.janitor, every)
}

func (m *Manager) janitorLoop(stop <-chan struct{}, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			m.sweep(now)
		}
	}
}

// sweep stops servers idle for IdleServerTimeout and closes documents idle
// for DocumentIdleTimeout (or past MaxOpenDocuments) in the others. A server
// still starting or broken is left alone: a broken one stays, visible in
// status, until the next change starts it again (crash.go) or Restart.
func (m *Manager) sweep(now time.Time) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	var active []*entry
	for k, e := range m.entries {
		c := e.readyClient()
		if c == nil || c.Err() != nil {
			continue
		}
		if idle := now.Sub(e.lastUse); m.IdleServerTimeout > 0 && e.inflight == 0 && idle >= m.IdleServerTimeout {
			// Out of the map and counted in m.bg under one lock: Shutdown
			// either stops it itself or waits for this.
			delete(m.entries, k)
			m.log.Info("stopping idle server", "server", k.server, "root", k.root, "idle", idle.Round(time.Second))
			m.bg.Add(1)
			go func() {
				defer m.bg.Done()
				c.Shutdown(ShutdownGrace)
			}()
			continue
		}
		active = append(active, e)
	}
	m.mu.Unlock()
	for _, e := range active {
		m.closeStaleDocs(e, now)
	}
}

// closeStaleDocs sends didClose for e's documents that no check has named
// for DocumentIdleTimeout, then for the least recently named ones past
// MaxOpenDocuments. It gives up at once when a check is syncing documents
// through e (the next sweep tries again).
func (m *Manager) closeStaleDocs(e *entry, now time.Time) {
	if !e.docs.TryLock() {
		return
	}
	defer e.docs.Unlock()
	c := e.client
	open := c.openDocuments()
	type doc struct {
		path    string
		touched time.Time
	}
	docs := make([]doc, 0, len(open))
	m.mu.Lock()
	isOpen := make(map[string]bool, len(open))
	for _, d := range open {
		p := d.path
		isOpen[p] = true
		t, ok := e.touched[p]
		if !ok { // opened by something other than a check: its clock starts now
			t = now
			e.touched[p] = t
		}
		docs = append(docs, doc{p, t})
	}
	for p := range e.touched {
		if !isOpen[p] {
			delete(e.touched, p)
		}
	}
	sort.Slice(docs, func(i, j int) bool { // oldest first; ties by path, so the choice is stable
		if !docs[i].touched.Equal(docs[j].touched) {
			return docs[i].touched.Before(docs[j].touched)
		}
		return docs[i].path < docs[j].path
	})
	var stale []string
	for i, d := range docs {
		over := m.MaxOpenDocuments > 0 && len(docs)-i > m.MaxOpenDocuments
		old := m.DocumentIdleTimeout > 0 && now.Sub(d.touched) >= m.DocumentIdleTimeout
		if !over && !old {
			continue
		}
		stale = append(stale, d.path)
		delete(e.touched, d.path)
	}
	m.mu.Unlock()
	if len(stale) == 0 {
		return
	}
	n := len(c.closeDocs(stale))
	m.log.Info("closed idle documents", "server", e.server.Name, "root", e.root, "closed", n, "open", len(open)-n)
}
