package lsp

import (
	"context"
	"path/filepath"
	"slices"
)

// This file re-checks the importers of a changed file no server checks
// that a server's languages import (config.Server.ImportedExtensions:
// TypeScript's JSON modules, with resolveJsonModule). Measured with
// typescript-language-server 5.3.0 and TypeScript 5.9.3 before it: "port"
// taken out of src/config.json, which src/server.ts imports and reads
// (`config.port`), was answered clean by the hook and allowed by the Stop
// gate, where tsc reports server.ts — only the JSON validator had been
// asked. The server reads the file from disk (the watcher tells it of the
// change, as of any file it watches), so the check sends the importers
// again and takes their answers as the change's, in other files.

// importedDataDocs returns, for the changed docs of files no server
// checks, the files importing them that an enabled server with those
// files' extension among its ImportedExtensions re-checks (its
// OpenDependents import rules, across the workspace: wideIndex), by the
// (server, root) that checks each, nearest first.
func (m *Manager) importedDataDocs(ctx context.Context, docs []Doc) map[entryKey][]string {
	var out map[entryKey][]string
	for _, d := range docs {
		ext := filepath.Ext(d.Path)
		if len(m.cfg.ServersForPath(d.Path)) > 0 || ext == "" {
			continue
		}
		for _, name := range sortedNames(m.cfg.LSP.Servers) {
			s := m.cfg.LSP.Servers[name]
			if !s.Enabled || !s.OpenDependents || !slices.Contains(s.ImportedExtensions, ext) {
				continue
			}
			deps, _, err := m.wideIndex(s).Dependents(ctx, []string{d.Path})
			if err != nil {
				m.log.Warn("finding the importers of a changed file no server checks", "path", d.Path, "server", s.Name, "err", err)
				continue
			}
			for _, p := range deps {
				k := entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}
				if out == nil {
					out = make(map[entryKey][]string)
				}
				if !slices.Contains(out[k], p) {
					out[k] = append(out[k], p)
				}
			}
		}
	}
	return out
}

// ImportsData reports whether a file no server checks at path (absolute)
// is imported by files a server re-checks when it changes
// (importedDataDocs): a JSON module TypeScript files import. Shown the
// text before, such a server would answer with the file on disk, so the
// Stop gate cannot take its answer as the state before a session that
// changed it.
func (m *Manager) ImportsData(ctx context.Context, path string) bool {
	return len(m.importedDataDocs(ctx, []Doc{{Path: path}})) > 0
}
