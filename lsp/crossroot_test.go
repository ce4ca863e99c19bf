package lsp

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
