package lsp

import (
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// This file is the Watcher's fallback for the directories it does not
// watch (over the budget, or refused by the backend's limit): a bounded
// periodic scan. Each pass visits scanned directories round-robin, lists
// each (readdir) and lstats its entries until ScanBatch entries were
// looked at, and compares them with what the previous visit saw: a new
// name is created, a missing one deleted (a directory with every file the
// scan knew under it), a file whose modification time, size or mode
// differs changed. The events go through Watcher.record like fsnotify's,
// so subscribers cannot tell them apart, except by their lateness (up to
// a round: WatcherStatus.ScanRoundMS). A change that keeps a file's
// size, mode and modification time (within the file system's timestamp
// granularity: nanoseconds on ext4 and APFS, 2 s on FAT) is not seen.

// fileState is what a scan compares: modification time (ns since the
// epoch), size in bytes, and mode bits (type and permissions).
type fileState struct {
	mod  int64
	size int64
	mode fs.FileMode
}

func stateOf(fi fs.FileInfo) fileState {
	return fileState{mod: fi.ModTime().UnixNano(), size: fi.Size(), mode: fi.Mode()}
}

func (s fileState) isDir() bool { return s.mode.IsDir() }

// scanner holds the scanned directories and what their last visit saw.
type scanner struct {
	w *Watcher

	// mu guards the fields below. It is held through one directory's
	// visit (its readdir and lstats) and taken before Watcher.mu, never
	// after; nobody holds it while calling fsnotify.
	mu    sync.Mutex
	dirs  map[string]map[string]fileState // scanned directory → entry name → state at the last visit
	order []string                        // scanned directories, visited round-robin
	next  int                             // index in order of the next visit
	pass  time.Duration                   // how long the last pass took
}

func newScanner(w *Watcher) *scanner {
	return &scanner{w: w, dirs: make(map[string]map[string]fileState)}
}

// adopt starts scanning dir with what is there now as its baseline (one
// lstat per entry) and returns its entries, skipped directories left out;
// nil when dir cannot be read. The Watcher is no longer Complete.
func (s *scanner) adopt(dir string) []fs.DirEntry {
	_, ents, err := s.w.readDir(dir)
	if err != nil {
		return nil
	}
	base := make(map[string]fileState, len(ents))
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			base[e.Name()] = stateOf(fi)
		}
	}
	s.mu.Lock()
	if _, ok := s.dirs[dir]; !ok {
		s.order = append(s.order, dir)
	}
	s.dirs[dir] = base
	s.mu.Unlock()
	s.w.mu.Lock()
	s.w.capped = true // sticky: a span that had a scanned directory was never vouched for
	s.w.mu.Unlock()
	return ents
}

// release stops scanning dir (it is watched now) after a last visit,
// which reports what changed in it since the previous pass.
func (s *scanner) release(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.dirs[dir]; !ok {
		return
	}
	s.visitLocked(dir)
	if _, ok := s.dirs[dir]; ok {
		delete(s.dirs, dir)
		s.removeLocked(func(d string) bool { return d == dir })
	}
}

// dropTree forgets path and the scanned directories under it (path was
// removed or renamed away, as a watched parent's event says), recording
// every entry it knew there as deleted; it reports whether path was a
// scanned directory.
func (s *scanner) dropTree(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, was := s.dirs[path]
	s.goneLocked(path)
	return was
}

// goneLocked records as deleted every entry the scan knew under dir, and
// stops scanning dir and the directories under it.
func (s *scanner) goneLocked(dir string) {
	prefix := dir + string(filepath.Separator)
	var gone []string
	for d := range s.dirs {
		if d == dir || strings.HasPrefix(d, prefix) {
			gone = append(gone, d)
		}
	}
	if len(gone) == 0 {
		return
	}
	slices.Sort(gone)
	for _, d := range gone {
		for name := range s.dirs[d] {
			s.w.record(filepath.Join(d, name), FileDeleted)
		}
		delete(s.dirs, d)
	}
	s.removeLocked(func(d string) bool { return d == dir || strings.HasPrefix(d, prefix) })
}

// removeLocked drops the directories drop says from order, keeping next
// on the directory it pointed at.
func (s *scanner) removeLocked(drop func(string) bool) {
	kept := s.order[:0]
	next := s.next
	for i, d := range s.order {
		if drop(d) {
			if i < s.next {
				next--
			}
			continue
		}
		kept = append(kept, d)
	}
	clear(s.order[len(kept):])
	s.order, s.next = kept, max(next, 0)
}

// visitLocked lists dir and compares it with the last visit, recording
// every difference; it returns how many entries it stat'ed. A directory
// found gone has every entry the scan knew under it recorded deleted.
func (s *scanner) visitLocked(dir string) int {
	old := s.dirs[dir]
	_, ents, err := s.w.readDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			s.goneLocked(dir)
			s.w.record(dir, FileDeleted)
		}
		return 0 // unreadable for now: tried again next round
	}
	now := make(map[string]fileState, len(ents))
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			continue // gone between readdir and lstat: absent
		}
		name, st := e.Name(), stateOf(fi)
		now[name] = st
		prev, known := old[name]
		path := filepath.Join(dir, name)
		switch {
		case !known:
			s.w.record(path, FileCreated)
			if st.isDir() {
				s.newDirLocked(path)
			}
		case prev.isDir() != st.isDir(): // replaced by another kind: deleted, then created
			if prev.isDir() {
				s.goneLocked(path)
			}
			s.w.record(path, FileDeleted)
			s.w.record(path, FileCreated)
			if st.isDir() {
				s.newDirLocked(path)
			}
		case prev != st && !st.isDir():
			s.w.record(path, FileChanged)
		}
	}
	for name, prev := range old {
		if _, ok := now[name]; !ok {
			path := filepath.Join(dir, name)
			if prev.isDir() {
				s.goneLocked(path)
			}
			s.w.record(path, FileDeleted)
		}
	}
	s.dirs[dir] = now
	return len(ents)
}

// newDirLocked starts scanning a directory that appeared under a scanned
// one, with nothing known: its first visit, later in the same pass when
// the batch allows, reports every entry as created.
func (s *scanner) newDirLocked(dir string) {
	if _, ok := s.dirs[dir]; ok {
		return
	}
	s.w.mu.Lock()
	watched := s.w.dirs[dir] != nil
	s.w.mu.Unlock()
	if watched {
		return
	}
	s.dirs[dir] = map[string]fileState{}
	s.order = append(s.order, dir)
}

// runPass visits scanned directories round-robin until batch entries were
// stat'ed or every directory was visited once.
func (s *scanner) runPass(batch int) {
	begin := time.Now()
	spent, visited := 0, 0
	for spent < batch {
		s.mu.Lock()
		if len(s.order) == 0 || visited >= len(s.order) {
			s.mu.Unlock()
			break
		}
		if s.next >= len(s.order) {
			s.next = 0
		}
		dir := s.order[s.next]
		s.next++
		spent += 1 + s.visitLocked(dir)
		s.mu.Unlock()
		visited++
	}
	s.mu.Lock()
	s.pass = time.Since(begin)
	s.mu.Unlock()
	select {
	case s.w.scanned <- struct{}{}: // the loop delivers what the pass recorded after the debounce
	default:
	}
}

// run replans and runs a pass every period until the Watcher closes.
func (s *scanner) run(every time.Duration, batch int) {
	defer close(s.w.scanDone)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-s.w.done:
			return
		case <-tick.C:
		}
		if s.empty() && !s.w.overBudget() {
			continue // everything is watched, within the budget: nothing to do
		}
		s.w.replan()
		s.runPass(batch)
	}
}

func (s *scanner) empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.dirs) == 0
}

// candidates returns the scanned directories in deserves a watch for,
// most important first: the open documents' directories, then (when globs
// is set) those holding files the registered FileSystemWatchers match,
// shallow first; each with the cost of its watch under p.
func (s *scanner) candidates(in watchInterest, globs bool) []candidate {
	p := s.w.policy
	s.mu.Lock()
	var out []candidate
	for dir, ents := range s.dirs {
		prio := prioRest
		switch {
		case in.open[dir]:
			prio = prioOpen
		case globs && len(in.globs) > 0 && in.wants(dir, slices.Collect(maps.Keys(ents))):
			prio = prioWanted
		default:
			continue
		}
		out = append(out, candidate{dir: dir, prio: prio, depth: strings.Count(dir, string(filepath.Separator)), cost: p.cost(len(ents))})
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b candidate) int {
		if a.prio != b.prio {
			return a.prio - b.prio
		}
		if a.depth != b.depth {
			return a.depth - b.depth
		}
		return strings.Compare(a.dir, b.dir)
	})
	return out
}

// status returns how many directories and files are scanned, about how
// long a round over them takes under p, and the last pass's duration.
func (s *scanner) status(p WatchPolicy) (dirs, files int, round, pass time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	entries := 0
	for _, ents := range s.dirs {
		entries += 1 + len(ents)
		for _, st := range ents {
			if !st.isDir() {
				files++
			}
		}
	}
	if len(s.dirs) > 0 {
		passes := (entries + p.ScanBatch - 1) / p.ScanBatch
		round = time.Duration(passes) * p.ScanEvery
	}
	return len(s.dirs), files, round, s.pass
}
