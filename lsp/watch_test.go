package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// batches collects what a Watcher delivers to one subscriber.
type batches struct {
	mu   sync.Mutex // guards got and at
	got  [][]FileEvent
	at   []time.Time
	wake chan struct{}
}

func subscribe(w *Watcher) *batches {
	b := &batches{wake: make(chan struct{}, 1)}
	w.Subscribe(func(evs []FileEvent) {
		b.mu.Lock()
		b.got = append(b.got, evs)
		b.at = append(b.at, time.Now())
		b.mu.Unlock()
		select {
		case b.wake <- struct{}{}:
		default:
		}
	})
	return b
}

// within returns the n-th batch (0-based) if it comes within d.
func (b *batches) within(n int, d time.Duration) ([]FileEvent, bool) {
	deadline := time.After(d)
	for {
		b.mu.Lock()
		if len(b.got) > n {
			evs := b.got[n]
			b.mu.Unlock()
			return evs, true
		}
		b.mu.Unlock()
		select {
		case <-b.wake:
		case <-deadline:
			return nil, false
		}
	}
}

// next waits for the n-th batch (0-based) and returns it and when it came.
func (b *batches) next(t *testing.T, n int) ([]FileEvent, time.Time) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		b.mu.Lock()
		if len(b.got) > n {
			evs, at := b.got[n], b.at[n]
			b.mu.Unlock()
			return evs, at
		}
		b.mu.Unlock()
		select {
		case <-b.wake:
		case <-deadline:
			t.Fatalf("no batch %d within 5s", n)
		}
	}
}

func (b *batches) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.got)
}

// show renders events relative to root, sorted: "created sub/a.go".
func show(root string, evs []FileEvent) string {
	var out []string
	for _, ev := range evs {
		rel, _ := filepath.Rel(root, ev.Path)
		out = append(out, fmt.Sprintf("%s %s", [...]string{"?", "created", "changed", "deleted"}[ev.Type], rel))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func newTestWatcher(t *testing.T, debounce time.Duration, maxDirs int) (*Watcher, string) {
	t.Helper()
	root := workspace(t, map[string]string{
		"a.go": "a", "sub/b.go": "b", "node_modules/m/index.js": "x", ".git/HEAD": "ref", "vendor/v.go": "v",
	})
	w, err := newWatcher(root, testLogger(t), debounce, maxDirs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, root
}

func TestWatcherEvents(t *testing.T) {
	w, root := newTestWatcher(t, 50*time.Millisecond, DefaultMaxDirs)
	if n := w.WatchedDirs(); n != 2 { // root and sub: node_modules, .git and vendor are skipped
		t.Fatalf("watching %d directories, want 2", n)
	}
	b := subscribe(w)
	steps := []struct {
		name string
		do   func()
		want string
	}{
		{"create", func() { writeFiles(t, root, map[string]string{"c.go": "c"}) }, "created c.go"},
		{"modify", func() { os.WriteFile(filepath.Join(root, "a.go"), []byte("a2"), 0o644) }, "changed a.go"},
		{"delete", func() { os.Remove(filepath.Join(root, "sub", "b.go")) }, "deleted sub/b.go"},
		{"new directory with files written at once", func() {
			writeFiles(t, root, map[string]string{"pkg/deep/d.go": "d", "pkg/e.go": "e"})
		}, "created pkg, created pkg/deep, created pkg/deep/d.go, created pkg/e.go"},
		{"file in the new directory", func() {
			os.WriteFile(filepath.Join(root, "pkg", "deep", "d.go"), []byte("d2"), 0o644)
		}, "changed pkg/deep/d.go"},
		// What is in a skipped directory is silent; a new one's own
		// creation is told (a //go:embed pattern may match build/),
		// nothing below it.
		{"skipped directories are silent", func() {
			writeFiles(t, root, map[string]string{"node_modules/m/x.js": "x", ".git/index": "i", "vendor/w.go": "w", "build/out/o.go": "o"})
			writeFiles(t, root, map[string]string{"f.go": "f", "target": "a file named like a skipped directory"})
		}, "created build, created f.go, created target"},
		{"rename", func() { os.Rename(filepath.Join(root, "c.go"), filepath.Join(root, "c2.go")) }, "created c2.go, deleted c.go"},
		{"created then deleted within the window is nothing", func() {
			writeFiles(t, root, map[string]string{"tmp.go": "t"})
			os.Remove(filepath.Join(root, "tmp.go"))
			writeFiles(t, root, map[string]string{"g.go": "g"})
		}, "created g.go"},
		{"directory removed", func() { os.RemoveAll(filepath.Join(root, "pkg")) }, "deleted pkg, deleted pkg/deep, deleted pkg/deep/d.go, deleted pkg/e.go"},
	}
	k := 0 // the next batch
	for _, st := range steps {
		st.do()
		evs, _ := b.next(t, k)
		k++
		// On a loaded machine one step's events can straddle the
		// debounce window: a batch that follows at once belongs to it.
		for show(root, evs) != st.want {
			more, ok := b.within(k, 500*time.Millisecond)
			if !ok {
				break
			}
			evs, k = append(evs, more...), k+1
		}
		if got := show(root, evs); got != st.want {
			t.Errorf("%s: got %q, want %q", st.name, got, st.want)
		}
	}
	if n := w.WatchedDirs(); n != 2 { // root, sub; pkg and pkg/deep are gone; build is skipped
		t.Errorf("watching %d directories after removal, want 2", n)
	}
}

// TestWatcherDirectoryRenamed: a directory renamed within the tree and
// back, again and again (`mv pkg lib`, `mv lib pkg`), stays watched under
// its new name: a file written in it afterwards is among ChangedSince's
// paths while the Watcher vouches for the span. Before, the renamed
// directory lost its watch to fsnotify's handling of the directory's own
// move (rewatchMovedIn, echoOfMove: fsnotify names the moved directory by
// its old path or its new one, as its goroutine and ours race) and the
// write went unseen, every other round. The pause after each rename lets
// that handling run first, as it does when an agent's next command comes.
func TestWatcherDirectoryRenamed(t *testing.T) {
	w, root := newTestWatcher(t, 50*time.Millisecond, DefaultMaxDirs)
	writeFiles(t, root, map[string]string{"pkg/a.py": "a"})
	time.Sleep(200 * time.Millisecond)
	names := []string{"pkg", "lib"}
	for i := range 20 {
		from, to := names[i%2], names[(i+1)%2]
		if err := os.Rename(filepath.Join(root, from), filepath.Join(root, to)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		mark := time.Now()
		written := filepath.Join(root, to, "a.py")
		if err := os.WriteFile(written, []byte(fmt.Sprint("round ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		got, uncovered, err := w.ChangedSince(context.Background(), mark)
		if err != nil {
			t.Fatal(err)
		}
		if uncovered == "" && !slices.Contains(got, written) {
			t.Errorf("round %d (mv %s %s): %s/a.py written, changes seen %v, uncovered %q", i, from, to, to, got, uncovered)
		}
	}
}

// TestWatcherMoveEchoNewName: fsnotify names the echo of a watched
// directory's own move by the path its watch then has — the new one when
// our watch of the moved-in directory was added first (echoOfMove). Such
// a Rename of a directory that is there, and watched, must leave it
// watched: taken for a removal, the directory was forgotten while there,
// and a file written in it went unseen.
func TestWatcherMoveEchoNewName(t *testing.T) {
	w, root := newTestWatcher(t, 50*time.Millisecond, DefaultMaxDirs)
	writeFiles(t, root, map[string]string{"lib/a.py": "a"})
	time.Sleep(200 * time.Millisecond)
	dirs := w.WatchedDirs()
	lib := filepath.Join(root, "lib")
	w.handle(fsnotify.Event{Name: lib, Op: fsnotify.Rename})
	if n := w.WatchedDirs(); n != dirs {
		t.Errorf("watching %d directories after the echo, want %d", n, dirs)
	}
	mark := time.Now()
	written := filepath.Join(lib, "a.py")
	if err := os.WriteFile(written, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, uncovered, err := w.ChangedSince(context.Background(), mark)
	if err != nil {
		t.Fatal(err)
	}
	if uncovered == "" && !slices.Contains(got, written) {
		t.Errorf("lib/a.py written after the echo, changes seen %v", got)
	}
	if gone, _ := w.DeletedSince(context.Background(), mark.Add(-time.Second)); slices.Contains(gone, lib) {
		t.Errorf("the echo recorded lib, which is there, as deleted: %v", gone)
	}
}

// TestWatcherDebounce: a burst of writes within the debounce window is one
// batch, delivered about one window after the last write.
func TestWatcherDebounce(t *testing.T) {
	w, root := newTestWatcher(t, DefaultDebounce, DefaultMaxDirs)
	b := subscribe(w)
	var last time.Time
	for i := range 5 {
		os.WriteFile(filepath.Join(root, "a.go"), []byte(fmt.Sprint("a", i)), 0o644)
		writeFiles(t, root, map[string]string{fmt.Sprintf("n%d.go", i): "n"})
		last = time.Now()
		time.Sleep(20 * time.Millisecond)
	}
	evs, at := b.next(t, 0)
	if got, want := show(root, evs), "changed a.go, created n0.go, created n1.go, created n2.go, created n3.go, created n4.go"; got != want {
		t.Errorf("batch = %q, want %q", got, want)
	}
	lag := at.Sub(last)
	t.Logf("last write → delivery: %v (debounce %v)", lag, DefaultDebounce)
	if lag < DefaultDebounce-10*time.Millisecond || lag > DefaultDebounce+300*time.Millisecond {
		t.Errorf("delivered %v after the last write, want about %v", lag, DefaultDebounce)
	}
	time.Sleep(2 * DefaultDebounce)
	if n := b.count(); n != 1 {
		t.Errorf("%d batches, want 1", n)
	}
}

// TestWatcherFlush: Flush delivers a change made just before it at once,
// without waiting for the debounce, and only returns once the subscriber
// has processed it.
func TestWatcherFlush(t *testing.T) {
	w, root := newTestWatcher(t, time.Hour, DefaultMaxDirs) // nothing is delivered unless flushed
	var mu sync.Mutex
	var seen []string
	w.Subscribe(func(evs []FileEvent) {
		mu.Lock()
		seen = append(seen, show(root, evs))
		mu.Unlock()
	})
	slow := make(chan struct{})
	w.Subscribe(func([]FileEvent) {
		<-slow // a slow subscriber: Flush must wait for it
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := range 20 {
		name := fmt.Sprintf("f%d.go", i)
		writeFiles(t, root, map[string]string{name: "x"})
		if i == 0 { // the first Flush must wait for the slow subscriber
			short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			if err := w.Flush(short); err != context.DeadlineExceeded {
				t.Fatalf("Flush with a stuck subscriber = %v, want deadline exceeded", err)
			}
			cancel()
			close(slow)
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := slices.Clone(seen)
		mu.Unlock()
		if len(got) != i+1 || got[i] != "created "+name {
			t.Fatalf("after Flush %d: seen %q", i, got)
		}
	}
	// Flush with nothing pending returns at once.
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := w.Flush(ctx); err == nil {
		t.Error("Flush after Close succeeded")
	}
	if _, err := os.Stat(w.barrier); !os.IsNotExist(err) {
		t.Errorf("barrier directory left behind: %v", err)
	}
}

// TestWatcherCap: past the directory cap nothing more is watched, with one
// log line, and the watcher keeps working for what it does watch.
func TestWatcherCap(t *testing.T) {
	root := tempDir(t)
	for i := range 10 {
		writeFile(t, root, fmt.Sprintf("d%d/x.go", i), "x")
	}
	w, err := newWatcher(root, testLogger(t), 20*time.Millisecond, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if n := w.WatchedDirs(); n != 4 {
		t.Fatalf("watching %d directories, want the cap 4", n)
	}
	b := subscribe(w)
	writeFiles(t, root, map[string]string{"top.go": "t"})
	if evs, _ := b.next(t, 0); show(root, evs) != "created top.go" {
		t.Errorf("batch = %q", show(root, evs))
	}
}

// TestWatcherUnsubscribe: an ended subscription receives nothing more, and
// a Flush does not wait for it.
func TestWatcherUnsubscribe(t *testing.T) {
	w, root := newTestWatcher(t, 10*time.Millisecond, DefaultMaxDirs)
	called := make(chan struct{}, 10)
	w.Subscribe(func([]FileEvent) { called <- struct{}{} }).Close()
	writeFiles(t, root, map[string]string{"z.go": "z"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-called:
		t.Error("an ended subscription was called")
	case <-time.After(50 * time.Millisecond):
	}
}

// TestSubscriptionSync: a subscription's Sync waits for its own function
// only; another subscription stuck (a server whose stdin is full) does not
// delay it.
func TestSubscriptionSync(t *testing.T) {
	w, root := newTestWatcher(t, time.Hour, DefaultMaxDirs)
	stuck := make(chan struct{})
	defer close(stuck)
	w.Subscribe(func([]FileEvent) { <-stuck })
	got := make(chan string, 10)
	sub := w.Subscribe(func(evs []FileEvent) { got <- show(root, evs) })
	writeFiles(t, root, map[string]string{"s.go": "s"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := sub.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case g := <-got:
		if g != "created s.go" {
			t.Errorf("batch = %q", g)
		}
	default:
		t.Fatal("Sync returned before the subscription processed the change")
	}
}
