package lsp

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// FileChangeType is what happened to a file on disk, numbered as LSP 3.17
// "FileChangeType": 1 created, 2 changed, 3 deleted.
type FileChangeType int

// File change types (LSP 3.17 "FileChangeType").
const (
	FileCreated FileChangeType = 1
	FileChanged FileChangeType = 2
	FileDeleted FileChangeType = 3
)

// watchKind returns the WatchKind bit a watcher must have to want t.
func (t FileChangeType) watchKind() int {
	switch t {
	case FileCreated:
		return WatchCreate
	case FileChanged:
		return WatchChange
	case FileDeleted:
		return WatchDelete
	}
	return 0
}

// FileEvent is one change on disk: Path is absolute and cleaned; it names a
// file or a directory.
type FileEvent struct {
	Path string
	Type FileChangeType
}

// skipDirs are the directory names a Watcher never descends into: version
// control, dependency trees, build output, caches, lsp-hook's own tools.
// Their changes are not the servers' business, and they can hold more
// directories than inotify allows watches.
var skipDirs = []string{".git", "node_modules", "vendor", "target", "dist", "build", ".venv", "__pycache__", ".tools"}

// Watcher defaults.
const (
	// DefaultDebounce is how long a Watcher waits after the last raw event
	// before delivering a batch: an editor's save, a git checkout or a
	// formatter run arrives as one batch.
	DefaultDebounce = 150 * time.Millisecond
	// maxBatchDelay bounds the debounce under a steady stream of events.
	maxBatchDelay = time.Second
	// DefaultMaxDirs caps how many directories one Watcher watches (one
	// inotify watch each).
	DefaultMaxDirs = 10000
)

// Watcher watches a workspace recursively with fsnotify (inotify on Linux)
// and delivers debounced, coalesced batches of FileEvents to subscribers
// (Subscribe); Flush and Subscription.Sync skip the debounce for changes
// already made. It skips version control, dependency and build directories
// (skipDirs: .git, node_modules, vendor, target, dist, build, .venv,
// __pycache__, .tools), adds directories as they appear (reporting the
// files already in them as created), and stops adding past DefaultMaxDirs
// or the system's inotify limit with a log line.
//
// One Watcher serves every Client of a workspace: a Manager calls
// Client.Watch for each, which subscribes the client's FilesChanged (it
// keeps the events the server registered for, LSP 3.17
// "DidChangeWatchedFiles Notification") and makes every Update sync first.
//
// Within one batch a path appears once; its changes coalesce as VS Code's
// do: created+changed is created, created+deleted is nothing, deleted+created
// is changed, changed+deleted is deleted.
type Watcher struct {
	root     string
	log      *slog.Logger
	fsw      *fsnotify.Watcher
	debounce time.Duration
	maxDirs  int
	barrier  string      // private directory holding the Flush marker files
	markers  [2]*os.File // written in turn by handOver
	done     chan struct{}
	loopDone chan struct{}

	markMu sync.Mutex // serializes handOver's ticket and marker write, so tickets and events stay in step
	issued uint64     // handOver tickets handed out; guarded by markMu

	mu       sync.Mutex // guards the fields below
	dirs     map[string]bool
	capped   bool // some directories are not watched (cap or inotify limit)
	lost     bool // the kernel reported an error (queue overflow): events were lost
	pending  map[string]FileChangeType
	order    []string // pending paths in first-seen order
	subs     map[int]*subscriber
	nextSub  int
	barriers map[uint64]chan struct{} // handOver ticket → closed when its marker is read
	seen     uint64                   // marker events read so far
	recent   recentChanges            // the last changes recorded, for ChangedSince
	closed   bool
}

// Complete reports whether every change under the root is seen: false once
// some directories went unwatched (cap or inotify limit) or the kernel
// reported lost events. Clients then also compare open documents with the
// disk on each check.
func (w *Watcher) Complete() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.capped && !w.lost
}

// NewWatcher starts watching root (absolute) and every directory under it
// that is not skipped. It returns once the initial directories are watched:
// any change after that is seen. Close stops it.
func NewWatcher(root string, log *slog.Logger) (*Watcher, error) {
	return newWatcher(root, log, DefaultDebounce, DefaultMaxDirs)
}

func newWatcher(root string, log *slog.Logger, debounce time.Duration, maxDirs int) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", root, err)
	}
	w := &Watcher{
		root: filepath.Clean(root), log: log.With("watch_root", root), fsw: fsw,
		debounce: debounce, maxDirs: maxDirs,
		done: make(chan struct{}), loopDone: make(chan struct{}),
		dirs: make(map[string]bool), pending: make(map[string]FileChangeType),
		subs: make(map[int]*subscriber), barriers: make(map[uint64]chan struct{}),
	}
	if err := w.makeMarkers(); err != nil {
		w.closeMarkers()
		fsw.Close()
		return nil, fmt.Errorf("watching %s: %w", root, err)
	}
	begin := time.Now()
	w.addTree(w.root, false)
	w.recent = newRecentChanges(time.Now()) // a change in a directory not yet added was not seen
	w.log.Info("watching workspace", "dirs", len(w.dirs), "elapsed_ms", time.Since(begin).Milliseconds())
	go w.loop()
	return w, nil
}

// Close stops watching, ends every subscription and removes the barrier
// directory. Batches not yet delivered are dropped.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	subs := w.subs
	w.subs = map[int]*subscriber{}
	w.mu.Unlock()
	close(w.done)
	err := w.fsw.Close()
	<-w.loopDone
	for _, s := range subs {
		s.close()
	}
	return errors.Join(err, w.closeMarkers())
}

// WatchedDirs returns how many directories are being watched.
func (w *Watcher) WatchedDirs() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.dirs)
}

// loop reads raw events, coalesces them into pending, and delivers pending
// after the debounce (or at once for a Flush barrier).
func (w *Watcher) loop() {
	defer close(w.loopDone)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var first time.Time // when the oldest pending event arrived
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if w.isBarrier(ev) {
				continue
			}
			if !w.handle(ev) {
				continue
			}
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			wait := w.debounce
			if limit := first.Add(maxBatchDelay).Sub(now); limit < wait {
				wait = max(limit, 0)
			}
			timer.Reset(wait)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.log.Warn("watching workspace", "err", err) // e.g. inotify queue overflow: events were lost
			w.mu.Lock()
			w.lost = true
			w.recent.lose(time.Now())
			w.mu.Unlock()
		case <-timer.C:
			w.deliver()
			first = time.Time{}
		case <-w.done:
			return
		}
	}
}

// handle records one raw event; it reports whether anything was recorded.
func (w *Watcher) handle(ev fsnotify.Event) bool {
	path := filepath.Clean(ev.Name)
	if w.skipped(path) {
		return false
	}
	switch {
	case ev.Has(fsnotify.Create):
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			w.record(path, FileCreated)
			w.addTree(path, true)
			return true
		}
		w.record(path, FileCreated)
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		w.forgetTree(path)
		w.record(path, FileDeleted)
	case ev.Has(fsnotify.Write):
		w.record(path, FileChanged)
	default: // Chmod: attributes only
		return false
	}
	return true
}

// skipped reports whether path is a skipped directory, lies inside one, or
// lies outside the root. A file that merely has a skipped name (a "build"
// script) is not skipped.
func (w *Watcher) skipped(path string) bool {
	rel, ok := relativeTo(path, w.root)
	if !ok {
		return true
	}
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		if !isSkipDir(part) {
			continue
		}
		if i < len(parts)-1 {
			return true
		}
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

func isSkipDir(name string) bool {
	for _, s := range skipDirs {
		if name == s {
			return true
		}
	}
	return false
}

// record coalesces a change of path into the pending batch.
func (w *Watcher) record(path string, t FileChangeType) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.recent.add(path, t, time.Now())
	w.recordLocked(path, t)
}

func (w *Watcher) recordLocked(path string, t FileChangeType) {
	prev, ok := w.pending[path]
	if !ok {
		w.pending[path] = t
		w.order = append(w.order, path)
		return
	}
	switch {
	case prev == FileCreated && t == FileDeleted:
		delete(w.pending, path) // never seen by anyone: nothing happened
	case prev == FileCreated:
		// still created
	case prev == FileDeleted && t == FileCreated:
		w.pending[path] = FileChanged
	default:
		w.pending[path] = t
	}
}

// addTree watches dir and every directory under it that is not skipped, up
// to the cap. With report set (a directory that appeared after start) the
// files and directories found are recorded as created: they may have been
// written before the watch existed.
func (w *Watcher) addTree(dir string, report bool) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // vanished or unreadable: nothing to watch
		}
		if !d.IsDir() {
			if report && path != dir {
				w.record(path, FileCreated)
			}
			return nil
		}
		if path != w.root && isSkipDir(d.Name()) {
			return filepath.SkipDir
		}
		if path == w.barrier {
			return filepath.SkipDir
		}
		if report && path != dir {
			w.record(path, FileCreated)
		}
		return w.addDir(path)
	})
}

// addDir adds one directory watch; it returns SkipAll once the cap or the
// system's inotify limit is reached.
func (w *Watcher) addDir(path string) error {
	w.mu.Lock()
	if w.dirs[path] {
		w.mu.Unlock()
		return nil
	}
	if w.capped || len(w.dirs) >= w.maxDirs {
		first := !w.capped
		w.capped = true
		w.mu.Unlock()
		if first {
			w.log.Warn("watching workspace: directory cap reached; directories beyond it are not watched", "max_dirs", w.maxDirs)
		}
		return filepath.SkipAll
	}
	w.mu.Unlock()
	if err := w.fsw.Add(path); err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			w.mu.Lock()
			first := !w.capped
			w.capped = true
			w.mu.Unlock()
			if first {
				w.log.Warn("watching workspace: inotify watch limit reached (fs.inotify.max_user_watches); directories beyond it are not watched",
					"dirs", w.WatchedDirs())
			}
			return filepath.SkipAll
		}
		w.log.Debug("watching directory", "path", path, "err", err)
		return nil
	}
	w.mu.Lock()
	w.dirs[path] = true
	w.mu.Unlock()
	return nil
}

// forgetTree drops path and every directory under it from the watched set
// when path was a watched directory (removed or renamed away; fsnotify
// drops the inotify watches itself).
func (w *Watcher) forgetTree(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.dirs[path] {
		return
	}
	for d := range w.dirs {
		if d == path || strings.HasPrefix(d, path+string(filepath.Separator)) {
			delete(w.dirs, d)
		}
	}
}
