package lsp

import "slices"

// Prewarm starts, in the background, the servers the files at paths need
// (each server and root once: config ServersForPath, FindRoot), so that
// the first change of a session finds them started and initialized. It
// opens no document: a server learns of a file only when a check sends it.
// It returns the started servers as "name root" pairs, sorted; a server
// already running, or in its crash back-off, is left as it is and not
// listed. paths are absolute; those no server serves are ignored.
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
			if now {
				started = append(started, k.server+" "+k.root)
			}
		}
	}
	slices.Sort(started)
	if len(started) > 0 {
		m.log.Info("prewarming servers", "servers", started)
	}
	return started
}
