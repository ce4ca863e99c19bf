package lsp

import (
	"context"
	"slices"
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

// dependentsOf returns the importers of docs' files to re-check (absolute
// paths, nearest first, at most maxRecheckDependents, none of docs), or
// nil when the server needs none.
func (c *Client) dependentsOf(ctx context.Context, docs []Doc) []string {
	if !c.server.OpenDependents {
		return nil
	}
	changed := make([]string, len(docs))
	for i, d := range docs {
		changed[i] = d.Path
	}
	deps, _, err := c.deps.Dependents(ctx, changed)
	if err != nil {
		c.log.Warn("finding the importers of changed files", "err", err)
	}
	deps = slices.DeleteFunc(deps, func(p string) bool { return slices.Contains(changed, p) })
	return deps[:min(len(deps), maxRecheckDependents)]
}

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
