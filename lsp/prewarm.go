package lsp

import (
	"context"
	"slices"
	"time"
)

// warmUpTimeout bounds the check that warms a prewarmed server's project:
// the server's start-up and its first answer for one file.
const warmUpTimeout = 2 * time.Minute

// Prewarm starts, in the background, the servers the files at paths need
// (each server and root once: config ServersForPath, FindRoot), so that
// the first change of a session finds them started, and then checks, in
// the background too, the first of paths each started server serves in
// that root, with its text on disk, as a hook's check would. A server
// does its costly first-open work — gopls type-checks the package,
// pyright binds builtins and the file's imports, tsserver builds the
// configured project — only when a document is opened, so starting it
// alone leaves most of the first edit's cost in place. The caller lists
// per server and root the file the user changed last (sidecar's
// samplePaths: newest modification time first), so the one document
// opened is one the user touched; the answer is kept like any check's
// (the next change of that file is a didChange) and the janitor closes
// the document later like any other.
//
// It returns the started servers as "name root" pairs, sorted; a server
// already running, or in its crash back-off, is left as it is, not
// listed, and nothing is opened in it. paths are absolute; those no
// server serves are ignored.
func (m *Manager) Prewarm(paths []string) []string {
	seen := make(map[entryKey]bool)
	var started []string
	for _, p := range paths {
		for _, s := range m.cfg.ServersForPath(p) {
			k := entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}
			if seen[k] {
				continue
			}
			seen[k] = true
			e, now, err := m.acquire(k, nil)
			if err != nil {
				m.log.Debug("not prewarming", "server", k.server, "root", k.root, "err", err)
				continue
			}
			m.release(e)
			if !now {
				continue
			}
			started = append(started, k.server+" "+k.root)
			m.background(func() { m.warmUp(k, p) })
		}
	}
	slices.Sort(started)
	if len(started) > 0 {
		m.log.Info("prewarming servers", "servers", started)
	}
	return started
}

// warmUp checks path, as read from disk, in k's server alone.
func (m *Manager) warmUp(k entryKey, path string) {
	ctx, cancel := context.WithTimeout(m.ctx, warmUpTimeout)
	defer cancel()
	begin := time.Now()
	text, err := readBounded(path, maxConvertRead)
	if err != nil {
		m.log.Info("prewarm: not checking", "server", k.server, "root", k.root, "path", path, "err", err)
		return
	}
	o := m.checkOne(ctx, k, []Doc{{Path: path, Text: text, FromDisk: true}}, EditSettle, true)
	m.log.Info("prewarm checked", "server", k.server, "root", k.root, "path", path,
		"freshness", o.Freshness, "elapsed_ms", time.Since(begin).Milliseconds(), "err", o.Err)
}
