package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
)

// TestDropForeign: a check's answer keeps the files its server owns (its
// root's, not a nested root's) and leaves out the others — a file of
// another root sent as a Doc.Mirror, one of a root nested under it — as
// a changed file or another, whether or not it was ever sent.
func TestDropForeign(t *testing.T) {
	w := t.TempDir()
	for _, rel := range []string{"app/tsconfig.json", "lib/tsconfig.json", "app/nested/tsconfig.json"} {
		writeFile(t, w, rel, "{}")
	}
	abs := func(rels ...string) []string {
		var out []string
		for _, r := range rels {
			out = append(out, filepath.Join(w, filepath.FromSlash(r)))
		}
		return out
	}
	c := &Client{root: filepath.Join(w, "app"), workspace: w, server: config.Server{RootMarkers: []string{"tsconfig.json"}}}
	d := []diag.Diagnostic{{Line: 1, Column: 1, Severity: diag.SeverityError, Message: "m"}}
	steps := []struct {
		name                                string
		files, others, wantFiles, wantOther []string
	}{
		{"a mirror's own check", abs("lib/a.ts"), abs("app/main.ts"), nil, abs("app/main.ts")},
		{"the root's own file", abs("app/main.ts"), abs("lib/a.ts", "app/b.ts"), abs("app/main.ts"), abs("app/b.ts")},
		{"a nested root's file", abs("app/main.ts"), abs("app/nested/x.ts", "app/sub/y.ts"), abs("app/main.ts"), abs("app/sub/y.ts")},
	}
	for _, st := range steps {
		o := Outcome{Files: map[string][]diag.Diagnostic{}, Others: map[string][]diag.Diagnostic{}}
		for _, p := range st.files {
			o.Files[p] = d
		}
		for _, p := range st.others {
			o.Others[p] = d
		}
		c.dropForeign(&o)
		if got := slices.Sorted(maps.Keys(o.Files)); !slices.Equal(got, st.wantFiles) {
			t.Errorf("%s: files %v, want %v", st.name, got, st.wantFiles)
		}
		if got := slices.Sorted(maps.Keys(o.Others)); !slices.Equal(got, st.wantOther) {
			t.Errorf("%s: others %v, want %v", st.name, got, st.wantOther)
		}
	}
}

// TestSnapshotOwnFiles: a Snapshot (the Stop gate's held errors, a
// baseline) takes each file's diagnostics from the server that owns it
// only: app's server's view of the outer package's file it was sent — a
// stale "could not be resolved" — is left out, the outer server's kept.
func TestSnapshotOwnFiles(t *testing.T) {
	w := t.TempDir()
	writeFile(t, w, "pyrightconfig.json", "{}")
	writeFile(t, w, "app/pyrightconfig.json", "{}")
	s := config.Server{Name: "pyright", RootMarkers: []string{"pyrightconfig.json"}}
	m := &Manager{workspace: w, entries: make(map[entryKey]*entry)}
	core, main := filepath.Join(w, "greeting", "core.py"), filepath.Join(w, "app", "main.py")
	diagnostic := func(msg string) []Diagnostic {
		return []Diagnostic{{Severity: 1, Message: json.RawMessage(strconv.Quote(msg))}}
	}
	for _, st := range []struct {
		root string
		said map[string][]Diagnostic
	}{
		{w, map[string][]Diagnostic{core: nil}},
		{filepath.Join(w, "app"), map[string][]Diagnostic{core: diagnostic(`Import "greeting.util" could not be resolved`), main: diagnostic("app's own")}},
	} {
		c := newClient(s, st.root, slog.New(slog.DiscardHandler))
		c.workspace = w
		for p, ds := range st.said {
			c.store.publish(PublishDiagnosticsParams{URI: pathToURI(p), Diagnostics: ds})
		}
		ready := make(chan struct{})
		close(ready)
		m.entries[entryKey{s.Name, st.root}] = &entry{key: entryKey{s.Name, st.root}, server: s, root: st.root, ready: ready, client: c}
	}
	snap := m.Snapshot()
	if got := snap.Diagnostics(core); len(got) != 0 {
		t.Errorf("the outer file's diagnostics %v; want the outer server's (none), not app's view of it", got)
	}
	if !snap.Known(core) {
		t.Errorf("the outer file is unknown; the outer server published it")
	}
	if got := snap.Diagnostics(main); len(got) != 1 {
		t.Errorf("app's file's diagnostics %v; want app's server's one", got)
	}
}

// TestCrossRootDocs: a change under one root of typescript-language-server
// goes, as a Doc.Mirror with the importers, to the roots whose files
// import it — none of them started here, so by the nearest importers,
// at most maxCrossRoots; each root past the cap is answered with
// ErrCrossRootCap, and none is asked twice. A root's own importers and a
// prewarm get nothing; a change under the workspace's own root reaches a
// root nested under it that imports it. The file
// deleted, the same roots re-check their importers (goneImporters).
func TestCrossRootDocs(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) string { return writeFile(t, root, rel, text) }
	tsconfig := `{"include": ["."]}`
	lib := write("lib/greet.ts", "export const greet = 1;\n")
	write("lib/tsconfig.json", tsconfig)
	write("lib/own.ts", `import { greet } from "./greet";`+"\n")
	apps := []string{"a1", "a2", "deep/a3", "deep/er/a4", "deep/er/a5"}
	for _, a := range apps {
		write(a+"/tsconfig.json", tsconfig)
		up := strings.Repeat("../", strings.Count(a, "/")+1)
		write(a+"/main.ts", `import { greet } from "`+up+`lib/greet";`+"\n")
	}
	m := NewManager(config.Default(), root, testLogger(t))
	t.Cleanup(m.Shutdown)
	k := entryKey{"typescript-language-server", filepath.Join(root, "lib")}
	send, skipped := m.crossRootDocs(context.Background(), k, []Doc{{Path: lib, Text: []byte("export const greet = 2;\n")}})
	if len(send) != maxCrossRoots || len(skipped) != len(apps)-maxCrossRoots {
		t.Fatalf("sent to %d roots, %d skipped; want %d and %d", len(send), len(skipped), maxCrossRoots, len(apps)-maxCrossRoots)
	}
	for _, a := range apps[:maxCrossRoots] {
		ds := send[entryKey{k.server, filepath.Join(root, filepath.FromSlash(a))}]
		if len(ds) != 1 || !ds[0].Mirror || ds[0].Path != lib || !slices.Equal(ds[0].Importers, []string{filepath.Join(root, filepath.FromSlash(a), "main.ts")}) {
			t.Errorf("%s: sent %+v; want lib/greet.ts as a mirror with %s/main.ts", a, ds, a)
		}
	}
	for i, o := range skipped {
		if o.Freshness != Partial || !errors.Is(o.Err, ErrCrossRootCap) || o.Root != filepath.Join(root, filepath.FromSlash(apps[maxCrossRoots+i])) {
			t.Errorf("skipped[%d] = %+v; want %s partial, ErrCrossRootCap", i, o, apps[maxCrossRoots+i])
		}
	}
	if send, skipped := m.crossRootDocs(context.Background(), entryKey{k.server, filepath.Join(root, "a1")}, []Doc{{Path: filepath.Join(root, "a1", "main.ts")}}); send != nil || skipped != nil {
		t.Errorf("a root's own change, nothing importing it: sent %v, skipped %v; want nothing", send, skipped)
	}
	// Nested roots: a file of the workspace's own root (no marker above
	// it) imported by a root nested under it goes to that root's server.
	shared := write("shared.ts", "export const s = 1;\n")
	use := write("a1/use.ts", `import { s } from "../shared";`+"\n")
	send, skipped = m.crossRootDocs(context.Background(), entryKey{k.server, root}, []Doc{{Path: shared}})
	if ds := send[entryKey{k.server, filepath.Join(root, "a1")}]; len(send) != 1 || len(skipped) != 0 || len(ds) != 1 || !ds[0].Mirror || !slices.Equal(ds[0].Importers, []string{use}) {
		t.Errorf("a change under the workspace's root: sent %+v, skipped %v; want shared.ts to a1 as a mirror with a1/use.ts", send, skipped)
	}
	if send, skipped := m.crossRootDocs(context.Background(), k, []Doc{{Path: lib, WarmUp: true}}); send != nil || skipped != nil {
		t.Errorf("a prewarm: sent %v, skipped %v; want nothing", send, skipped)
	}
	// Gone: the same roots re-check their importers, the same ones past
	// the cap are answered so.
	if err := os.Remove(lib); err != nil {
		t.Fatal(err)
	}
	importers, skipped := m.goneImporters(context.Background(), []string{lib})
	if len(importers) != maxCrossRoots || len(skipped) != len(apps)-maxCrossRoots {
		t.Fatalf("gone: %d roots re-check, %d skipped; want %d and %d", len(importers), len(skipped), maxCrossRoots, len(apps)-maxCrossRoots)
	}
	for _, a := range apps[:maxCrossRoots] {
		if ps := importers[entryKey{k.server, filepath.Join(root, filepath.FromSlash(a))}]; len(ps) != 1 {
			t.Errorf("gone: %s re-checks %v; want its main.ts", a, ps)
		}
	}
}

// TestOwnsFileMarkerMade: a root marker that is no project file (pyright's
// setup.py) made under the root moves the files below it to the nested
// root's server, and removed moves them back; ownsFile, which keeps its
// answers by directory, follows once the watcher's event for the marker
// has reached the client (FilesChanged), or it would keep taking the
// nested root's files into its answers and snapshots.
func TestOwnsFileMarkerMade(t *testing.T) {
	w := t.TempDir()
	writeFile(t, w, "setup.py", "")
	c := &Client{root: w, workspace: w, server: config.Server{RootMarkers: []string{"pyproject.toml#tool.uv.workspace", "*.project.json", "setup.py"}}}
	file := filepath.Join(w, "sub", "pkg", "a.py")
	remove := func(rel string) func() string { // removes w's rel, returns its path
		return func() string {
			p := filepath.Join(w, filepath.FromSlash(rel))
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	steps := []struct {
		name    string
		do      func() string // changes the disk, returns the path the event names
		wantOwn bool
	}{
		{"no marker below the root", nil, true},
		{"setup.py made in sub", func() string { return writeFile(t, w, "sub/setup.py", "") }, false},
		{"setup.py removed", remove("sub/setup.py"), true},
		{"a marker by glob made in sub", func() string { return writeFile(t, w, "sub/app.project.json", "{}") }, false},
		{"the glob's marker removed", remove("sub/app.project.json"), true},
		{"a uv workspace made in sub/pkg (a marker by its content)", func() string {
			return writeFile(t, w, "sub/pkg/pyproject.toml", "[tool.uv.workspace]\nmembers = []\n")
		}, false},
	}
	for _, st := range steps {
		if st.do != nil {
			p := st.do()
			c.forgetOwners([]FileEvent{{Path: filepath.Join(w, "sub", "other.txt"), Type: FileCreated}})
			if got := c.ownsFile(file); got == st.wantOwn {
				t.Fatalf("%s: ownsFile changed on an event naming no marker", st.name)
			}
			c.forgetOwners([]FileEvent{{Path: p, Type: FileChanged}})
		}
		if got := c.ownsFile(file); got != st.wantOwn {
			t.Errorf("%s: ownsFile = %v, want %v", st.name, got, st.wantOwn)
		}
	}
}
