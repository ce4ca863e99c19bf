package lsp

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// This file is the Watcher's policy: what a watch costs on the platform's
// fsnotify backend, how much a Watcher may spend, and which directories
// get the watches when the tree costs more (the rest is scanned,
// watchscan.go).

// Scan defaults.
const (
	// DefaultScanEvery is the pause between two scan passes over the
	// directories a Watcher does not watch.
	DefaultScanEvery = time.Second
	// DefaultScanBatch is how many directory entries one scan pass looks
	// at (one lstat(2) each, plus one readdir per directory). A pass of
	// 4,000 took 20–35 ms on a shared, loaded 2-core Linux machine
	// (BenchmarkScanPass, warm cache), so a pass a second costs 2–4% of a
	// core, and a round over the 47,000 files of a 50,000-file tree that
	// kqueue's budget leaves unwatched takes 14 passes, about 14 s.
	DefaultScanBatch = 4000
)

// WatchPolicy is what watching costs on a platform's fsnotify backend and
// how much a Watcher may spend (defaultWatchPolicy per platform:
// watch_linux.go, watch_kqueue.go, watch_windows.go).
type WatchPolicy struct {
	// Backend names the kernel interface, for logs and status: "inotify"
	// (inotify(7)), "kqueue" (kqueue(2)), "ReadDirectoryChangesW".
	Backend string
	// PerEntry: watching a directory costs one plus one per entry in it
	// (kqueue: fsnotify opens the directory and every file and
	// subdirectory in it, backend_kqueue.go watchDirectoryFiles). Unset:
	// one per directory (an inotify watch, a Windows directory handle).
	PerEntry bool
	// Budget is the most the Watcher spends, in the backend's unit
	// (inotify watches, descriptors, handles); directories past it are
	// scanned.
	Budget int
	// ScanEvery is the pause between scan passes (DefaultScanEvery when 0).
	ScanEvery time.Duration
	// ScanBatch is how many directory entries a scan pass looks at, a
	// count of lstat(2) calls (DefaultScanBatch when 0); a pass always
	// finishes the directory it is in.
	ScanBatch int
}

// maxKqueueBudget caps one Watcher's descriptors on kqueue platforms,
// however high RLIMIT_NOFILE is: open files are also counted system-wide
// (kern.maxfiles, 12,288 on many Macs' defaults) and one daemon runs per
// worktree, so a few daemons at 8,192 each fit where half of
// kern.maxfilesperproc each would not.
const maxKqueueBudget = 8192

// cost is what watching a directory of entries entries costs.
func (p WatchPolicy) cost(entries int) int {
	if p.PerEntry {
		return 1 + entries
	}
	return 1
}

// Directory priorities for the budget, most important first. When the
// budget is short, a directory of a higher priority number is given up
// (scanned) to watch one of a lower.
const (
	prioRoot   = iota // the workspace root: never given up
	prioOpen          // holds a document a server has open
	prioWanted        // holds a file a server's FileSystemWatchers match, or appeared after start
	prioRest          // anything else, breadth first
)

// watchedDir is one watched directory: its priority, what its watch costs
// now (WatchPolicy.cost of entries), its entries and its files among them.
type watchedDir struct {
	prio    int
	cost    int
	entries int
	files   int
}

// Bits of Watcher.dirty.
const (
	interestOpen  = 1 << iota // the directories of open documents changed
	interestGlobs             // the registered FileSystemWatchers changed
)

// watchInterest is what the servers care about: the directories of the
// documents they have open (absolute, clean), and the FileSystemWatchers
// they registered (LSP 3.17 "DidChangeWatchedFiles Notification"), each
// with its server's root.
type watchInterest struct {
	open  map[string]bool
	globs []boundWatcher
}

// boundWatcher is a registered FileSystemWatcher and the root of its
// server, which a relative pattern is matched against.
type boundWatcher struct {
	fw   fileWatcher
	root string
}

// wants reports whether a directory holding the entries names has a file
// some registered FileSystemWatcher matches, of any kind.
func (in watchInterest) wants(dir string, names []string) bool {
	for _, b := range in.globs {
		fw := b.fw
		fw.kind = watchAll
		for _, n := range names {
			if fw.matches(filepath.Join(dir, n), FileChanged, b.root) {
				return true
			}
		}
	}
	return false
}

func (in watchInterest) globKey() string {
	keys := make([]string, len(in.globs))
	for i, b := range in.globs {
		keys[i] = b.root + "\x00" + b.fw.base + "\x00" + b.fw.pattern
	}
	slices.Sort(keys)
	return strings.Join(keys, "\x01")
}

// setInterest tells the Watcher what the servers care about now; a
// Watcher that scans part of the tree gives those directories watches on
// its next scan tick (replan). It does no I/O and never blocks on a scan.
func (w *Watcher) setInterest(in watchInterest) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !maps.Equal(in.open, w.interest.open) {
		w.dirty |= interestOpen
	}
	if in.globKey() != w.interest.globKey() {
		w.dirty |= interestGlobs
	}
	w.interest = in
}

// candidate is a scanned directory that deserves a watch.
type candidate struct {
	dir   string
	prio  int
	depth int
	cost  int
}

// replan runs on the scan goroutine before each pass. When the interest
// changed it watches the scanned directories it now names — the open
// documents' directories, then those holding files the registered globs
// match, shallow first — giving up watches of a higher priority number
// (prioRest first, deepest first) to make room. Then, when the watches
// grew past the budget (files created in watched directories cost a
// descriptor each under kqueue), it gives up watches until they fit.
// Watched directories keep the priority they were given (the open ones
// are raised), so a glob change does not re-rank them.
func (w *Watcher) replan() {
	w.mu.Lock()
	in, dirty := w.interest, w.dirty
	w.dirty = 0
	for dir := range in.open {
		if d := w.dirs[dir]; d != nil && d.prio > prioOpen {
			d.prio = prioOpen
		}
	}
	w.mu.Unlock()
	if dirty != 0 {
		for _, c := range w.scan.candidates(in, dirty&interestGlobs != 0) {
			if w.makeRoom(c.cost, c.prio) {
				w.promote(c.dir, c.prio)
			}
		}
	}
	w.makeRoom(0, prioRoot+1)
}

// overBudget reports whether the watches cost more than the budget (files
// created in watched directories, under a per-entry backend).
func (w *Watcher) overBudget() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.spent > w.policy.Budget
}

// makeRoom gives up watches of a priority above prio, the least important
// and deepest first, until cost more fits the budget; it reports whether
// it does. Nothing is given up when it cannot make enough room.
func (w *Watcher) makeRoom(cost, prio int) bool {
	w.mu.Lock()
	need := w.spent + cost - w.policy.Budget
	if need <= 0 {
		w.mu.Unlock()
		return true
	}
	var victims []candidate
	free := 0
	for dir, d := range w.dirs {
		if d.prio > prio {
			victims = append(victims, candidate{dir: dir, prio: d.prio, depth: strings.Count(dir, string(filepath.Separator)), cost: d.cost})
			free += d.cost
		}
	}
	w.mu.Unlock()
	if free < need {
		return false
	}
	slices.SortFunc(victims, func(a, b candidate) int {
		if a.prio != b.prio {
			return b.prio - a.prio
		}
		if a.depth != b.depth {
			return b.depth - a.depth
		}
		if a.cost != b.cost {
			return b.cost - a.cost
		}
		return strings.Compare(b.dir, a.dir)
	})
	for _, v := range victims {
		if need <= 0 {
			break
		}
		need -= w.demote(v.dir)
	}
	return need <= 0
}

// promote watches dir, scanned until now: the watch is added first, then
// one last visit reports what changed since the last pass, then the
// scanner forgets dir. A change between the two may be reported twice,
// never lost.
func (w *Watcher) promote(dir string, prio int) {
	all, ents, err := w.readDir(dir)
	if err != nil || !w.tryWatch(dir, prio, all, ents) {
		return
	}
	w.scan.release(dir)
}

// demote scans dir, watched until now: its baseline is taken first, then
// the watch is removed; it returns the cost given back.
func (w *Watcher) demote(dir string) int {
	w.scan.adopt(dir)
	err := w.fsw.Remove(dir)
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.dirs[dir]
	if d == nil {
		return 0
	}
	if err != nil {
		w.log.Debug("unwatching directory", "path", dir, "err", err)
	}
	w.spent -= d.cost
	delete(w.dirs, dir)
	return d.cost
}

// tryWatch adds a watch on dir, which has all entries (ents of them not
// skipped), when its cost fits the budget; it reports whether dir is
// watched. Once the backend refuses a watch for its limit (watchLimitErr:
// inotify's max_user_watches, kqueue's RLIMIT_NOFILE) no more are tried.
func (w *Watcher) tryWatch(dir string, prio, all int, ents []fs.DirEntry) bool {
	cost := w.policy.cost(all)
	files := 0
	for _, e := range ents {
		if !e.IsDir() {
			files++
		}
	}
	w.mu.Lock()
	if w.dirs[dir] != nil {
		w.mu.Unlock()
		return true
	}
	if w.full || w.spent+cost > w.policy.Budget {
		w.mu.Unlock()
		return false
	}
	w.spent += cost // reserved while the watch is added
	w.mu.Unlock()
	err := w.fsw.Add(dir)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.spent -= cost
		if watchLimitErr(err) && !w.full {
			w.full = true
			w.log.Warn("watching workspace: the backend's limit is reached; directories beyond it are scanned",
				"backend", w.policy.Backend, "dirs", len(w.dirs), "err", err)
		}
		w.log.Debug("watching directory", "path", dir, "err", err)
		return false
	}
	w.dirs[dir] = &watchedDir{prio: prio, cost: cost, entries: all, files: files}
	return true
}

// countEntry counts an entry that appeared in (delta 1) or left (-1) the
// watched directory holding path: under a per-entry backend (kqueue) its
// descriptor is spent or given back; files counts regular files for
// Status.
func (w *Watcher) countEntry(path string, delta int, file bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.dirs[filepath.Dir(path)]
	if d == nil {
		return
	}
	d.entries = max(d.entries+delta, 0)
	if file {
		d.files = max(d.files+delta, 0)
	}
	if c := w.policy.cost(d.entries); c != d.cost {
		w.spent += c - d.cost
		d.cost = c
	}
}

// forgetTree drops path and every directory under it from the watched set
// when path was a watched directory (removed or renamed away; fsnotify
// drops the inotify watches itself), giving their cost back; it reports
// whether path was one.
func (w *Watcher) forgetTree(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dirs[path] == nil {
		return false
	}
	for d, wd := range w.dirs {
		if d == path || strings.HasPrefix(d, path+string(filepath.Separator)) {
			w.spent -= wd.cost
			delete(w.dirs, d)
		}
	}
	return true
}
