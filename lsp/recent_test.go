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
	paths, complete := r.since(at(2))
	if !complete || !reflect.DeepEqual(paths, []string{"/b", "/a"}) {
		t.Errorf("since(2) = %v, %v; want [/b /a], complete", paths, complete)
	}
	if _, complete := r.since(t0.Add(-time.Second)); complete {
		t.Error("a window before recording began is complete")
	}
	// Overflow: the oldest are forgotten, and windows reaching them are
	// incomplete.
	for i := range recentCap {
		r.add("/x", FileChanged, at(10+i))
	}
	if _, complete := r.since(at(4)); complete {
		t.Error("a window reaching forgotten changes is complete")
	}
	if _, complete := r.since(at(5)); !complete {
		t.Error("a window after every forgotten change is incomplete")
	}
	paths, complete = r.since(at(10 + recentCap - 1))
	if !complete || !reflect.DeepEqual(paths, []string{"/x"}) {
		t.Errorf("since(last) = %v, %v", paths, complete)
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
	paths, complete, err := w.ChangedSince(ctx, since)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{target, filepath.Join(root, "pkg", "sub", "b.go")}
	if !complete || !reflect.DeepEqual(paths, want) {
		t.Errorf("ChangedSince = %v, complete %v; want %v, complete", paths, complete, want)
	}
	if _, complete, _ := w.ChangedSince(ctx, since.Add(-time.Hour)); complete {
		t.Error("a window before the watcher started is complete")
	}
}
