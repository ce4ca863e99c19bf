package lsp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// reloadProjects starts afresh the running servers whose project
// configuration one of docs is (config.Server.ProjectFiles: a
// tsconfig.json, a pyrightconfig.json, a compile_flags.txt in the
// server's root or under it) and changed since the server's slot was
// made, and returns, per slot, the documents its server had open, read
// from disk, for the check to open again in the new server: their
// diagnostics under the new configuration are the change's answer. A
// server reads its project files when it starts or first opens a file
// under them, and none of the catalogue's reads them again on a
// didChange of a document: a didChangeWatchedFiles is all a change of
// one would get, and how soon each acts on it (if at all: clangd 14
// caches compile_flags.txt) is its own. A deleted project file counts as
// changed. Docs that are no project file of a running server change
// nothing.
func (m *Manager) reloadProjects(docs []Doc) map[entryKey][]Doc {
	var changed []string
	for _, d := range docs {
		changed = append(changed, d.Path)
	}
	m.mu.Lock()
	var stale []*entry
	for k, e := range m.entries {
		if c := e.readyClient(); c == nil || c.Err() != nil {
			continue
		}
		if slices.ContainsFunc(changed, func(p string) bool { return e.projectFileChanged(p) }) {
			stale = append(stale, e)
			delete(m.entries, k)
		}
	}
	m.mu.Unlock()
	out := make(map[entryKey][]Doc)
	for _, e := range stale {
		paths := e.client.openPaths()
		m.log.Info("restarting server: its project configuration changed", "server", e.key.server, "root", e.key.root,
			"reopening", len(paths))
		var reopen []Doc
		for _, p := range paths {
			if text, err := readBounded(p, maxConvertRead); err == nil {
				reopen = append(reopen, Doc{Path: p, Text: text, FromDisk: true})
			}
		}
		out[e.key] = reopen
	}
	if len(stale) > 0 {
		m.background(func() { stopEntries(stale) })
	}
	return out
}

// projectFileChanged reports whether path is one of the server's project
// files (config.Server.ProjectFiles, by base name) in e's root or under
// it, changed since e was made: modified after, or gone.
func (e *entry) projectFileChanged(path string) bool {
	if !slices.Contains(e.server.ProjectFiles, filepath.Base(path)) || !within(e.root, path) {
		return false
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return err == nil && fi.ModTime().After(e.created)
}

// rootProjectChanged returns the first of the server's project files in
// e's root that was modified after e was made, "" when none was: a
// change no check named (a shell command whose hook did not come, the
// user's editor) still starts the server afresh before its next check,
// though only a check that names the file opens the server's documents
// again (reloadProjects).
func (e *entry) rootProjectChanged() string {
	for _, name := range e.server.ProjectFiles {
		if fi, err := os.Stat(filepath.Join(e.root, name)); err == nil && fi.ModTime().After(e.created) {
			return name
		}
	}
	return ""
}

// within reports whether path lies in dir or under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// openPaths returns the paths of the client's open documents, sorted.
func (c *Client) openPaths() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for uri := range c.docs {
		if p, err := uriToPath(uri); err == nil {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
