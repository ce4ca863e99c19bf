package lsp

import (
	"context"
	"path/filepath"
	"slices"

	"github.com/lsp-hook/lsp-hook/config"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file brings the importers of a changed file into a check, for a
// server that diagnoses open documents only (config.Server.OpenDependents:
// pyright, typescript-language-server, clangd). Such a server says nothing
// of a closed caller the change broke, and pyright even answers an open
// caller's re-pull emptily when the changed file was only just opened. So
// the check of a change finds the changed files' importers (ImportIndex)
// and, after the change, sends each of them as a forced version
// (Doc.Recheck: didOpen for one not open yet) and waits for the answers to
// those versions, which go to Outcome.Others. An importer the server had
// said nothing of before has no baseline: its errors all count as
// introduced (before.go). Opening it ahead of the change would not give
// one: the server may have learned of the change already, from the
// workspace watcher or its own (tsserver watches files itself).

// maxRecheckDependents bounds the importers one check re-checks.
const maxRecheckDependents = 10

// dependentsOf returns the importers of docs' files to re-check, and
// their importers (importLevels; absolute paths, nearest first, the
// direct ones first, at most maxRecheckDependents, none of docs), then,
// when the server may take a changed file for unchanged
// (sameSecondReopens), every other open document; for a server that
// diagnoses more than its open documents, the importers in modules it
// has no view of (replacingImporters); or nil when the server needs none.
func (c *Client) dependentsOf(ctx context.Context, docs []Doc) []string {
	changed := make([]string, len(docs))
	for i, d := range docs {
		changed[i] = d.Path
	}
	if !c.server.OpenDependents {
		return c.replacingImporters(ctx, changed)
	}
	// A changed file of another root (Doc.Mirror) comes with its
	// importers here, found by the workspace's index (crossroot.go):
	// this root's index finds nothing for a file outside the root. Of
	// the importers it finds, those of a root nested under this one are
	// left to their own server (ownsFile), which crossroot.go sends the
	// change to: one server reports a file, and the other's view of the
	// change goes stale.
	var level, mirrored []string
	for _, d := range docs {
		if d.Mirror {
			mirrored = append(mirrored, d.Importers...)
		} else {
			level = append(level, d.Path)
		}
	}
	mirrored = slices.DeleteFunc(mirrored, func(p string) bool { return slices.Contains(changed, p) })
	deps, _, err := c.deps.transitive(ctx, level, mirrored, c.ownsFile, maxRecheckDependents)
	if err != nil {
		c.log.Warn("finding the importers of changed files", "err", err)
	}
	return c.sameSecondReopens(docs, deps)
}

// importLevels is how far up the import graph transitive looks: the
// importers of a changed file, and theirs, whose inferred types can break
// through the first (pyright: a field removed from a model breaks the
// handler that reads it off a service's result).
const importLevels = 2

// recheckDependents sends each of deps again as a forced version, after
// the change, and adds them to want (URI → version), returning their URIs.
func (c *Client) recheckDependents(deps []string, want map[string]int32) map[string]bool {
	out := make(map[string]bool, len(deps))
	for _, p := range deps {
		if uri, v, err := c.sync(Doc{Path: p, Recheck: true}); err == nil {
			want[uri] = v
			out[uri] = true
		}
	}
	return out
}

// ownsFile reports whether the file at path (absolute) is this server's
// to check: its own root (FindRoot, under the workspace) is the client's,
// not one nested under it. Without a workspace (a client used alone),
// every file is. The answer is kept by directory for the client's life
// (at most maxOwnDirs): every check and every Snapshot asks it of each
// file they hold, and FindRoot stats the markers of each directory up to
// the workspace (pyright's uv marker reads a pyproject.toml too). A root
// marker made, changed or removed under the root forgets it (FilesChanged,
// forgetOwners): most are project files too, whose change starts the server
// afresh with a new client (project.go), but not all (pyright's setup.py,
// setup.cfg and requirements.txt; TypeScript's nx.json, lerna.json).
func (c *Client) ownsFile(path string) bool {
	if c.workspace == "" {
		return true
	}
	dir := filepath.Dir(path)
	c.ownMu.Lock()
	own, ok := c.ownDirs[dir]
	c.ownMu.Unlock()
	if ok {
		return own
	}
	own = FindRoot(path, c.server.RootMarkers, c.workspace) == c.root
	c.ownMu.Lock()
	if c.ownDirs == nil || len(c.ownDirs) >= maxOwnDirs {
		c.ownDirs = make(map[string]bool)
	}
	c.ownDirs[dir] = own
	c.ownMu.Unlock()
	return own
}

// forgetOwners forgets what ownsFile found when events name a root marker
// of the server under the client's root (config.NamesMarker): a nested
// root made or undone there moves the files below it to another server.
func (c *Client) forgetOwners(events []FileEvent) {
	for _, ev := range events {
		if ws.Inside(c.root, ev.Path) && config.NamesMarker(ev.Path, c.server.RootMarkers) {
			c.ownMu.Lock()
			c.ownDirs = nil
			c.ownMu.Unlock()
			return
		}
	}
}

// maxOwnDirs bounds Client.ownDirs: past it, the record starts again.
const maxOwnDirs = 4096
