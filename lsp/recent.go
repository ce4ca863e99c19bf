package lsp

import (
	"context"
	"os"
	"slices"
	"time"
)

// This file is the Watcher's short memory of what changed on disk, for the
// daemon's changed_files method: an agent's shell tool (Claude Code's Bash)
// says how long its command ran, and the hook asks which workspace files
// changed during that time.

// recentCap is how many raw changes the memory keeps; older ones are
// forgotten, and a question reaching back past them is answered as
// incomplete.
const recentCap = 4096

// recentChange is one change the Watcher recorded: the path (absolute,
// clean), what happened, and when the Watcher read it from the kernel.
type recentChange struct {
	path string
	typ  FileChangeType
	at   time.Time
}

// recentChanges is a ring of the last recentCap changes. It is guarded by
// Watcher.mu.
type recentChanges struct {
	start   time.Time // when recording began: nothing before it is known
	ring    []recentChange
	next    int       // index the next change goes to
	dropped time.Time // when the newest forgotten change was recorded; zero if none
}

func newRecentChanges(start time.Time) recentChanges {
	return recentChanges{start: start}
}

// add remembers one change, forgetting the oldest when the ring is full.
func (r *recentChanges) add(path string, t FileChangeType, at time.Time) {
	c := recentChange{path: path, typ: t, at: at}
	if len(r.ring) < recentCap {
		r.ring = append(r.ring, c)
		return
	}
	r.dropped = r.ring[r.next].at
	r.ring[r.next] = c
	r.next = (r.next + 1) % recentCap
}

// since returns the paths created or changed at or after t, each once, in
// the order first seen; complete is false when changes at or after t may
// have been forgotten or happened before recording began.
func (r *recentChanges) since(t time.Time) (paths []string, complete bool) {
	complete = !r.start.After(t) && (r.dropped.IsZero() || r.dropped.Before(t))
	seen := make(map[string]bool)
	for i := range r.ring {
		c := r.ring[(r.next+i)%len(r.ring)]
		if c.at.Before(t) || c.typ == FileDeleted || seen[c.path] {
			continue
		}
		seen[c.path] = true
		paths = append(paths, c.path)
	}
	return paths, complete
}

// ChangedSince returns the files (absolute, clean, sorted) the Watcher saw
// created or changed at or after t that are regular files now: a file
// deleted or renamed away since, and directories, are left out. It first
// waits, as Flush does, until every change made before the call has been
// read. complete is false when the Watcher cannot vouch for the whole
// window: it started after t, some directories are not watched, the kernel
// lost events, or the window reaches past its memory of the last 4096
// changes. The error is ctx's, or the Watcher's after Close.
func (w *Watcher) ChangedSince(ctx context.Context, t time.Time) (paths []string, complete bool, err error) {
	if err := w.handOver(ctx); err != nil {
		return nil, false, err
	}
	w.mu.Lock()
	seen, complete := w.recent.since(t)
	complete = complete && !w.capped && !w.lost
	w.mu.Unlock()
	for _, p := range seen {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths, complete, nil
}

// ChangedSince is Watcher.ChangedSince for the workspace's Watcher,
// starting it when no server has yet (a Watcher started now knows nothing
// of the past, so that answer is incomplete). Without WatchFiles, or when
// the Watcher could not be made, it returns no paths and complete false.
// After Shutdown it returns ErrClosed.
func (m *Manager) ChangedSince(ctx context.Context, t time.Time) (paths []string, complete bool, err error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, false, ErrClosed
	}
	if !m.WatchFiles {
		m.mu.Unlock()
		return nil, false, nil
	}
	m.startWatcherLocked()
	ready := m.watchReady
	m.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	m.mu.Lock()
	w, closed := m.watcher, m.closed
	m.mu.Unlock()
	if closed {
		return nil, false, ErrClosed
	}
	if w == nil {
		return nil, false, nil
	}
	return w.ChangedSince(ctx, t)
}
