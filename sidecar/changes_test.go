package sidecar

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// TestChangedSince: by modification time, among the files the listing
// keeps (ignored files are not).
func TestChangedSince(t *testing.T) {
	filesEnv(t)
	root := filesRoot(t)
	filesGit(t, root, "init", "-q")
	filesTree(t, root, map[string]string{"old.go": "a", "new.go": "b", "sub/new.yaml": "c: 1", "out/gen.go": "x", ".gitignore": "out/\n"})
	past := time.Now().Add(-time.Hour)
	for _, f := range []string{"old.go", ".gitignore"} {
		os.Chtimes(filepath.Join(root, f), past, past)
	}
	got, err := ChangedSince(context.Background(), root, time.Now().Add(-time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "new.go"), filepath.Join(root, "sub", "new.yaml")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ChangedSince = %v, want %v", got, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ChangedSince(ctx, root, past); err == nil {
		t.Error("ChangedSince ignored a cancelled context")
	}
}

// TestServerChangedFiles: without language servers the daemon answers by
// modification time; with a manager, the first question starts the
// watcher (and is answered by modification time), later ones within its
// watch by the watcher.
func TestServerChangedFiles(t *testing.T) {
	filesEnv(t)
	root, _ := filepath.EvalSymlinks(shortDir(t))
	filesGit(t, root, "init", "-q")
	filesTree(t, root, map[string]string{"a.go": "package a"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	c := dial(ctx, t, startServer(t, root))
	var res ChangedFilesResult
	if err := c.Call(ctx, MethodChangedFiles, ChangedFilesParams{SinceMS: time.Now().Add(-time.Minute).UnixMilli()}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Source != ChangedByMtime || !reflect.DeepEqual(res.Paths, []string{filepath.Join(root, "a.go")}) {
		t.Errorf("without servers: %+v", res)
	}
	if err := c.Call(ctx, MethodChangedFiles, ChangedFilesParams{}, &res); err == nil {
		t.Error("since_ms 0 was accepted")
	}

	cfg := config.Default()
	m := lsp.NewManager(cfg, root, discardLog())
	t.Cleanup(m.Shutdown)
	c = dial(ctx, t, serve(t, NewEngine(root, cfg, m, discardLog())))
	start := time.Now()
	if err := c.Call(ctx, MethodChangedFiles, ChangedFilesParams{SinceMS: start.Add(-time.Minute).UnixMilli()}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Source != ChangedByMtime {
		t.Errorf("first question, before the watcher: source %s", res.Source)
	}
	time.Sleep(20 * time.Millisecond)
	since := time.Now()
	filesTree(t, root, map[string]string{"b.go": "package a", ".git/x": "y"})
	if err := c.Call(ctx, MethodChangedFiles, ChangedFilesParams{SinceMS: since.UnixMilli()}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Source != ChangedByWatcher || !reflect.DeepEqual(res.Paths, []string{filepath.Join(root, "b.go")}) {
		t.Errorf("watched window: %+v", res)
	}
}
