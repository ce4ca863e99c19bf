package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file carries a change across the roots of one server. A server
// runs once per root (DESIGN.md "Servers": the nearest directory with one
// of its root markers), so a repository whose packages each have their
// own tsconfig.json, pyproject.toml or compile_flags.txt runs one server
// per package, and a package may import another's files by a relative
// path, an editable install or an include directory. A change in one
// package then breaks files the other package's server checks, and that
// server knew nothing of the change: a typescript-language-server rooted
// at packages/a answered in silence over packages/a/src/main.ts, which
// `tsc -p packages/a` reports, after packages/b/src/greet.ts changed a
// parameter's type. So the check of a change also finds the files that
// import it under other roots of its server (the workspace's ImportIndex
// of the server), and sends the changed file to each such root's server
// as a Doc.Mirror — its text the agent's, its own diagnostics left to its
// own server — with those importers, which that server re-checks as
// other files. A server that has a changed file of another root open
// (sent to it before) gets it too, so that its copy is never older than
// the file. Roots nest: a repository's root pyproject.toml or
// tsconfig.json above packages with their own. A file is then its own
// root's server's (Client.ownsFile) — the nearest — and a change under
// the outer root reaches the nested roots' servers the same way: the
// outer server, which can read the nested files too, re-checked them
// and its answer was dropped once it held them as mirrors, while the
// nested server was never told (a false clean).

// maxCrossRoots bounds the other roots one check carries a change to: a
// shared package imported by twenty others would otherwise start twenty
// servers on one edit. Roots whose server runs are always among them
// (capRoots); the rest are named in the answer (ErrCrossRootCap).
const maxCrossRoots = 3

// ErrCrossRootCap says the files under a root that import a file changed
// under another root were not checked: more roots than maxCrossRoots
// import it. Their errors are unknown.
var ErrCrossRootCap = errors.New("its importers of a file changed under another root were not checked")

// crossRootDocs returns, for docs checked in slot k, the documents to
// send to the other slots of k's server (Doc.Mirror, with Importers): to
// each slot with files that import one of docs (found over the whole
// workspace, those whose own root is not k's, at most MaxDependents), and
// to each running slot that has one of docs open — at most maxCrossRoots
// slots, those running first, then the nearest importers'; for each slot
// past it, skipped holds an answer saying its importers were not
// checked. It returns nothing for a server without OpenDependents (gopls
// sees every module of its root; its replace links are gomodules.go's),
// and for a prewarm.
func (m *Manager) crossRootDocs(ctx context.Context, k entryKey, docs []Doc) (send map[entryKey][]Doc, skipped []Outcome) {
	s, ok := m.cfg.LSP.Servers[k.server]
	if !ok || !s.OpenDependents || len(docs) == 0 ||
		slices.ContainsFunc(docs, func(d Doc) bool { return d.WarmUp || d.Mirror }) {
		return nil, nil
	}
	changed := make([]string, len(docs))
	for i, d := range docs {
		changed[i] = d.Path
	}
	importers := make(map[entryKey][]string)
	order := m.otherRootImporters(ctx, s, k, changed, importers, nil) // the slots, the nearest importers' first
	m.mu.Lock()
	for k2, e := range m.entries {
		c := e.readyClient()
		if k2.server != k.server || k2 == k || c == nil {
			continue
		}
		if _, listed := importers[k2]; !listed && slices.ContainsFunc(changed, c.isOpen) {
			importers[k2] = nil
			order = append(order, k2)
		}
	}
	m.mu.Unlock()
	if len(importers) == 0 {
		return nil, nil
	}
	m.restartForeignBack(k.server, changed)
	kept, skipped := m.capRoots(order, importers)
	send = make(map[entryKey][]Doc, len(kept))
	for _, k2 := range kept {
		for _, d := range docs {
			d.Mirror, d.Importers = true, importers[k2]
			send[k2] = append(send[k2], d)
		}
		m.log.Debug("sending a change to the server of another root", "server", k.server, "root", k2.root, "importers", len(importers[k2]))
	}
	return send, skipped
}

// capRoots keeps, of the slots of order (the nearest importers' first),
// every one whose server runs (it starts nothing, and one that has a
// changed file open must get its text, or its copy would go stale), then
// the others in order while fewer than maxCrossRoots are kept. For each
// slot past it, skipped holds an answer naming how many of its files
// (importers) were not checked (ErrCrossRootCap).
func (m *Manager) capRoots(order []entryKey, importers map[entryKey][]string) (kept []entryKey, skipped []Outcome) {
	running := make(map[entryKey]bool)
	m.mu.Lock()
	for _, k := range order {
		if e, ok := m.entries[k]; ok && e.readyClient() != nil {
			running[k] = true
		}
	}
	m.mu.Unlock()
	order = slices.Clone(order)
	slices.SortStableFunc(order, func(a, b entryKey) int {
		switch {
		case running[a] == running[b]:
			return 0
		case running[a]:
			return -1
		}
		return 1
	})
	for i, k := range order {
		if running[k] || i < maxCrossRoots {
			kept = append(kept, k)
			continue
		}
		rel, _ := ws.Rel(m.workspace, k.root)
		skipped = append(skipped, Outcome{Server: k.server, Root: k.root, Freshness: Partial,
			Err: fmt.Errorf("%w: %d under %s; at most %d other roots are checked per change", ErrCrossRootCap, len(importers[k]), rel, maxCrossRoots)})
		m.log.Info("not checking the importers under another root: too many roots", "server", k.server, "root", k.root, "importers", len(importers[k]))
	}
	return kept, skipped
}

// otherRootImporters adds to importers, under the slot whose server
// checks them, the files whose own root is not k's that import one of
// paths (the
// workspace's ImportIndex of s, at most MaxDependents), each once, and
// returns order with each slot not listed before appended, the nearest
// importers' first.
func (m *Manager) otherRootImporters(ctx context.Context, s config.Server, k entryKey, paths []string, importers map[entryKey][]string, order []entryKey) []entryKey {
	found, _, err := m.wideIndex(s).dependentsWhere(ctx, paths, func(p string) bool { return FindRoot(p, s.RootMarkers, m.workspace) != k.root }, &globalsQuery{})
	if err != nil {
		m.log.Warn("finding the importers of files under other roots", "server", s.Name, "root", k.root, "err", err)
	}
	for _, p := range found {
		k2 := entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}
		if k2 == k || slices.Contains(importers[k2], p) {
			continue
		}
		if _, listed := importers[k2]; !listed {
			order = append(order, k2)
		}
		importers[k2] = append(importers[k2], p)
	}
	return order
}

// wideIndex returns the ImportIndex of the whole workspace for server s:
// that of s's server rooted at the workspace when it runs (the same files
// and rules: one index, not two, built and queried on every change), else
// one made on first use and kept (watching the workspace's Watcher once
// it runs).
func (m *Manager) wideIndex(s config.Server) *ImportIndex {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[entryKey{s.Name, m.workspace}]; ok {
		if c := e.readyClient(); c != nil {
			return c.deps
		}
	}
	if m.wide == nil {
		m.wide = make(map[string]*wideIndex)
	}
	wi := m.wide[s.Name]
	if wi == nil {
		wi = &wideIndex{ix: NewImportIndex(s, m.workspace)}
		m.wide[s.Name] = wi
	}
	if !wi.watching && m.watcher != nil && !m.closed {
		wi.ix.Watch(m.watcher)
		wi.watching = true
	}
	return wi.ix
}

// wideIndex is a server's ImportIndex of the whole workspace
// (Manager.wideIndex).
type wideIndex struct {
	ix       *ImportIndex
	watching bool // subscribed to the workspace's Watcher
}

// isOpen reports whether the document at path (absolute) is open in the
// server.
func (c *Client) isOpen(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.docs[pathToURI(path)]
	return ok
}

// goneImporters returns, for the files of abs that are gone, the files
// that import one of them under another root of its server (the
// workspace's ImportIndex, their own root not the gone file's), by the
// slot whose server checks them, at most maxCrossRoots slots (capRoots:
// the others are answered in skipped). As for a change (crossRootDocs):
// not for a server without OpenDependents.
func (m *Manager) goneImporters(ctx context.Context, abs []string) (importers map[entryKey][]string, skipped []Outcome) {
	importers = make(map[entryKey][]string)
	var order []entryKey
	for _, p := range abs {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		for _, s := range m.cfg.ServersForPath(p) {
			k := entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}
			if !s.OpenDependents {
				continue
			}
			order = m.otherRootImporters(ctx, s, k, []string{p}, importers, order)
		}
	}
	kept, skipped := m.capRoots(order, importers)
	for k := range importers {
		if !slices.Contains(kept, k) {
			delete(importers, k)
		}
	}
	return importers, skipped
}

// goneAcross has k's server — started for it if need be — learn that the
// files of abs outside its root are gone (a deletion event whatever it
// registered for: such a file is no file of its root's, though its
// program holds it) and re-check importers, the files of its root that
// import one of them; it returns the answer with every file in Others,
// or, when the server cannot start, its error.
func (m *Manager) goneAcross(ctx context.Context, k entryKey, abs, importers []string, settle time.Duration) Outcome {
	e, _, failed := m.started(ctx, k, nil)
	if e == nil {
		m.log.Info("not re-checked after deletion", "server", k.server, "root", k.root, "err", failed.Err)
		return failed
	}
	defer m.release(e)
	c := e.client
	c.forgetGone(abs, true)
	m.noteForeignGone(k, abs)
	docs := make([]Doc, len(importers))
	for i, p := range importers {
		docs[i] = Doc{Path: p, Recheck: true}
	}
	e.docs.RLock()
	o := importersPartial(c.Update(ctx, docs, settle))
	e.docs.RUnlock()
	if o.Others == nil {
		o.Others = make(map[string][]diag.Diagnostic)
	}
	maps.Copy(o.Others, o.Files)
	o.Files, o.OthersBefore, o.OthersBeforeKnown = nil, nil, nil
	m.log.Info("re-checked after deletion under another root", "server", k.server, "root", k.root,
		"rechecked", len(docs), "freshness", o.Freshness)
	return o
}

// dropForeign leaves out of out the diagnostics of the files this server
// does not own (ownsFile: another root's — sent as Doc.Mirror, or read
// through an import — or a nested root's): their own server reports
// them. Left in, a later check of this root listed them as its other
// files (pyright's "Source file could not be read" of a file of another
// root gone and back).
func (c *Client) dropForeign(out *Outcome) {
	for _, m := range []map[string][]diag.Diagnostic{out.Files, out.Others} {
		for p := range m {
			if !c.ownsFile(p) {
				delete(m, p)
			}
		}
	}
}

// noteForeignGone records that k's server was told the files of paths,
// of another root, are gone (goneAcross).
func (m *Manager) noteForeignGone(k entryKey, paths []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.foreignGone == nil || len(m.foreignGone) >= maxGoneProjects {
		m.foreignGone = make(map[entryKey]map[string]bool)
	}
	if m.foreignGone[k] == nil {
		m.foreignGone[k] = make(map[string]bool)
	}
	for _, p := range paths {
		m.foreignGone[k][p] = true
	}
}

// restartForeignBack starts afresh each running server of server's other
// roots that was told a file of changed was gone (noteForeignGone) now
// that it is back. Such a server knew the file only through its imports,
// and may hold it as missing whatever it is sent: pyright, sent the file
// again as a document, went on answering `"greet" is unknown import
// symbol` for its importer, and the file itself "could not be read".
// Rare (a file of one package deleted and written again while another
// package imports it), so a restart, as for a project file, is its cost.
func (m *Manager) restartForeignBack(server string, changed []string) {
	var stale []*entry
	m.mu.Lock()
	for k, gone := range m.foreignGone {
		if k.server != server || !slices.ContainsFunc(changed, func(p string) bool { return gone[p] && exists(p) }) {
			continue
		}
		delete(m.foreignGone, k)
		if e, ok := m.entries[k]; ok && e.readyClient() != nil {
			stale = append(stale, e)
			delete(m.entries, k)
		}
	}
	m.mu.Unlock()
	for _, e := range stale {
		m.log.Info("restarting server: a file of another root it imports is back after its deletion", "server", e.key.server, "root", e.key.root)
	}
	if len(stale) > 0 {
		m.background(func() { stopEntries(stale) })
	}
}

// exists reports whether a file is at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
