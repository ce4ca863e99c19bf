package lsp

import (
	"context"
	"slices"

	"github.com/lsp-hook/lsp-hook/config"
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
// the file.

// crossRootDocs returns, for docs checked in slot k, the documents to
// send to the other slots of k's server (Doc.Mirror, with Importers): to
// each slot with files that import one of docs (found over the whole
// workspace, outside k's root, at most MaxDependents), and to each
// running slot that has one of docs open. It returns nil for a server
// without OpenDependents (gopls sees every module of its root; its
// replace links are gomodules.go's), for a slot rooted at the workspace
// (its own index covers every file), and for a prewarm.
func (m *Manager) crossRootDocs(ctx context.Context, k entryKey, docs []Doc) map[entryKey][]Doc {
	s, ok := m.cfg.LSP.Servers[k.server]
	if !ok || !s.OpenDependents || k.root == m.workspace || len(docs) == 0 ||
		slices.ContainsFunc(docs, func(d Doc) bool { return d.WarmUp || d.Mirror }) {
		return nil
	}
	changed := make([]string, len(docs))
	for i, d := range docs {
		changed[i] = d.Path
	}
	importers := make(map[entryKey][]string)
	found, _, err := m.wideIndex(s).dependentsWhere(ctx, changed, func(p string) bool { return !ws.Inside(k.root, p) })
	if err != nil {
		m.log.Warn("finding the importers of changed files under other roots", "server", k.server, "err", err)
	}
	for _, p := range found {
		if k2 := (entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}); k2 != k {
			importers[k2] = append(importers[k2], p)
		}
	}
	m.mu.Lock()
	for k2, e := range m.entries {
		if k2.server != k.server || k2 == k {
			continue
		}
		if _, listed := importers[k2]; listed {
			continue
		}
		if c := e.readyClient(); c != nil && slices.ContainsFunc(changed, c.isOpen) {
			importers[k2] = nil
		}
	}
	m.mu.Unlock()
	if len(importers) == 0 {
		return nil
	}
	out := make(map[entryKey][]Doc, len(importers))
	for k2, ps := range importers {
		for _, d := range docs {
			d.Mirror, d.Importers = true, ps
			out[k2] = append(out[k2], d)
		}
		m.log.Debug("sending a change to the server of another root", "server", k.server, "root", k2.root, "importers", len(ps))
	}
	return out
}

// wideIndex returns the ImportIndex of the whole workspace for server s,
// made on first use and kept (watching the workspace's Watcher once it
// runs).
func (m *Manager) wideIndex(s config.Server) *ImportIndex {
	m.mu.Lock()
	defer m.mu.Unlock()
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
