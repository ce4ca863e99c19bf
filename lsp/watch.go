package lsp

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
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
	// DefaultMaxDirs is the watch budget where a watch costs one per
	// directory (inotify(7) watches, Windows directory handles): how many
	// directories one Watcher watches at most.
	DefaultMaxDirs = 10000
)

// Watcher watches a workspace with fsnotify and delivers debounced,
// coalesced batches of FileEvents to subscribers (Subscribe); Flush and
// Subscription.Sync skip the debounce for changes already made. It skips
// version control, dependency and build directories (skipDirs: .git,
// node_modules, vendor, target, dist, build, .venv, __pycache__, .tools)
// and adds directories as they appear (reporting the files already in
// them as created).
//
// fsnotify watches one directory at a time, and what that costs depends on
// the backend (WatchPolicy): one inotify(7) watch per directory on Linux,
// but on macOS kqueue(2) one open descriptor per directory AND per file in
// it. A Watcher spends at most its policy's budget: a tree within it is
// watched whole; past it, the directories that matter come first (the
// root, the directories of documents servers have open, those holding
// files a server's registered FileSystemWatchers match; watchplan.go) and
// the rest is covered by a bounded periodic scan of modification times
// that emits the same FileEvents (watchscan.go). Such a Watcher is not
// Complete, and Status says so.
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
	policy   WatchPolicy
	scan     *scanner    // the directories not watched
	barrier  string      // private directory holding the Flush marker files
	markers  [2]*os.File // written in turn by handOver
	done     chan struct{}
	loopDone chan struct{}
	scanDone chan struct{}
	scanned  chan struct{} // 1-slot: a scan pass recorded changes

	markMu sync.Mutex // serializes handOver's ticket and marker write, so tickets and events stay in step
	issued uint64     // handOver tickets handed out; guarded by markMu

	mu       sync.Mutex             // guards the fields below; never held while taking scanner.mu
	dirs     map[string]*watchedDir // watched directories
	spent    int                    // what the watches cost, in the policy's unit (WatchPolicy.cost)
	full     bool                   // the backend refused a watch for its limit: no more are tried
	capped   bool                   // some directories are or were scanned, not watched
	lost     bool                   // the kernel reported an error (queue overflow): events were lost
	interest watchInterest          // what the servers care about (setInterest)
	dirty    int                    // interestOpen|interestGlobs: interest changed since the last replan
	pending  map[string]FileChangeType
	order    []string // pending paths in first-seen order
	subs     map[int]*subscriber
	nextSub  int
	barriers map[uint64]chan struct{} // handOver ticket → closed when its marker is read
	seen     uint64                   // marker events read so far
	recent   recentChanges            // the last changes recorded, for ChangedSince
	movedIn  map[string]time.Time     // directories that appeared (renamed into place, made), when: rewatchMovedIn
	gone     map[string]time.Time     // watched directories that went (removed, renamed away), when: rewatchMovedIn
	closed   bool
}

// Complete reports whether every change under the root is seen as it
// happens: false once some directories went unwatched (the policy's budget
// or the backend's limit; they are scanned instead, which sees a change
// only on its next pass) or the kernel reported lost events. Clients then
// also compare open documents with the disk on each check.
func (w *Watcher) Complete() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.capped && !w.lost
}

// NewWatcher starts watching root (absolute) and the directories under it
// that are not skipped, within the platform's WatchPolicy (RLIMIT_NOFILE
// read now decides the kqueue budget); the rest is scanned. It returns once
// the initial directories are watched or scanned: any change after that is
// seen. Close stops it.
func NewWatcher(root string, log *slog.Logger) (*Watcher, error) {
	return NewWatcherWith(root, log, defaultWatchPolicy(openFileLimit()))
}

// NewWatcherWith is NewWatcher under policy p (a test's tiny budget, or a
// kqueue-like cost on Linux); zero ScanEvery and ScanBatch take the
// defaults.
func NewWatcherWith(root string, log *slog.Logger, p WatchPolicy) (*Watcher, error) {
	return newWatcherWith(root, log, DefaultDebounce, p)
}

// newWatcher is a Watcher whose budget is maxDirs directories at one unit
// each (inotify's cost), whatever the platform.
func newWatcher(root string, log *slog.Logger, debounce time.Duration, maxDirs int) (*Watcher, error) {
	p := defaultWatchPolicy(0)
	p.PerEntry, p.Budget = false, maxDirs
	return newWatcherWith(root, log, debounce, p)
}

func newWatcherWith(root string, log *slog.Logger, debounce time.Duration, p WatchPolicy) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", root, err)
	}
	p.ScanEvery = cmp.Or(p.ScanEvery, DefaultScanEvery)
	p.ScanBatch = cmp.Or(p.ScanBatch, DefaultScanBatch)
	w := &Watcher{
		root: filepath.Clean(root), log: log.With("watch_root", root), fsw: fsw,
		debounce: debounce, policy: p,
		done: make(chan struct{}), loopDone: make(chan struct{}), scanDone: make(chan struct{}), scanned: make(chan struct{}, 1),
		dirs: make(map[string]*watchedDir), pending: make(map[string]FileChangeType), movedIn: make(map[string]time.Time),
		gone: make(map[string]time.Time),
		subs: make(map[int]*subscriber), barriers: make(map[uint64]chan struct{}),
	}
	w.scan = newScanner(w)
	if err := w.makeMarkers(); err != nil {
		w.closeMarkers()
		fsw.Close()
		return nil, fmt.Errorf("watching %s: %w", root, err)
	}
	begin := time.Now()
	w.addTree(w.root, false, prioRest)
	w.recent = newRecentChanges(time.Now()) // a change in a directory not yet added was not seen
	st := w.Status()
	w.log.Info("watching workspace", "backend", p.Backend, "dirs", st.WatchedDirs, "scanned_dirs", st.ScannedDirs,
		"cost", st.Cost, "budget", p.Budget, "elapsed_ms", time.Since(begin).Milliseconds())
	if !st.Complete {
		w.log.Warn("watching workspace partially; scanning the rest", "note", st.Note())
	}
	go w.loop()
	go w.scan.run(p.ScanEvery, p.ScanBatch)
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
	<-w.scanDone
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
// after the debounce (or at once for a Flush barrier). A scan pass that
// recorded changes (scanned) arms the debounce as an event does.
func (w *Watcher) loop() {
	defer close(w.loopDone)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var first time.Time // when the oldest pending event arrived
	arm := func() {
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		wait := w.debounce
		if limit := first.Add(maxBatchDelay).Sub(now); limit < wait {
			wait = max(limit, 0)
		}
		timer.Reset(wait)
	}
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if w.isBarrier(ev) {
				continue
			}
			if w.handle(ev) {
				arm()
			}
		case <-w.scanned:
			arm()
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
		if ev.Has(fsnotify.Create) && w.skippedDirCame(path) {
			// A skipped directory appeared in a watched one (npm run
			// build's dist/, a node_modules): what is in it stays
			// unwatched, but that it came is an event, as its deletion
			// is — a //go:embed pattern may match it (embed.go: gopls
			// kept "pattern all:dist: no matching files found" after
			// the build made dist, where go build builds).
			w.record(path, FileCreated)
			return true
		}
		return false
	}
	switch {
	case ev.Has(fsnotify.Create):
		if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
			w.record(path, FileCreated)
			w.countEntry(path, 1, false)
			w.addTree(path, true, prioWanted) // a new directory is where an agent works
			w.noteDir(w.movedIn, path)
			return true
		}
		w.countEntry(path, 1, true)
		w.record(path, FileCreated)
	case ev.Has(fsnotify.Rename) && w.echoOfMove(path):
		return false
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		watched := w.forgetTree(path)
		wasDir := w.scan.dropTree(path) || watched
		switch {
		case watched:
			w.noteDir(w.gone, path)
		case ev.Has(fsnotify.Rename) && w.wentLately(path):
			w.rewatchMovedIn() // the echo of a watched directory's own move
		}
		w.countEntry(path, -1, !wasDir)
		w.record(path, FileDeleted)
	case ev.Has(fsnotify.Write):
		w.record(path, FileChanged)
	default: // Chmod: attributes only
		return false
	}
	return true
}

// movedInKeep is how long rewatchMovedIn looks back at directories that
// appeared or went: the echo it repairs comes right after the rename.
// maxMovedIn bounds each memory (an npm install makes thousands of
// directories): past it, the oldest is forgotten.
const (
	movedInKeep = 2 * time.Second
	maxMovedIn  = 64
)

// noteDir remembers in m (movedIn or gone) that dir appeared or went now,
// forgetting entries older than movedInKeep, and the oldest past
// maxMovedIn.
func (w *Watcher) noteDir(m map[string]time.Time, dir string) {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	oldest, oldestAt := "", now
	for d, at := range m {
		if now.Sub(at) > movedInKeep {
			delete(m, d)
		} else if at.Before(oldestAt) {
			oldest, oldestAt = d, at
		}
	}
	if len(m) >= maxMovedIn {
		delete(m, oldest)
	}
	m[dir] = now
}

// wentLately reports whether path is a watched directory that went within
// movedInKeep.
func (w *Watcher) wentLately(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	at, ok := w.gone[path]
	return ok && time.Since(at) <= movedInKeep
}

// echoOfMove reports whether a Rename of path is fsnotify's echo of a
// watched directory's own move named by its new path (rewatchMovedIn
// tells when it is named by the old one): path is a directory we watch
// and is there, so nothing went; the watch did, and is added again. Taken
// for a removal, the directory was forgotten while there, and went
// unwatched unknown to us.
func (w *Watcher) echoOfMove(path string) bool {
	w.mu.Lock()
	watched := w.dirs[path] != nil
	w.mu.Unlock()
	if !watched {
		return false
	}
	if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
		return false
	}
	if err := w.fsw.Add(path); err != nil {
		w.log.Debug("watching a directory again after a rename", "path", path, "err", err)
	}
	return true
}

// rewatchMovedIn adds again the watch of each directory that appeared
// within movedInKeep and is watched by our count. A directory renamed
// within the tree (`mv pkg lib`) keeps its inode, and so its inotify
// watch: the watch added for lib is pkg's, and when fsnotify then reads
// the directory's own IN_MOVE_SELF it removes that watch (its only
// answer to a watched path moving), sending a second Rename of the old
// path (fsnotify v1.10.1 backend_inotify.go). lib then went unwatched
// while counted as watched, so a file written in it was never seen, and a
// shell hook taking the watcher's word answered clean (make soak, seed
// 5539144269355981959, Python #35 and TypeScript #45, after a directory
// was moved away and back). That echo — a Rename of a watched directory
// that already went (wentLately) — calls this; Add of a watch that
// stands changes nothing.
func (w *Watcher) rewatchMovedIn() {
	now := time.Now()
	var again []string
	w.mu.Lock()
	for d, at := range w.movedIn {
		if now.Sub(at) <= movedInKeep && w.dirs[d] != nil {
			again = append(again, d)
		}
	}
	w.mu.Unlock()
	for _, d := range again {
		if err := w.fsw.Add(d); err != nil {
			w.log.Debug("watching a directory again after a rename", "path", d, "err", err)
		}
	}
}

// skipped reports whether path is a skipped directory, lies inside one, or
// lies outside the root. A file that merely has a skipped name (a "build"
// script) is not skipped.
func (w *Watcher) skipped(path string) bool {
	rel, ok := ws.Rel(w.root, path)
	if !ok || rel == "." {
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

// skippedDirCame reports whether path is a directory with a skipped name
// directly in a directory that is not skipped: the watcher sees its
// creation, and skips only what is in it.
func (w *Watcher) skippedDirCame(path string) bool {
	if rel, ok := ws.Rel(w.root, path); !ok || rel == "." || !isSkipDir(filepath.Base(path)) {
		return false
	}
	if parent := filepath.Dir(path); parent != w.root && w.skipped(parent) {
		return false
	}
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
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

// addTree watches or scans dir and every directory under it that is not
// skipped, breadth first: each directory whose watch fits the budget
// (tryWatch) is watched, any other is scanned (scanner.adopt). prio is the
// directories' priority (the root's is prioRoot, whatever prio says).
// With report set (a directory that appeared after start) the files and
// directories found are recorded as created: they may have been written
// before the watch existed.
func (w *Watcher) addTree(dir string, report bool, prio int) {
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		all, ents, err := w.readDir(d)
		if err != nil {
			continue // vanished or unreadable: nothing to watch
		}
		p := prio
		if d == w.root {
			p = prioRoot
		}
		switch {
		case w.tryWatch(d, p, all, ents):
			if report { // listed again under the watch: what came between is in one of the two
				if _, again, err := w.readDir(d); err == nil {
					ents = again
				}
			}
		default:
			ents = w.scan.adopt(d)
		}
		for _, e := range ents {
			path := filepath.Join(d, e.Name())
			if report {
				w.record(path, FileCreated)
			}
			if e.IsDir() {
				queue = append(queue, path)
			}
		}
	}
}

// readDir lists dir: how many entries it has in all (what a kqueue watch
// opens), and those a Watcher looks at (skipped directories and the
// barrier left out).
func (w *Watcher) readDir(dir string) (all int, kept []fs.DirEntry, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, nil, err
	}
	kept = ents[:0:0]
	for _, e := range ents {
		if e.IsDir() && (isSkipDir(e.Name()) || filepath.Join(dir, e.Name()) == w.barrier) {
			continue
		}
		kept = append(kept, e)
	}
	return len(ents), kept, nil
}
