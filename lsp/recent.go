package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"
)

// This file is the Watcher's short memory of what changed on disk, for the
// daemon's changed_files method: an agent's shell tool (Claude Code's Bash)
// changes files no tool input names, and the hook asks which workspace
// files changed since the session's previous hook or since the command
// started. When the Watcher cannot vouch for the whole span it says why,
// and the daemon falls back to modification times.

// recentCap is how many raw changes the memory keeps; older ones are
// forgotten, and a question reaching back past them is answered as
// incomplete.
const recentCap = 4096

// Why a span is not covered (ChangedSince's uncovered).
const (
	UncoveredStarted   = "the file watcher started after the span began"
	UncoveredForgotten = "the file watcher forgot changes of the span (more than 4096 since)"
	UncoveredLost      = "the kernel dropped file events during the span"
	UncoveredCapped    = "some directories are scanned, not watched (the watch budget or the backend's limit)"
	UncoveredOff       = "the daemon does not watch files"
	UncoveredNoWatcher = "the file watcher could not start"
)

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
	start   time.Time // when recording began, every directory watched: nothing before it is known
	ring    []recentChange
	next    int       // index the next change goes to
	dropped time.Time // when the newest forgotten change was recorded; zero if none
	lost    time.Time // when the kernel last reported lost events; zero if never
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

// lose records that the kernel reported lost events at (when the report
// was read: every lost event happened before it).
func (r *recentChanges) lose(at time.Time) { r.lost = at }

// since returns the paths created or changed at or after t, each once, in
// the order first seen; uncovered is "" when every change at or after t
// is known, else why not: recording began after t, changes at or after t
// were forgotten, or the kernel lost events at or after t.
func (r *recentChanges) since(t time.Time) (paths []string, uncovered string) {
	switch {
	case r.start.After(t):
		uncovered = UncoveredStarted
	case !r.dropped.IsZero() && !r.dropped.Before(t):
		uncovered = UncoveredForgotten
	case !r.lost.IsZero() && !r.lost.Before(t):
		uncovered = UncoveredLost
	}
	seen := make(map[string]bool)
	for i := range r.ring {
		c := r.ring[(r.next+i)%len(r.ring)]
		if c.at.Before(t) || c.typ == FileDeleted || seen[c.path] {
			continue
		}
		seen[c.path] = true
		paths = append(paths, c.path)
	}
	return paths, uncovered
}

// ChangedSince returns the files (absolute, clean, sorted) the Watcher saw
// created or changed at or after t that are regular files now: a file
// deleted or renamed away since, and directories, are left out. It first
// waits, as Flush does, until every change made before the call has been
// read. uncovered is "" when the Watcher vouches for the whole span, else
// why it cannot (one of the Uncovered… texts): it started after t, some
// directories are not watched, the kernel lost events since t, or the span
// reaches past its memory of the last 4096 changes. The error is ctx's, or
// the Watcher's after Close.
func (w *Watcher) ChangedSince(ctx context.Context, t time.Time) (paths []string, uncovered string, err error) {
	if err := w.handOver(ctx); err != nil {
		return nil, "", err
	}
	w.mu.Lock()
	seen, uncovered := w.recent.since(t)
	if uncovered == "" && w.capped {
		uncovered = UncoveredCapped
	}
	w.mu.Unlock()
	for _, p := range seen {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths, uncovered, nil
}

// DeletedSince returns the files (absolute, clean, sorted) the Watcher saw
// deleted or renamed away at or after t that do not exist now: what a
// shell command's `rm`, `mv` or `git mv` took away, which may have broken
// the files that used them. It waits, as ChangedSince does, for the
// changes made before the call. A deletion older than the Watcher's memory
// is not known; ChangedSince's uncovered says when that may be.
func (w *Watcher) DeletedSince(ctx context.Context, t time.Time) ([]string, error) {
	if err := w.handOver(ctx); err != nil {
		return nil, err
	}
	w.mu.Lock()
	var seen []string
	for i := range w.recent.ring {
		c := w.recent.ring[(w.recent.next+i)%len(w.recent.ring)]
		if c.typ == FileDeleted && !c.at.Before(t) && !slices.Contains(seen, c.path) {
			seen = append(seen, c.path)
		}
	}
	w.mu.Unlock()
	var gone []string
	for _, p := range seen {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	return gone, nil
}

// LastChanged returns, for each of paths (absolute, clean) the Watcher saw
// created, changed, deleted or renamed within its memory, when it last
// did (when it read the event); a path it did not see is not in the map.
// It does not wait for changes not yet read (ChangedSince and
// DeletedSince do): asked right after them, it knows every change made
// before they were called. A path the ring forgot is not known either,
// which ChangedSince's uncovered tells.
func (w *Watcher) LastChanged(paths []string) map[string]time.Time {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	out := make(map[string]time.Time)
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.recent.ring {
		if want[c.path] && c.at.After(out[c.path]) {
			out[c.path] = c.at
		}
	}
	return out
}

// SeenPaths returns every path (absolute, clean) the workspace's Watcher
// remembers a change of, each once, sorted; none when it is not running.
// A directory renamed away or removed is one event of its own: the files
// below it the Watcher saw changed are among what it took with it.
func (m *Manager) SeenPaths() []string {
	m.mu.Lock()
	w := m.watcher
	m.mu.Unlock()
	if w == nil {
		return nil
	}
	w.mu.Lock()
	out := make([]string, 0, len(w.recent.ring))
	for _, c := range w.recent.ring {
		out = append(out, c.path)
	}
	w.mu.Unlock()
	slices.Sort(out)
	return slices.Compact(out)
}

// ReadChanges returns once the workspace's Watcher has read every change
// made on disk before the call (the barrier ChangedSince waits for),
// reporting whether it did: false, at once, when no Watcher is running
// and ready (none is started for it), or when ctx ends or the Watcher
// closes first. A change read by then was made before the call; one
// LastChanged later dates after it was made after.
func (m *Manager) ReadChanges(ctx context.Context) bool {
	m.mu.Lock()
	w, ready := m.watcher, m.watchReady
	m.mu.Unlock()
	if w == nil || ready == nil {
		return false
	}
	select {
	case <-ready:
	default:
		return false
	}
	return w.handOver(ctx) == nil
}

// LastChanged is Watcher.LastChanged for the workspace's Watcher; nil when
// it is not running.
func (m *Manager) LastChanged(paths []string) map[string]time.Time {
	m.mu.Lock()
	w := m.watcher
	m.mu.Unlock()
	if w == nil {
		return nil
	}
	return w.LastChanged(paths)
}

// DeletedSince is Watcher.DeletedSince for the workspace's Watcher, none
// when it is not running.
func (m *Manager) DeletedSince(ctx context.Context, t time.Time) ([]string, error) {
	m.mu.Lock()
	w := m.watcher
	m.mu.Unlock()
	if w == nil {
		return nil, nil
	}
	return w.DeletedSince(ctx, t)
}

// ChangedSince is Watcher.ChangedSince for the workspace's Watcher,
// starting it when no server has yet (a Watcher started now knows nothing
// of the past, so that answer is uncovered). Without WatchFiles, or when
// the Watcher could not be made, it returns no paths and says so in
// uncovered. After Shutdown it returns ErrClosed.
func (m *Manager) ChangedSince(ctx context.Context, t time.Time) (paths []string, uncovered string, err error) {
	w, uncovered, err := m.readyWatcher(ctx)
	if w == nil {
		return nil, uncovered, err
	}
	return w.ChangedSince(ctx, t)
}

// readyWatcher starts the workspace's Watcher when no server has, and
// waits, within ctx, until it is ready. Without one it says why: the
// manager is closed (ErrClosed) or ctx ended (an error), or, as an
// Uncovered… text, WatchFiles is off or the Watcher could not start.
func (m *Manager) readyWatcher(ctx context.Context) (w *Watcher, uncovered string, err error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, "", ErrClosed
	}
	if !m.WatchFiles {
		m.mu.Unlock()
		return nil, UncoveredOff, nil
	}
	m.startWatcherLocked()
	ready := m.watchReady
	m.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		return nil, "", fmt.Errorf("waiting for the file watcher: %w", ctx.Err())
	}
	m.mu.Lock()
	w, closed := m.watcher, m.closed
	m.mu.Unlock()
	if closed {
		return nil, "", ErrClosed
	}
	if w == nil {
		return nil, UncoveredNoWatcher, nil
	}
	return w, "", nil
}

// StartWatching starts the workspace's Watcher, when WatchFiles is set and
// no server has started it yet, without waiting for it: a later
// ChangedSince then covers the span from when it is ready. A daemon calls
// it when an agent session's hook is answered, so that the session's next
// shell hook finds the watcher running.
func (m *Manager) StartWatching() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.WatchFiles && !m.closed {
		m.startWatcherLocked()
	}
}
