package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// kqueueLike is the kqueue cost (one unit per directory and per entry)
// with budget units and a fast scan, so a Linux test plays macOS.
func kqueueLike(budget int) WatchPolicy {
	return WatchPolicy{Backend: "kqueue-like", PerEntry: true, Budget: budget, ScanEvery: 20 * time.Millisecond, ScanBatch: 1000}
}

// scanTree is a workspace of ten directories of five files each beside
// a.go, and a skipped node_modules: 11 directories, 51 files to watch.
func scanTree(t *testing.T) string {
	t.Helper()
	files := map[string]string{"a.go": "a", "node_modules/m/index.js": "x"}
	for d := range 10 {
		for f := range 5 {
			files[fmt.Sprintf("d%d/f%d.go", d, f)] = "x"
		}
	}
	return workspace(t, files)
}

// watching reports whether dir has a watch.
func (w *Watcher) watching(dir string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dirs[dir] != nil
}

// mirror is a subscriber's picture of the tree: the paths the events say
// exist, and every event seen in order.
type mirror struct {
	mu     sync.Mutex // guards exists and log
	exists map[string]bool
	log    []string
	wake   chan struct{}
}

func mirrorOf(w *Watcher, root string) *mirror {
	m := &mirror{exists: make(map[string]bool), wake: make(chan struct{}, 1)}
	w.Subscribe(func(evs []FileEvent) {
		m.mu.Lock()
		for _, ev := range evs {
			rel, _ := filepath.Rel(root, ev.Path)
			m.exists[rel] = ev.Type != FileDeleted
			m.log = append(m.log, show(root, []FileEvent{ev}))
		}
		m.mu.Unlock()
		select {
		case m.wake <- struct{}{}:
		default:
		}
	})
	return m
}

// await waits until ok holds of the mirror, or fails after 5 s.
func (m *mirror) await(t *testing.T, what string, ok func(exists map[string]bool, log []string) bool) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		m.mu.Lock()
		done := ok(m.exists, m.log)
		m.mu.Unlock()
		if done {
			return
		}
		select {
		case <-m.wake:
		case <-deadline:
			m.mu.Lock()
			defer m.mu.Unlock()
			t.Fatalf("%s: not seen within 5s; events: %q", what, m.log)
		}
	}
}

// TestWatchPolicyPartial: under a kqueue-like cost with a budget that
// holds the root and one directory, the rest is scanned; a write, a create
// and a delete in a scanned directory still arrive as FileEvents; an open
// document's directory gets a watch; status says what is partial.
func TestWatchPolicyPartial(t *testing.T) {
	root := scanTree(t)
	// root: a.go, d0…d9, node_modules = 12 entries, cost 13; a dN: cost 6.
	w, err := newWatcherWith(root, testLogger(t), 10*time.Millisecond, kqueueLike(13+6))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st := w.Status()
	if st.WatchedDirs != 2 || st.ScannedDirs != 9 || st.Cost > st.Budget || w.Complete() {
		t.Fatalf("status %+v, complete %v; want 2 watched (root, d0), 9 scanned, within budget, incomplete", st, w.Complete())
	}
	if !w.watching(root) || !w.watching(filepath.Join(root, "d0")) || w.watching(filepath.Join(root, "d5")) {
		t.Fatal("want the root and d0 watched, d5 scanned")
	}
	if got, want := st.Note(), "watcher: partial (kqueue-like, 6 of 51 files); scanning the rest every "; !strings.HasPrefix(got, want) {
		t.Errorf("note %q, want it to begin %q", got, want)
	}
	m := mirrorOf(w, root)
	writeFiles(t, root, map[string]string{"d5/f0.go": "longer text", "d5/new.go": "n"})
	os.Remove(filepath.Join(root, "d5", "f1.go"))
	m.await(t, "write, create, delete in a scanned directory", func(_ map[string]bool, log []string) bool {
		return slices.Contains(log, "changed d5/f0.go") && slices.Contains(log, "created d5/new.go") && slices.Contains(log, "deleted d5/f1.go")
	})

	// An open document's directory is watched on the next tick; d0, of
	// the lowest priority, gives up its watch for it.
	d7 := filepath.Join(root, "d7")
	w.setInterest(watchInterest{open: map[string]bool{d7: true}})
	deadline := time.Now().Add(5 * time.Second)
	for !w.watching(d7) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !w.watching(d7) || w.watching(filepath.Join(root, "d0")) {
		t.Fatalf("after d7 opened: watching d7 %v, d0 %v; want d7 only", w.watching(d7), w.watching(filepath.Join(root, "d0")))
	}
	if st := w.Status(); st.Cost > st.Budget {
		t.Errorf("cost %d over budget %d", st.Cost, st.Budget)
	}
	// d0 is scanned now, d7 watched: both still report.
	writeFiles(t, root, map[string]string{"d0/z.go": "z", "d7/z.go": "z"})
	m.await(t, "creates in the demoted and the promoted directory", func(_ map[string]bool, log []string) bool {
		return slices.Contains(log, "created d0/z.go") && slices.Contains(log, "created d7/z.go")
	})
}

// TestWatchPolicyGlobs: a directory holding files a server's registered
// FileSystemWatcher matches is watched before one that holds none.
func TestWatchPolicyGlobs(t *testing.T) {
	root := scanTree(t)
	writeFiles(t, root, map[string]string{"d9/m.py": "x"})
	w, err := newWatcherWith(root, testLogger(t), 10*time.Millisecond, kqueueLike(13+6+7))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	d9 := filepath.Join(root, "d9")
	if w.watching(d9) {
		t.Fatal("d9 watched before any interest")
	}
	w.setInterest(watchInterest{globs: []boundWatcher{{fw: fileWatcher{pattern: "**/*.py", kind: watchAll}, root: root}}})
	deadline := time.Now().Add(5 * time.Second)
	for !w.watching(d9) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !w.watching(d9) {
		t.Fatal("d9, holding the only *.py, is not watched after the glob was registered")
	}
	// The budget held the root, d0 and d1 at start; d1, the last in
	// order, gave its watch up for d9.
	for d := range 9 {
		if dir := filepath.Join(root, fmt.Sprintf("d%d", d)); w.watching(dir) != (d == 0) {
			t.Errorf("%s watched %v, want %v", dir, w.watching(dir), d == 0)
		}
	}
}

// TestWatchPolicyOverBudget: files created in watched directories cost a
// descriptor each under kqueue; once the watches cost more than the
// budget, the least important give theirs up on the next tick, and their
// changes still arrive through the scan.
func TestWatchPolicyOverBudget(t *testing.T) {
	root := scanTree(t)
	w, err := newWatcherWith(root, testLogger(t), 10*time.Millisecond, kqueueLike(13+6+6))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	m := mirrorOf(w, root)
	want := map[string]string{}
	for i := range 8 {
		want[fmt.Sprintf("d0/n%d.go", i)] = "n"
	}
	writeFiles(t, root, want)
	m.await(t, "creates in d0", func(exists map[string]bool, _ []string) bool {
		for name := range want {
			if !exists[name] {
				return false
			}
		}
		return true
	})
	deadline := time.Now().Add(5 * time.Second)
	for st := w.Status(); st.Cost > st.Budget; st = w.Status() {
		if time.Now().After(deadline) {
			t.Fatalf("cost %d stays over budget %d", st.Cost, st.Budget)
		}
		time.Sleep(5 * time.Millisecond)
	}
	os.Remove(filepath.Join(root, "d0", "n3.go"))
	os.Remove(filepath.Join(root, "d1", "f0.go"))
	m.await(t, "deletes after the budget was restored", func(exists map[string]bool, _ []string) bool {
		return !exists["d0/n3.go"] && !exists["d1/f0.go"] && len(exists) > 0
	})
}

// TestWatchPolicyGrowsPastBudget: a tree watched whole under a per-entry
// cost grows past the budget by files created in it; the next tick gives
// watches up for the scan, and changes there still arrive.
func TestWatchPolicyGrowsPastBudget(t *testing.T) {
	root := workspace(t, map[string]string{"a/x.go": "x", "b/y.go": "y"})
	w, err := newWatcherWith(root, testLogger(t), 10*time.Millisecond, kqueueLike(3+2+2+4))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !w.Complete() {
		t.Fatalf("a tree within the budget is not watched whole: %+v", w.Status())
	}
	m := mirrorOf(w, root)
	writeFiles(t, root, map[string]string{"b/1.go": "1", "b/2.go": "2", "b/3.go": "3", "b/4.go": "4", "b/5.go": "5"})
	m.await(t, "creates in b", func(exists map[string]bool, _ []string) bool { return exists["b/5.go"] && exists["b/1.go"] })
	deadline := time.Now().Add(5 * time.Second)
	for w.overBudget() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if st := w.Status(); st.Cost > st.Budget || st.ScannedDirs == 0 || w.Complete() {
		t.Fatalf("after growing: %+v, complete %v; want within budget, partial", st, w.Complete())
	}
	os.Remove(filepath.Join(root, "b", "3.go"))
	writeFiles(t, root, map[string]string{"a/x.go": "changed"})
	m.await(t, "a delete and a write after the watches shrank", func(exists map[string]bool, log []string) bool {
		return !exists["b/3.go"] && slices.Contains(log, "deleted b/3.go") && slices.Contains(log, "changed a/x.go")
	})
}

// TestScanRace plays the scan against a writer: files rewritten with
// every length, created and deleted at once, directories made and removed
// while passes run. Once the writer stops, the events must describe the
// disk exactly: no ghost (a path the events say exists that does not) and
// nothing missing. Run it with -count=20.
func TestScanRace(t *testing.T) {
	root := scanTree(t)
	w, err := newWatcherWith(root, testLogger(t), 5*time.Millisecond, kqueueLike(13))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	m := mirrorOf(w, root)
	stop := time.Now().Add(300 * time.Millisecond) // about fifteen passes
	for i := 0; time.Now().Before(stop); i++ {
		d := fmt.Sprintf("d%d", i%10)
		writeFile(t, root, fmt.Sprintf("%s/f%d.go", d, i%5), strings.Repeat("x", i)) // a background write during a pass
		tmp := writeFile(t, root, fmt.Sprintf("%s/tmp%d.go", d, i), "t")
		os.Remove(tmp) // deleted right after it was created
		writeFile(t, root, fmt.Sprintf("%s/g%d.go", d, i), "g")
		if i > 0 {
			os.Remove(filepath.Join(root, fmt.Sprintf("d%d/g%d.go", (i-1)%10, i-1)))
		}
		if i%7 == 0 {
			writeFile(t, root, fmt.Sprintf("%s/sub%d/s.go", d, i), "s")
		}
		if i%7 == 3 {
			os.RemoveAll(filepath.Join(root, fmt.Sprintf("d%d/sub%d", (i-3)%10, i-3)))
		}
		time.Sleep(time.Millisecond)
	}
	disk := diskFiles(t, root)
	m.await(t, "the events agree with the disk", func(exists map[string]bool, _ []string) bool {
		for p, ok := range exists {
			if ok != disk[p] { // a ghost, or a deletion not yet seen
				return false
			}
		}
		for p := range disk {
			if (strings.Contains(p, "/g") || strings.Contains(p, "/sub")) && !exists[p] { // made during the test, not yet seen
				return false
			}
		}
		return true
	})
	m.mu.Lock()
	defer m.mu.Unlock()
	for p, ok := range m.exists {
		if ok && !disk[p] {
			t.Errorf("ghost: %s", p)
		}
		if strings.Contains(p, "tmp") && ok {
			t.Errorf("a file deleted right after its creation lives on: %s", p)
		}
	}
}

// diskFiles lists the paths under root (relative), skipped directories
// left out, as a map to true.
func diskFiles(t *testing.T, root string) map[string]bool {
	t.Helper()
	out := make(map[string]bool)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && isSkipDir(d.Name()) {
			return filepath.SkipDir
		}
		if p != root {
			rel, _ := filepath.Rel(root, p)
			out[rel] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWatcherStatusNote: the status line, complete and partial.
func TestWatcherStatusNote(t *testing.T) {
	for _, c := range []struct {
		st   WatcherStatus
		want string
	}{
		{WatcherStatus{Backend: "inotify", Complete: true, WatchedDirs: 212, WatchedFiles: 3050}, "watcher: complete (inotify, 212 directories, 3,050 files)"},
		{WatcherStatus{Backend: "kqueue", WatchedDirs: 40, WatchedFiles: 4000, ScannedDirs: 3000, ScannedFiles: 48000, ScanRoundMS: 11000},
			"watcher: partial (kqueue, 4,000 of 52,000 files); scanning the rest every 11s"},
	} {
		if got := c.st.Note(); got != c.want {
			t.Errorf("Note() = %q, want %q", got, c.want)
		}
	}
	if got := slices.Sorted(maps.Keys(map[string]bool{thousands(999): true, thousands(1000): true, thousands(1234567): true})); !slices.Equal(got, []string{"1,000", "1,234,567", "999"}) {
		t.Errorf("thousands: %q", got)
	}
}

// BenchmarkScanPass measures the scan on a 50,000-file tree (5,000
// directories of 10 files, three levels deep) that a kqueue budget of
// 8,192 descriptors cannot watch: the start (walk, watches, baseline), one
// pass of DefaultScanBatch entries, and a whole round.
//
//	go test -run '^$' -bench ScanPass -benchtime 20x ./lsp/
func BenchmarkScanPass(b *testing.B) {
	root := b.TempDir()
	for i := range 5000 {
		dir := filepath.Join(root, fmt.Sprintf("a%02d", i/500), fmt.Sprintf("b%02d", i/50%10), fmt.Sprintf("c%02d", i%50))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 10 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", f)), []byte("package c\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	p := WatchPolicy{Backend: "kqueue-like", PerEntry: true, Budget: maxKqueueBudget, ScanEvery: time.Hour, ScanBatch: DefaultScanBatch}
	begin := time.Now()
	w, err := newWatcherWith(root, slog.New(slog.DiscardHandler), time.Hour, p)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	start := time.Since(begin)
	st := w.Status()
	roundStart := time.Now()
	passes := (st.ScannedFiles + st.ScannedDirs + DefaultScanBatch - 1) / DefaultScanBatch
	for range passes {
		w.scan.runPass(DefaultScanBatch)
	}
	round := time.Since(roundStart)
	b.ResetTimer()
	for b.Loop() {
		w.scan.runPass(DefaultScanBatch)
	}
	b.StopTimer()
	b.ReportMetric(float64(start.Microseconds())/1000, "start-ms")
	b.ReportMetric(float64(round.Microseconds())/1000, "round-ms")
	b.ReportMetric(float64(st.Cost), "descriptors")
	b.ReportMetric(float64(st.WatchedFiles), "watched-files")
	b.ReportMetric(float64(st.ScannedFiles), "scanned-files")
	b.Logf("%s; cost %d of budget %d; start %v, round of %d passes %v", st.Note(), st.Cost, st.Budget, start, passes, round)
}

// TestManagerWatchPolicy: through a Manager whose Watcher runs under a
// tiny kqueue-like budget, a checked document's directory is watched once
// the check is over, and WatcherStatus says the watcher is partial.
func TestManagerWatchPolicy(t *testing.T) {
	m, dir := fakeManager(t, "normal")
	files := map[string]string{}
	for d := range 6 {
		for f := range 4 {
			files[fmt.Sprintf("d%d/f%d.fake", d, f)] = "x"
		}
	}
	writeFiles(t, dir, files)
	m.WatchPolicy = new(kqueueLike(12)) // the root (6 entries: cost 7) and one directory (cost 5)
	if st := m.WatcherStatus(); st != nil {
		t.Fatalf("a watcher before any server: %+v", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	doc := filepath.Join(dir, "d4", "f1.fake")
	if o := m.Check(ctx, []Doc{{Path: doc}}, 0); len(o) != 1 || o[0].Err != nil {
		t.Fatalf("check: %+v", o)
	}
	m.mu.Lock()
	w := m.watcher
	m.mu.Unlock()
	d4 := filepath.Dir(doc)
	deadline := time.Now().Add(5 * time.Second)
	for !w.watching(d4) && time.Now().Before(deadline) {
		m.noteWatchInterest(nil) // the watcher may have come up after the check began
		time.Sleep(10 * time.Millisecond)
	}
	if !w.watching(d4) {
		t.Fatal("the open document's directory is not watched")
	}
	st := m.WatcherStatus()
	if st == nil || st.Complete || !strings.HasPrefix(st.Note(), "watcher: partial (kqueue-like, ") {
		t.Fatalf("WatcherStatus = %+v", st)
	}
	t.Log(st.Note())
}
