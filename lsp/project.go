package lsp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// MaxProjectDocs bounds the files a project file's change has its server
// check again (reloadProjects): the documents it had open first, then
// other files it serves under its root; and the files of a changed
// project that Importers adds, per project file.
const MaxProjectDocs = 100

// ErrProjectCap says a project file's change had more files under its
// server's root than MaxProjectDocs: those past it were not checked
// again, and their errors are unknown.
var ErrProjectCap = errors.New("not every file of the project was checked again after its configuration changed")

// projectReload is what a change of a running server's project files
// (config.Server.ProjectFiles) asks of its slot: the files to check
// again, and whether there were more than MaxProjectDocs (capped).
type projectReload struct {
	docs   []Doc
	capped bool
}

// reloadProjects finds, among docs, project files of running servers
// (config.Server.ProjectFiles: a tsconfig.json, a pyrightconfig.json, a
// compile_flags.txt in the server's root or under it). A server reads
// them when it starts or first opens a file, and none of the catalogue's
// reads them again on a didChange of a document (a didChangeWatchedFiles
// is all a change would get, and how soon each acts on it, if at all, is
// its own and undocumented): each such server whose
// project file changed since its slot was made (modified after, or gone)
// is started afresh. For every slot whose project file is among docs,
// changed or not, it returns the files to check: the documents the
// server had open, then the other files it serves under its root (no
// headers, nothing in hidden or dependency directories), up to
// MaxProjectDocs, read from disk. A configuration change can break any
// file of the project, and pyright and clangd say nothing of a file that
// is not open; their answers are the change's.
func (m *Manager) reloadProjects(docs []Doc) map[entryKey]projectReload {
	var named []string
	for _, d := range docs {
		named = append(named, d.Path)
	}
	m.mu.Lock()
	var stale, hit []*entry
	present := make(map[entryKey]bool)
	for k, e := range m.entries {
		present[k] = true
		if !slices.ContainsFunc(named, e.isProjectFile) {
			continue
		}
		// A server still starting reads the project files as they are
		// now (a check that found one changed started it afresh,
		// checkOne's rootProjectChanged), but its files are checked all
		// the same: nothing else checks them again.
		c := e.readyClient()
		if c != nil && c.Err() != nil {
			continue
		}
		hit = append(hit, e)
		if c != nil && slices.ContainsFunc(named, func(p string) bool { return m.projectFileChanged(e, p) }) {
			stale = append(stale, e)
			delete(m.entries, k)
		}
	}
	m.mu.Unlock()
	out := make(map[entryKey]projectReload)
	read := func(paths []string, capped bool) projectReload {
		r := projectReload{capped: capped}
		for _, p := range paths {
			if text, err := readBounded(p, maxConvertRead); err == nil {
				r.docs = append(r.docs, Doc{Path: p, Text: text, FromDisk: true})
			}
		}
		return r
	}
	for _, e := range hit {
		var open []string
		if c := e.readyClient(); c != nil {
			open = c.openPaths()
		}
		paths, capped := projectPaths(e.root, e.server, open)
		if slices.Contains(stale, e) {
			m.log.Info("restarting server: its project configuration changed", "server", e.key.server, "root", e.key.root,
				"checking", len(paths), "capped", capped)
		}
		out[e.key] = read(paths, capped)
	}
	// A project file of a server not running in its root (a fresh
	// daemon's first event, a server stopped while idle): the server is
	// started to check the files it serves there, when there are any.
	names := sortedNames(m.cfg.LSP.Servers)
	for _, p := range named {
		for _, name := range names {
			s := m.cfg.LSP.Servers[name]
			if !s.Enabled || !s.IsProjectFile(p) {
				continue
			}
			k := entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}
			if present[k] || !ws.Inside(k.root, p) {
				continue
			}
			present[k] = true
			if paths, capped := projectPaths(k.root, s, nil); len(paths) > 0 {
				m.log.Info("checking a project whose configuration changed", "server", k.server, "root", k.root,
					"checking", len(paths), "capped", capped)
				out[k] = read(paths, capped)
			}
		}
	}
	if len(stale) > 0 {
		m.background(func() { stopEntries(stale) })
	}
	return out
}

// projectPaths returns open, then the files server serves under root, in
// walk order, up to MaxProjectDocs, and whether it left any out (the walk
// stops there, so a large tree costs no more than the cap). Headers
// (an extension beginning ".h") are left out: a header is checked as part
// of the files that include it.
func projectPaths(root string, server config.Server, open []string) (paths []string, capped bool) {
	paths = slices.Clone(open)
	seen := make(map[string]bool, len(open))
	for _, p := range open {
		seen[p] = true
	}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || slices.Contains(server.DependencyDirs, d.Name()) ||
			d.Name() == "node_modules" || d.Name() == "vendor" || d.Name() == "__pycache__"):
			return filepath.SkipDir
		case d.IsDir() || seen[p] || !d.Type().IsRegular() || strings.HasPrefix(filepath.Ext(p), ".h") || server.LanguageIDFor(p) == "":
			return nil
		case len(paths) >= MaxProjectDocs:
			capped = true
			return filepath.SkipAll // the walk of a large tree stops at the cap
		}
		paths = append(paths, p)
		return nil
	})
	return paths, capped
}

// isProjectFile reports whether path is one of the server's project
// files (its base name matches one of ProjectFiles) in e's root or under
// it.
func (e *entry) isProjectFile(path string) bool {
	return e.server.IsProjectFile(path) && ws.Inside(e.root, path)
}

// projectFileChanged reports whether path is one of the server's project
// files (config.Server.ProjectFiles, by base name) in e's root or under
// it, changed since e was made: modified after, or gone — unless it was
// already gone when e was made (m.goneProjects), so that a deleted
// tsconfig.json the Stop gate names at every end of turn restarts its
// server once, not each time. m.mu is held.
func (m *Manager) projectFileChanged(e *entry, path string) bool {
	if !e.isProjectFile(path) {
		return false
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		since, known := m.goneProjects[path]
		if !known {
			if m.goneProjects == nil || len(m.goneProjects) >= maxGoneProjects {
				m.goneProjects = make(map[string]time.Time)
			}
			m.goneProjects[path] = time.Now()
		}
		return !known || !since.Before(e.created)
	}
	delete(m.goneProjects, path)
	return err == nil && fi.ModTime().After(e.created)
}

// maxGoneProjects bounds Manager.goneProjects; past it the manager
// forgets them all, and each restarts its server once more.
const maxGoneProjects = 1024

// rootProjectChanged returns the first of the server's project files in
// e's root that was modified after e was made, "" when none was: a
// change no check named (a shell command whose hook did not come, the
// user's editor) still starts the server afresh before its next check,
// though only a check that names the file opens the server's documents
// again (reloadProjects).
func (e *entry) rootProjectChanged() string {
	for _, name := range e.server.ProjectFiles {
		if strings.ContainsAny(name, "*?[") {
			continue // a glob: only a check that names such a file finds it
		}
		if fi, err := os.Stat(filepath.Join(e.root, name)); err == nil && fi.ModTime().After(e.created) {
			return name
		}
	}
	return ""
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
