package lsp

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// This file tells a server about packages installed into, or removed
// from, a dependency directory the Watcher skips (config.Server.
// DependencyDirs: node_modules). Such a directory can hold more
// directories than inotify allows watches, so the Watcher never descends
// into it; but tsserver, which takes its file events from lsp-hook
// (tsserver.useClientFileWatcher), then never learns that `npm install`
// added the package an import could not find, and keeps "Cannot find
// module" — and every error the package's types would give is missing —
// for as long as it runs. Before each check the client looks at the
// directory's entries (a stat of it and of its @scope directories; a
// listing only when one changed) and sends the packages that appeared or
// went as created or deleted, ahead of the check's own change. (A scope
// directory left empty is not looked at again until the directory's own
// time moves.)

// depDir is what a client last saw of one dependency directory.
type depDir struct {
	seen    bool                 // looked at once: changes are told from then on
	mtimes  map[string]time.Time // the directory's and each @scope directory's modification time, by path
	entries []string             // its packages: "name" and "@scope/name", sorted; nil when it does not exist
}

// depDirs is a client's view of its server's dependency directories.
type depDirs struct {
	mu   sync.Mutex
	dirs map[string]*depDir // absolute path → what was seen
}

// dependencyEvents returns, for each of the server's DependencyDirs under
// root, the packages that appeared (FileCreated) or went (FileDeleted)
// since the client last looked, as paths of their directories; nothing
// the first time it looks.
func (d *depDirs) dependencyEvents(root string, names []string) []FileEvent {
	d.mu.Lock()
	defer d.mu.Unlock()
	var events []FileEvent
	for _, name := range names {
		dir := filepath.Join(root, name)
		if d.dirs == nil {
			d.dirs = make(map[string]*depDir)
		}
		prev := d.dirs[dir]
		if prev == nil {
			prev = &depDir{}
			d.dirs[dir] = prev
		}
		mtimes := dirMtimes(dir, scopesOf(prev.entries))
		if prev.seen && maps.EqualFunc(prev.mtimes, mtimes, time.Time.Equal) {
			continue
		}
		entries := packageEntries(dir)
		if prev.seen {
			for _, e := range entries {
				if _, found := slices.BinarySearch(prev.entries, e); !found {
					events = append(events, FileEvent{Path: filepath.Join(dir, filepath.FromSlash(e)), Type: FileCreated})
				}
			}
			for _, e := range prev.entries {
				if _, found := slices.BinarySearch(entries, e); !found {
					events = append(events, FileEvent{Path: filepath.Join(dir, filepath.FromSlash(e)), Type: FileDeleted})
				}
			}
		}
		prev.seen, prev.mtimes, prev.entries = true, dirMtimes(dir, scopesOf(entries)), entries
	}
	return events
}

// dirMtimes returns the modification times of dir and of its @scope
// directories scopes (names, as scopesOf gives them), whose entries change
// when a package is added or removed (a scoped package changes its
// scope's directory only; a new scope changes dir); empty when dir does not
// exist. Only stats: no listing.
func dirMtimes(dir string, scopes []string) map[string]time.Time {
	out := make(map[string]time.Time)
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return out
	}
	out[dir] = fi.ModTime()
	for _, sc := range scopes {
		if fi, err := os.Stat(filepath.Join(dir, sc)); err == nil {
			out[filepath.Join(dir, sc)] = fi.ModTime()
		}
	}
	return out
}

// scopesOf returns the @scope directory names among packageEntries'
// entries ("@scope/name"), each once, in order.
func scopesOf(entries []string) []string {
	var out []string
	for _, e := range entries {
		if sc, _, ok := strings.Cut(e, "/"); ok && strings.HasPrefix(sc, "@") && !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// packageEntries lists the packages of a dependency directory: its
// entries, and for an @scope directory the entries in it as
// "@scope/name"; dot entries (npm's .bin, .package-lock.json) left out;
// sorted. nil when dir does not exist.
func packageEntries(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case strings.HasPrefix(name, "@") && e.IsDir():
			scoped, _ := os.ReadDir(filepath.Join(dir, name))
			for _, s := range scoped {
				if !strings.HasPrefix(s.Name(), ".") {
					out = append(out, name+"/"+s.Name())
				}
			}
		default:
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
