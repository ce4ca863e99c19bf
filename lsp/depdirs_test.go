package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/testdir"
)

// TestDependencyEvents: nothing the first time; then each package that
// appears or goes, scoped ones included, as a created or deleted
// directory; dot entries never; nothing while nothing changed.
func TestDependencyEvents(t *testing.T) {
	root := t.TempDir()
	nm := filepath.Join(root, "node_modules")
	var d depDirs
	step := func(name string, change func(), want []FileEvent) {
		t.Helper()
		change()
		// A change within the mtime's resolution must still be seen: the
		// listing is compared only when a time moved, so move them.
		for _, p := range []string{nm, filepath.Join(nm, "@s")} {
			later := time.Now().Add(time.Duration(len(name)) * time.Second)
			_ = os.Chtimes(p, later, later)
		}
		if got := d.dependencyEvents(root, []string{"node_modules"}); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: events %+v, want %+v", name, got, want)
		}
	}
	ev := func(rel string, typ FileChangeType) FileEvent {
		return FileEvent{Path: filepath.Join(nm, filepath.FromSlash(rel)), Type: typ}
	}
	step("first look, no node_modules", func() {}, nil)
	step("installed", func() {
		testdir.WriteTree(t, nm, map[string]string{"a/package.json": "{}", ".package-lock.json": "{}", ".bin/a": ""})
	}, []FileEvent{ev("a", FileCreated)})
	step("a scoped package", func() { testdir.WriteTree(t, nm, map[string]string{"@s/b/package.json": "{}"}) },
		[]FileEvent{ev("@s/b", FileCreated)})
	step("nothing changed", func() {}, nil)
	step("one removed, one added", func() {
		os.RemoveAll(filepath.Join(nm, "a"))
		testdir.WriteTree(t, nm, map[string]string{"c/index.d.ts": ""})
	}, []FileEvent{ev("c", FileCreated), ev("a", FileDeleted)})
	step("node_modules removed", func() { os.RemoveAll(nm) }, []FileEvent{ev("@s/b", FileDeleted), ev("c", FileDeleted)})
}
