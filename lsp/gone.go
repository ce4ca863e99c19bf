package lsp

import (
	"errors"
	"os"
	"path/filepath"
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
	for _, p := range closed {
		c.store.reopen(pathToURI(p))
	}
	if len(closed) > 0 {
		c.log.Info("closed documents whose file is gone", "paths", closed)
	}
	return closed
}

// forgetGone closes the open documents among paths whose file no longer
// exists (closeGone) and sends their deletion to the server when one of
// its registered watchers wants it, as the watcher would have.
func (c *Client) forgetGone(paths []string) {
	if c.Err() != nil {
		return
	}
	closed := c.closeGone(paths)
	if len(closed) == 0 {
		return
	}
	watchers := c.regs.watchers()
	var changes []fileEventWire
	for _, p := range closed {
		for _, w := range watchers {
			if w.matches(p, FileDeleted, c.root) {
				changes = append(changes, fileEventWire{URI: pathToURI(p), Type: FileDeleted})
				break
			}
		}
	}
	if len(changes) == 0 {
		return
	}
	if err := c.notify("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: changes}); err != nil {
		c.log.Warn("sending deleted files", "changes", len(changes), "err", err)
	}
}

// Gone tells every running server that the files at paths (absolute) are
// gone, for those that are: a hook named a file that no longer exists (an
// agent's Write, then `rm`, then the Write's hook), which the workspace
// watcher may not have reported yet, or at all (no watcher, a directory it
// could not watch). Each server's open document for such a file is closed
// and its deletion sent (see forgetGone); files that exist are left alone.
func (m *Manager) Gone(paths []string) {
	var abs []string
	for _, p := range paths {
		if filepath.IsAbs(p) {
			abs = append(abs, filepath.Clean(p))
		}
	}
	if len(abs) == 0 {
		return
	}
	for _, c := range m.readyClients() {
		c.forgetGone(abs)
	}
}
