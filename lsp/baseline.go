package lsp

import (
	"maps"
	"slices"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Snapshot is what the running servers had published, file by file, at one
// moment: taken before a change is sent, it is the baseline that only_new
// compares the fresh answer against. Taking one copies references to the
// stores' publications (cheap); only the files asked about are decoded.
type Snapshot struct {
	byPath map[string][]snapPub
}

// snapPub is one server's latest diagnostics for a file (its push and its
// pull reports); server names the source of diagnostics that name none, as
// Client.convert does.
type snapPub struct {
	server string
	lists  [][]Diagnostic
}

// Snapshot records the latest publication of every file from every running
// server (broken ones included: what they said last still describes the
// files as they were) that owns it (Client.ownsFile): a file of another
// root that a server was sent (Doc.Mirror) is its own root's server's to
// report, and the other's view of it goes stale — app's pyright, told a
// module of the outer package was gone, kept "Import could not be
// resolved" for the outer files it held well after the module came back
// (its library watcher's 5 s), and the Stop gate named that error,
// which no compiler reported (the soak's nested root, seed 2024).
func (m *Manager) Snapshot() *Snapshot {
	clients := m.readyClients()
	s := &Snapshot{byPath: make(map[string][]snapPub)}
	for _, c := range clients {
		for path, lists := range c.publications() {
			if !c.ownsFile(path) {
				continue
			}
			s.byPath[path] = append(s.byPath[path], snapPub{server: c.server.Name, lists: lists})
		}
	}
	return s
}

// Known reports whether some server had published diagnostics (possibly
// none) for path when the snapshot was taken.
func (s *Snapshot) Known(path string) bool {
	_, ok := s.byPath[path]
	return ok
}

// Paths returns the files the servers had published diagnostics for,
// sorted.
func (s *Snapshot) Paths() []string {
	return slices.Sorted(maps.Keys(s.byPath))
}

// Diagnostics returns what the servers had published for path, in diag
// form with 1-based lines. Columns are left 0: the positions describe a text
// that may since have changed, so they are not converted; a baseline
// compares messages, codes and lines only. Diagnostics whose message cannot
// be decoded are left out, as Client.convert leaves them out.
func (s *Snapshot) Diagnostics(path string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, sp := range s.byPath[path] {
		for _, d := range slices.Concat(sp.lists...) {
			msg, err := messageString(d.Message)
			if err != nil {
				continue
			}
			code, _ := diagCode(d)
			sev := diag.Severity(d.Severity)
			if sev < diag.SeverityError || sev > diag.SeverityHint {
				sev = diag.SeverityError
			}
			source := d.Source
			if source == "" {
				source = sp.server
			}
			out = append(out, diag.Diagnostic{
				Path: path, Line: int(d.Range.Start.Line) + 1, Severity: sev, Code: code, Source: source, Message: msg,
			})
		}
	}
	return diag.SortDedupe(out)
}
