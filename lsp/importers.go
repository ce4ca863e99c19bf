package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"

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
//
// One check re-checks at most maxRecheckDependents importers, the nearest.
// Those past them are answered only when the server says something of them
// during the check anyway (an open document pulled or re-published, or
// one of the files tsserver's pull adds); the rest are named in the answer
// (ErrImportersCap, Outcome.ImportersLeft), which is partial: measured
// with typescript-language-server 5.3.0 and pyright 1.1.414 on a function
// forty files call, a signature change left 12 and 32 of the errors tsc
// and pyright report in no answer and no note before (cmd/lsp-hook
// TestImportersPastTheCapNoted).

// maxRecheckDependents bounds the importers one check re-checks.
const maxRecheckDependents = 10

// dependentsOf returns the importers of docs' files to re-check, and
// theirs (recheckLevels; absolute paths, nearest first, the direct ones
// first, at most maxRecheckDependents, none of docs), then, when the
// server may take a changed file for unchanged (sameSecondReopens), every
// other open document; for a server that diagnoses more than its open
// documents, the importers in modules it has no view of
// (replacingImporters); or nil when the server needs none.
//
// past holds the importers it found and does not re-check — past
// maxRecheckDependents, or further away than recheckLevels, looked for
// while the server checks — and whether there may be more:
// a change can break them, and only an answer of the server's that
// arrives during the check says what it did to one (an open document
// pulled, or re-published on the changed file's didSave; importersLeft).
func (c *Client) dependentsOf(ctx context.Context, docs []Doc) (deps []string, past importersPast) {
	changed := make([]string, len(docs))
	for i, d := range docs {
		changed[i] = d.Path
	}
	if !c.server.OpenDependents {
		return c.replacingImporters(ctx, changed), importersPast{}
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
	recheck, limit := recheckLevels(changed), maxRecheckDependents
	if slices.ContainsFunc(docs, func(d Doc) bool { return d.AllImporters }) {
		recheck, limit = importLevels, MaxDependents
	}
	w := c.deps.walk(level, mirrored, c.ownsFile, limit, recheck)
	w.before = c.globalsBefore(ctx, docs)
	err := w.to(ctx, recheck)
	if err != nil {
		c.log.Warn("finding the importers of changed files", "err", err)
	}
	past = importersPast{walk: w, walked: make(chan struct{}), stop: new(atomic.Bool), checked: len(w.deps)}
	if err != nil || w.done {
		close(past.walked) // nothing past them to look for
		return c.sameSecondReopens(docs, slices.Clone(w.deps)), past
	}
	// The importers past them are looked for while the server checks:
	// only the answer's note needs them, and on a 2,000-file project a
	// level costs milliseconds (BenchmarkCheckImporters). The level past
	// is always walked; the walk goes on level by level until it is done,
	// or until the note is asked for (importersPast.found).
	go func() {
		defer close(past.walked)
		for levels := recheck + 1; levels <= importLevels; levels++ {
			if err := w.to(ctx, levels); err != nil {
				if ctx.Err() == nil {
					c.log.Warn("finding the importers past those re-checked", "err", err)
				}
				return
			}
			if w.done || past.stop.Load() {
				return
			}
		}
	}()
	return c.sameSecondReopens(docs, slices.Clone(w.deps)), past
}

// importersPast are the importers of a check's changed files that it does
// not re-check (dependentsOf): those past the nearest
// maxRecheckDependents, and those further away than recheckLevels, looked
// for while the server checks; those the walk had not reached when the
// server answered are not looked for (capped).
type importersPast struct {
	// walk is the walk that found them (beyond, capped), once walked is
	// closed; nil when there are none.
	walk   *importWalk
	walked chan struct{}
	// stop ends the walk after the level it is on.
	stop *atomic.Bool
	// checked is how many importers the check re-checks.
	checked int
}

// found stops the walk after the level it is on, at the earliest one
// level past those re-checked, waits for it, and returns the importers
// found past those re-checked, nearest first, and whether there may be
// more (transitive's beyond and capped).
func (p importersPast) found() (beyond []string, capped bool) {
	if p.walk == nil {
		return nil, false
	}
	p.stop.Store(true)
	<-p.walked
	return p.walk.beyond, p.walk.capped || !p.walk.done
}

// recheckLevels returns how many imports away from changed (absolute
// paths) a check re-checks importers: two — the importers of a changed
// file and theirs, whose inferred types can break through the first
// (pyright: a field removed from a model breaks the handler that reads it
// off a service's result) — or, when one of changed is a C-family header,
// every level (importLevels): a header is included textually, so a source
// file reaching the changed header through a chain of headers includes
// its declarations as if it included it, and is its caller. Importers
// further away are named when the server says nothing of them
// (importersLeft), not re-checked: measured on Python 3.11's email package
// with pyright 1.1.414, re-checking ten importers however far took a warm
// edit of feedparser.py from 0.37 s to 2.8 s (its importers are the
// package's other modules, through each other).
func recheckLevels(changed []string) int {
	for _, p := range changed {
		if isCHeader(p) {
			return importLevels
		}
	}
	return 2
}

// isCHeader reports whether path is a C, C++ or Objective-C header by its
// extension (rulesFor's C family, less its source files).
func isCHeader(path string) bool {
	switch filepath.Ext(path) {
	case ".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".ipp", ".tpp":
		return true
	}
	return false
}

// importersLeft returns the error for the importers of a check it did not
// re-check (dependentsOf's past) that got no answer from the server since
// mark, the store's arrival number before the change went out, or nil
// when every one did and there were no more: how many were left, and the
// nearest three, named as the lint block names files (ErrImportersCap).
func (c *Client) importersLeft(past importersPast, mark uint64) error {
	beyond, capped := past.found()
	if len(beyond) == 0 && !capped {
		return nil
	}
	arrived := c.store.since(mark)
	var left []string
	for _, p := range beyond {
		if _, ok := arrived[pathToURI(p)]; !ok {
			left = append(left, p)
		}
	}
	if len(left) == 0 && !capped {
		return nil
	}
	uris := make([]string, 0, 3)
	for _, p := range left[:min(len(left), 3)] {
		uris = append(uris, pathToURI(p))
	}
	listed := past.checked + len(beyond) // those re-checked, and those past them it found
	var which string
	switch {
	case len(left) == 0:
		which = fmt.Sprintf("any past the first %d, which lsp-hook did not look for", listed)
	default:
		named := c.relPaths(uris)
		if len(left) > len(uris) {
			named += ", …"
		}
		which = fmt.Sprintf("%d past the first %d (%s)", len(left), past.checked, named)
		if capped {
			which += fmt.Sprintf(", and any past the first %d, which lsp-hook did not look for", listed)
		}
	}
	return fmt.Errorf("%w: %s", ErrImportersCap, which)
}

// importersPartial makes o's fresh answer Partial when it left importers
// unanswered (Outcome.ImportersLeft): the changed files' answers are
// whole, what the change did to those importers is not known, and silence
// would read as none broken.
func importersPartial(o Outcome) Outcome {
	if o.ImportersLeft != nil && o.Err == nil && o.Freshness == Fresh {
		o.Err, o.Freshness, o.ServerMS = o.ImportersLeft, Partial, 0
	}
	return o
}

// ErrImportersCap says files that import a changed one (directly or
// through others) got no answer in its check: they were past those it
// re-checks (the nearest maxRecheckDependents, within recheckLevels), and
// the server said nothing of them. What the change did to them is
// unknown.
var ErrImportersCap = errors.New("files importing a changed one were not checked again")

// importLevels bounds how far up the import graph a walk looks when it
// looks however far: a batch's (Importers) and a C header's check
// (recheckLevels). Each walk stops at the first level that adds no file,
// or when it has found MaxDependents past those it re-checks; the bound
// only caps a walk over files that are outside input. A change breaks
// importers of importers, through inferred types and re-exports (a barrel
// of barrels, a Python module passing on a name it imported, a header
// including one that includes the changed one). A hook's check looked two
// levels up and said nothing of the rest until a caller three imports
// away was silence in pyright's and clangd's answers while the compiler
// rejected it (cmd/lsp-hook TestHookImportersThroughRelays).
const importLevels = 64

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
