package lsp

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file handles files that disappear: deleted, or renamed away (`rm`,
// `mv`, `git mv`, `git checkout` of a file added since). A server keeps the
// text of an open document whatever the disk says (gopls treats it as an
// overlay), so a deleted file whose document stays open goes on defining
// what callers use and listing its own errors. Whoever sees the file gone
// first — the workspace watcher (FilesChanged), a hook that finds no file
// at its path (Manager.Gone), or the mtime re-sync (resyncChangedOnDisk) —
// closes the document (didClose), forgets what the server said about it,
// and sends the deletion (workspace/didChangeWatchedFiles, Deleted) to a
// server that asked to watch such files. The new path of a rename is a
// created file: the watcher reports it, and a hook that names it opens it.

// closeGone closes the open documents among paths (absolute) whose file no
// longer exists, forgets their diagnostics, and returns the paths it
// closed. A path that exists again (deleted, then written anew) is left
// open: the re-sync sends its new text.
func (c *Client) closeGone(paths []string) []string {
	var gone []string
	for _, p := range paths {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	closed := c.closeDocs(gone)
	c.mu.Lock()
	for _, p := range closed {
		// A directory whose files went may go too and come back: its
		// first file then is new to the server again (newDirLocked).
		delete(c.dirs, filepath.Dir(p))
	}
	c.mu.Unlock()
	for _, p := range closed {
		c.store.reopen(pathToURI(p))
	}
	if len(closed) > 0 {
		c.log.Info("closed documents whose file is gone", "paths", closed)
	}
	return closed
}

// maxDeleted bounds Client.deleted: past it, the oldest record goes.
const maxDeleted = 256

// noteDeleted records, for each of paths not recorded yet, the store's
// arrival number now: what the server publishes after it may be its
// answer to the deletion that is about to reach it. A hook that names the
// file later (Manager.Gone) counts those publications as the deletion's
// answer, whenever they came: the watcher may have passed the deletion on
// long before the hook, and the server answered it then.
//
// Each deletion it is told of also changed what the server reads from
// disk, though nothing may be sent to it (clangd 14 watches no files, and
// never had a header open): whoever saw it — a hook, or the watcher — the
// next forced re-check of an unchanged text must go out, not take the
// answer of one sent before the file went (Client.sync). A path recorded
// already counts again: the file may have come back unseen and gone
// again.
func (c *Client) noteDeleted(paths []string) {
	if len(paths) == 0 {
		return
	}
	mark, _ := c.store.mark()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sends++
	c.changed = c.sends
	for _, p := range paths {
		if _, ok := c.deleted[p]; ok {
			continue
		}
		if len(c.deleted) >= maxDeleted {
			oldest, at := "", uint64(math.MaxUint64)
			for q, m := range c.deleted {
				if m < at {
					oldest, at = q, m
				}
			}
			delete(c.deleted, oldest)
		}
		c.deleted[p] = mark
	}
}

// forgetDeleted drops the deletion records of paths: they exist again.
func (c *Client) forgetDeleted(paths []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range paths {
		delete(c.deleted, p)
	}
}

// deletedMark returns the earliest arrival number noteDeleted recorded
// for paths, and whether there was one.
func (c *Client) deletedMark(paths []string) (uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var mark uint64
	found := false
	for _, p := range paths {
		if m, ok := c.deleted[p]; ok && (!found || m < mark) {
			mark, found = m, true
		}
	}
	return mark, found
}

// goneBeforeServer returns those of gone (deleted files) that were
// deleted before the client was made (Client.began), so before its
// server read anything: the nearest directory above each that still
// exists was last changed before then — a deletion changes its
// directory's modification time, so the deletion was at or before it.
// Such a file was never in the server's view; its deletion was hooked
// late (a Bash rm, a patch, whose hook came after a prewarm or another
// file's hook had started the server). A deletion while the server
// loaded is not one: the server may have read the file, and what it
// said then of the importers is older than the deletion (make soak,
// seed 6715417223403443842, Python #45: a stale import error when the
// bound was the server's first answer).
func (c *Client) goneBeforeServer(gone []string) []string {
	var out []string
	for _, p := range gone {
		for d := filepath.Dir(p); ws.Inside(c.root, d); d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err == nil {
				if fi.ModTime().Before(c.began) {
					out = append(out, p)
				}
				break
			}
			if d == c.root {
				break
			}
		}
	}
	return out
}

// publishedSince returns, by path, what the server said of the files it
// published since mark, other than skip and files gone or being pulled:
// each file's newest answer.
func (c *Client) publishedSince(mark uint64, skip map[string]bool) map[string][]diag.Diagnostic {
	out := make(map[string][]diag.Diagnostic)
	for uri, snap := range c.store.since(mark) {
		if c.store.pulling(uri) {
			continue
		}
		path, err := uriToPath(uri)
		if err != nil || skip[path] {
			continue
		}
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			continue
		}
		out[path] = c.merge(path, uri, snap.lists())
	}
	return out
}

// forgetGone closes the open documents among paths whose file no longer
// exists (closeGone), sends the deletion of every such path to the server
// when one of its registered watchers wants it, as the watcher would have
// (a repeat of what the watcher sent does no harm), and returns the paths
// it closed. With across, such a path outside the server's root is sent
// whatever the server registered for (goneAcross: a file of another root
// that its program imports, which no watcher of its root names).
func (c *Client) forgetGone(paths []string, across bool) []string {
	if c.Err() != nil {
		return nil
	}
	var gone []string
	for _, p := range paths {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	c.noteDeleted(gone)
	closed := c.closeGone(paths)
	watchers := c.regs.watchers()
	var changes []fileEventWire
	var unopened []string
	for _, p := range gone {
		if across && !ws.Inside(c.root, p) {
			changes = append(changes, fileEventWire{URI: pathToURI(p), Type: FileDeleted})
			if !slices.Contains(closed, p) {
				unopened = append(unopened, p)
			}
			continue
		}
		for _, w := range watchers {
			if w.matches(p, FileDeleted, c.root) {
				changes = append(changes, fileEventWire{URI: pathToURI(p), Type: FileDeleted})
				break
			}
		}
	}
	if len(changes) > 0 {
		if err := c.notify("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: changes}); err != nil {
			c.log.Warn("sending deleted files", "changes", len(changes), "err", err)
		}
	}
	if c.server.ClosesGoneAcross {
		c.openClosed(unopened)
	}
	return closed
}

// openClosed sends, for each of paths (absolute, files gone) that has no
// document open, a didOpen of an empty text and its didClose straight
// after (LSP 3.17 "DidOpenTextDocument", "DidCloseTextDocument"), and
// keeps no document of it: a server that learns of a deleted file of
// another root late from the watched-file event re-reads it at its close
// (config.Server.ClosesGoneAcross). syncMu keeps a sync of the same path
// from opening it in between.
func (c *Client) openClosed(paths []string) {
	if len(paths) == 0 {
		return
	}
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	var sent []string
	for _, p := range paths {
		uri := pathToURI(p)
		c.mu.Lock()
		_, open := c.docs[uri]
		c.mu.Unlock()
		if open {
			continue
		}
		err := c.notify("textDocument/didOpen", didOpenParams{TextDocument: TextDocumentItem{
			URI: uri, LanguageID: c.server.LanguageIDFor(p), Version: 1,
		}})
		if err == nil {
			err = c.notify("textDocument/didClose", didCloseParams{TextDocument: TextDocumentIdentifier{URI: uri}})
		}
		if err != nil {
			c.log.Warn("opening and closing gone files of another root", "path", p, "err", err)
			return
		}
		sent = append(sent, p)
	}
	if len(sent) > 0 {
		c.log.Info("opened and closed gone files of another root", "paths", sent)
	}
}

// maxNeighbours bounds the documents re-checked after a deletion.
const maxNeighbours = 3

// neighbours returns the documents to re-check after the files gone were
// deleted, so that the server's answer about what the deletion broke can
// be waited for: first the importers of a gone file, for a server that
// checks only what is open (config.Server.OpenDependents: dependentsOf,
// within ctx), then, up to n in all, the open documents, those in a
// deleted file's directory first, then by path; with none open, the files
// of the server's languages beside a deleted file on disk; with none of
// those, for a server that checks more than what is open (gopls), the
// files importing a gone Go file's package (goneGoImporters). Those come
// last because what is sent stays open: with an importer open, gopls
// answered the Stop gate's showing of the text before the session (a file
// of a package whose directory is gone, which gopls cannot load from an
// overlay) with the importer's error still there, and the gate warned
// where it must block (TestStopGateDeletedFile). past is
// dependentsOf's: the importers of a gone file it does not re-check.
func (c *Client) neighbours(ctx context.Context, gone []string, n int) (out []Doc, past importersPast) {
	goneDocs := make([]Doc, len(gone))
	for i, p := range gone {
		goneDocs[i] = Doc{Path: p}
	}
	deps, past := c.dependentsOf(ctx, goneDocs)
	for _, p := range deps {
		out = append(out, Doc{Path: p, Recheck: true})
	}
	n = max(n, len(out))
	dirs := make(map[string]bool, len(gone))
	for _, p := range gone {
		dirs[filepath.Dir(p)] = true
	}
	c.mu.Lock()
	var open []string
	for _, d := range c.docs {
		open = append(open, d.path)
	}
	c.mu.Unlock()
	slices.SortFunc(open, func(a, b string) int {
		if da, db := dirs[filepath.Dir(a)], dirs[filepath.Dir(b)]; da != db {
			if da {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	if len(open) == 0 {
		for _, dir := range slices.Sorted(maps.Keys(dirs)) {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if p := filepath.Join(dir, e.Name()); e.Type().IsRegular() && c.server.LanguageIDFor(p) != "" {
					open = append(open, p)
				}
			}
		}
	}
	for _, p := range open {
		if len(out) >= n {
			break
		}
		if !slices.ContainsFunc(out, func(d Doc) bool { return d.Path == p }) {
			out = append(out, Doc{Path: p, Recheck: true})
		}
	}
	if len(out) == 0 && !c.server.OpenDependents {
		for _, p := range c.goneGoImporters(ctx, gone, n) {
			out = append(out, Doc{Path: p, Recheck: true})
		}
	}
	return out, past
}

// Gone tells every running server that the files at paths (absolute) are
// gone, for those that are: a hook named a file that no longer exists (an
// agent's Write, then `rm`, then the Write's hook), which the workspace
// watcher may not have reported yet, or at all (no watcher, a directory it
// could not watch). Each server's open document for such a file is closed
// and its deletion sent (forgetGone); files that exist are left alone.
// Then, so that what the deletion broke is reported, each server of a gone
// file's language under whose root it lay — whether the document was open
// or not, closed here or by the watcher — re-checks a few documents near
// it (neighbours) under ctx and settle, and Gone returns those answers,
// one Outcome per server, with every file in Others: none of them is a
// changed file.
func (m *Manager) Gone(ctx context.Context, paths []string, settle time.Duration) []Outcome {
	var abs []string
	for _, p := range paths {
		if filepath.IsAbs(p) {
			abs = append(abs, filepath.Clean(p))
		}
	}
	if len(abs) == 0 {
		return nil
	}
	if settle <= 0 {
		settle = DefaultSettle
	}
	var (
		mu  sync.Mutex
		out []Outcome
		wg  sync.WaitGroup
	)
	add := func(o Outcome) {
		mu.Lock()
		out = append(out, o)
		mu.Unlock()
	}
	// A gone project file (a deleted tsconfig.json) changed how its
	// server checks the files under it: the server starts afresh and its
	// documents are checked again (reloadProjects).
	var gone []Doc
	for _, p := range abs {
		gone = append(gone, Doc{Path: p})
	}
	for _, r := range m.reloadProjects(gone) {
		if len(r.docs) > 0 {
			var paths []string
			for _, d := range r.docs {
				paths = append(paths, d.Path)
			}
			wg.Go(func() {
				for _, o := range m.check(ctx, r.docs, settle, false) {
					add(asOthers(o, paths, r.capped))
				}
			})
		}
	}
	handled := make(map[entryKey]bool)
	for _, e := range m.readyEntries() {
		handled[e.key] = true
		c := e.client
		c.forgetGone(abs, false)
		if closed := c.goneHere(abs); len(closed) > 0 {
			wg.Go(func() {
				if o, ok := m.recheckGone(ctx, e, closed, settle); ok {
					add(o)
				}
			})
		}
	}
	// Files of other roots of a gone file's server that import it (a
	// monorepo's packages) are re-checked by their own root's server.
	importers, skipped := m.goneImporters(ctx, abs)
	for k, ps := range importers {
		wg.Go(func() { add(m.goneAcross(ctx, k, abs, ps, settle)) })
	}
	for _, o := range skipped {
		add(o)
	}
	// A gone file whose server is not running — crashed, in its
	// back-off, still starting, or never started — must not be passed
	// over in silence: what the deletion broke is unknown until a server
	// has looked. The server is started (acquire: a crashed one once its
	// back-off is over) and re-checks the neighbours; while it cannot
	// start, its error is the answer, so the agent hears why nothing was
	// checked.
	for _, k := range m.goneKeys(ctx, abs, handled) {
		wg.Go(func() { add(m.goneVia(ctx, k, abs, settle)) })
	}
	// Go files embedding a gone file (embed.go) are checked again, their
	// packages loaded afresh by a running server, or by one started.
	if embedders := m.embeddersOfGone(abs); len(embedders) > 0 {
		wg.Go(func() {
			docs := make([]Doc, len(embedders))
			for i, p := range embedders {
				docs[i] = Doc{Path: p, Recheck: true}
			}
			for _, o := range m.check(ctx, docs, settle, false) {
				add(asOthers(o, embedders, false))
			}
		})
	}
	wg.Wait()
	return out
}

// embeddersOfGone returns the Go files under the workspace (absolute
// paths) whose //go:embed directives may have matched a file of abs that
// is gone, when an enabled server reloads such packages
// (config.Server.EmbedReloadCommand), and notes them on its running
// clients for their next check.
func (m *Manager) embeddersOfGone(abs []string) []string {
	var gone []string
	for _, p := range abs {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			gone = append(gone, p)
		}
	}
	reloads := false
	for _, s := range m.cfg.LSP.Servers {
		reloads = reloads || s.Enabled && s.EmbedReloadCommand != ""
	}
	if !reloads || len(gone) == 0 {
		return nil
	}
	embedders := embeddersOf(m.workspace, gone)
	for _, e := range m.readyEntries() {
		if e.client.server.EmbedReloadCommand != "" {
			e.client.noteEmbedders(slices.DeleteFunc(slices.Clone(embedders), func(p string) bool {
				_, inside := ws.Rel(e.client.root, p)
				return !inside
			}))
		}
	}
	return embedders
}

// goneHere returns those of abs that lay under c's root, in a language c
// serves, and are gone from disk.
func (c *Client) goneHere(abs []string) []string {
	var closed []string
	for _, p := range abs {
		if rel, inside := ws.Rel(c.root, p); inside && rel != "." && c.server.LanguageIDFor(p) != "" {
			if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
				closed = append(closed, p)
			}
		}
	}
	return closed
}

// goneKeys returns, sorted, the (server, root) pairs that serve a file of
// abs that is gone, other than those in handled, whose server this daemon
// has run (ranBefore), or that git's HEAD holds (the file was there: a
// deletion hooked as a fresh daemon's first event, its servers not
// started yet — Codex's apply_patch deleting a file at a session's start),
// or that files of its root import (importedUnder: a repository with no
// commit yet, its header moved before its server ever ran, left the file
// including it answered clean while clang rejected it), or whose package
// lives on in its directory (packageLeft: a Go file no commit held,
// deleted before gopls ran, left its package's callers answered clean
// while go build rejected them). A file never checked that no server
// knows of, git does not hold, nothing imports and no package of its
// directory may have held says nothing of a deletion (a hook naming a path
// that never existed, in a directory of no such files, starts nothing).
func (m *Manager) goneKeys(ctx context.Context, abs []string, handled map[entryKey]bool) []entryKey {
	seen := make(map[entryKey]bool)
	var keys []entryKey
	headHeld := sync.OnceValue(func() []string { return ws.DeletedFromHead(ctx, m.workspace) })
	for _, p := range abs {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		for _, s := range m.cfg.ServersForPath(p) {
			k := entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}
			if !handled[k] && !seen[k] && (m.ranBefore(k) || slices.Contains(headHeld(), p) || m.importedUnder(ctx, s, k.root, p) || packageLeft(s, p)) {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, func(a, b entryKey) int {
		return strings.Compare(a.server+"\x00"+a.root, b.server+"\x00"+b.root)
	})
	return keys
}

// importedUnder reports whether a file under root imports the file at
// path (absolute, gone) by name, by s's import rules (the workspace's
// index for s, Manager.wideIndex, for a server with OpenDependents). A
// listing failure counts as imported: the server then looks. A Go file is
// named by no importer (a package is): packageLeft asks of it instead.
func (m *Manager) importedUnder(ctx context.Context, s config.Server, root, path string) bool {
	if !s.OpenDependents {
		return false
	}
	under := func(p string) bool {
		_, inside := ws.Rel(root, p)
		return inside
	}
	deps, _, err := m.wideIndex(s).dependentsWhere(ctx, []string{path}, under, &globalsQuery{})
	return err != nil || len(deps) > 0
}

// packageLeft reports whether the gone file at path belonged to a
// package that is still there, by s's rules: for a server whose files are
// found by package, not imported by name (no OpenDependents: gopls), its
// directory holds another file s serves. A read failure counts: the
// server then looks.
func packageLeft(s config.Server, path string) bool {
	if s.OpenDependents {
		return false // importedUnder's question
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	return slices.ContainsFunc(entries, func(e fs.DirEntry) bool {
		return !e.IsDir() && e.Name() != filepath.Base(path) && s.ServesPath(e.Name())
	})
}

// ranBefore reports whether k's server was started in this daemon and
// found: it is starting, running, crashed or in its back-off.
func (m *Manager) ranBefore(k entryKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[k]
	if !ok {
		return false
	}
	select {
	case <-e.ready:
		return !e.missing
	default:
		return true
	}
}

// goneVia starts k's server, or waits for its start, and has it re-check
// the neighbours of the files of abs gone under its root (recheckGone).
// A server that cannot start (in its crash back-off, given up, missing,
// failing to start within ctx) answers with its error and no freshness.
func (m *Manager) goneVia(ctx context.Context, k entryKey, abs []string, settle time.Duration) Outcome {
	e, _, failed := m.started(ctx, k, nil)
	if e == nil {
		m.log.Info("not re-checked after deletion", "server", k.server, "root", k.root, "err", failed.Err)
		return failed
	}
	defer m.release(e)
	if o, ok := m.recheckGone(ctx, e, e.client.goneHere(abs), settle); ok {
		return o
	}
	return Outcome{Server: k.server, Root: k.root, Freshness: Fresh}
}

// recheckGone has e's server re-check the neighbours of the files closed
// (gone) under ctx and settle, and returns its answer with every file in
// Others: none of them is a changed file. ok is false when there is no
// neighbour to re-check.
func (m *Manager) recheckGone(ctx context.Context, e *entry, closed []string, settle time.Duration) (Outcome, bool) {
	c := e.client
	docs, past := c.neighbours(ctx, closed, maxNeighbours)
	if len(docs) == 0 {
		return Outcome{}, false
	}
	before, _ := c.store.mark()
	e.docs.RLock()
	o := c.Update(ctx, docs, settle)
	e.docs.RUnlock()
	if err := c.importersLeft(past, before); err != nil { // the gone files' own importers first
		o.ImportersLeft = err
	}
	o = importersPartial(o)
	if o.Others == nil {
		// Update leaves it nil when it gives up early (a document to
		// sync gone meanwhile); the answers gathered below go in it, and
		// writing to a nil map killed the daemon (make soak, seed
		// 7296602948696765552, C #56: headers/shapes.h gone as a header
		// directory moved back, then a git mv — the hook's connection
		// closed, the daemon gone without a word).
		o.Others = make(map[string][]diag.Diagnostic)
	}
	for path, ds := range o.Files {
		o.Others[path] = ds
	}
	o.Files, o.OthersBefore = nil, nil
	skip := make(map[string]bool, len(o.Others)+len(closed))
	for path := range o.Others {
		skip[path] = true
	}
	for _, p := range closed {
		skip[p] = true
	}
	// The server may have answered the deletion before this re-check
	// began (the watcher told it first): what it published since it was
	// told is part of the answer, though the re-check's own wait saw none
	// of it arrive.
	if mark, ok := c.deletedMark(closed); ok {
		maps.Copy(o.Others, c.publishedSince(mark, skip))
	}
	// A file gone before the server started was never in its view: the
	// errors it gave since in the files the deletion can reach (brokenBy)
	// are the deletion's answer, though none came after the re-check
	// began — gopls publishes a closed importer once, and not again for
	// a deletion it has no news of (TestGoneOlderThanServer). A server
	// that diagnoses open files only (OpenDependents) answered the
	// re-checked importers afresh. A file it said nothing wrong of adds
	// nothing, and is not read.
	if older := c.goneBeforeServer(closed); len(older) > 0 && !c.server.OpenDependents {
		c.addReachable(o.Others, skip, older)
	}
	m.log.Info("re-checked after deletion", "server", c.server.Name, "root", c.root,
		"deleted", closed, "rechecked", len(docs), "freshness", o.Freshness)
	return o, true
}

// readyEntries returns the entries whose server is running.
func (m *Manager) readyEntries() []*entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*entry
	for _, e := range m.entries {
		if c := e.readyClient(); c != nil && c.Err() == nil {
			out = append(out, e)
		}
	}
	return out
}
