package lsp

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestRecentChangesRing(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	r := newRecentChanges(t0)
	r.add("/a", FileChanged, at(1))
	r.add("/b", FileCreated, at(2))
	r.add("/c", FileDeleted, at(3))
	r.add("/a", FileChanged, at(4))
	paths, uncovered := r.since(at(2))
	if uncovered != "" || !reflect.DeepEqual(paths, []string{"/b", "/a"}) {
		t.Errorf("since(2) = %v, %q; want [/b /a], covered", paths, uncovered)
	}
	if _, uncovered := r.since(t0.Add(-time.Second)); uncovered != UncoveredStarted {
		t.Errorf("a span before recording began: %q", uncovered)
	}
	// Overflow: the oldest are forgotten, and spans reaching them are
	// uncovered.
	for i := range recentCap {
		r.add("/x", FileChanged, at(10+i))
	}
	if _, uncovered := r.since(at(4)); uncovered != UncoveredForgotten {
		t.Errorf("a span reaching forgotten changes: %q", uncovered)
	}
	if _, uncovered := r.since(at(5)); uncovered != "" {
		t.Errorf("a span after every forgotten change: %q", uncovered)
	}
	paths, uncovered = r.since(at(10 + recentCap - 1))
	if uncovered != "" || !reflect.DeepEqual(paths, []string{"/x"}) {
		t.Errorf("since(last) = %v, %q", paths, uncovered)
	}
	// Events the kernel lost: spans that began before the report are
	// uncovered, later ones are not.
	r.lose(at(20000))
	if _, uncovered := r.since(at(19999)); uncovered != UncoveredLost {
		t.Errorf("a span over lost events: %q", uncovered)
	}
	if _, uncovered := r.since(at(20001)); uncovered != "" {
		t.Errorf("a span after lost events: %q", uncovered)
	}
}

// TestWatcherChangedSince: a write through rename (as sed -i does), a new
// file in a new directory and a deleted file, right before the question:
// the answer has the files that exist, without waiting for the debounce.
func TestWatcherChangedSince(t *testing.T) {
	w, root := newTestWatcher(t, time.Hour, DefaultMaxDirs)
	before := filepath.Join(root, "before.go")
	os.WriteFile(before, []byte("package a\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // separate the two windows on the clock
	since := time.Now()
	target := filepath.Join(root, "a.go")
	tmp := filepath.Join(root, "sedXYZ")
	os.WriteFile(tmp, []byte("package a // edited\n"), 0o644)
	if err := os.Rename(tmp, target); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "pkg", "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "pkg", "sub", "b.go"), []byte("package sub\n"), 0o644)
	gone := filepath.Join(root, "gone.go")
	os.WriteFile(gone, nil, 0o644)
	os.Remove(gone)
	paths, uncovered, err := w.ChangedSince(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{target, filepath.Join(root, "pkg", "sub", "b.go")}
	if uncovered != "" || !reflect.DeepEqual(paths, want) {
		t.Errorf("ChangedSince = %v, %q; want %v, covered", paths, uncovered, want)
	}
	if _, uncovered, _ := w.ChangedSince(ctx, since.Add(-time.Hour)); uncovered != UncoveredStarted {
		t.Errorf("a span before the watcher started: %q", uncovered)
	}
}

// TestWatcherChangedSinceCapped: a Watcher that could not watch every
// directory never vouches for a span, even one after it started.
func TestWatcherChangedSinceCapped(t *testing.T) {
	w, _ := newTestWatcher(t, time.Hour, 1) // the root only: sub is not watched
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	time.Sleep(20 * time.Millisecond) // a span that begins after the Watcher started
	if _, uncovered, err := w.ChangedSince(ctx, time.Now()); err != nil || uncovered != UncoveredCapped {
		t.Errorf("ChangedSince = %q, %v; want %q", uncovered, err, UncoveredCapped)
	}
}
