package sidecar

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/lsp"
)

func mapsKeys[K comparable, V any](m map[K]V) iter.Seq[K] { return maps.Keys(m) }

// render fills res.Files and res.Lint: changed files first, in the order
// they were changed, then other files by path; each file's diagnostics
// filtered to sev, sorted and de-duplicated.
func (e *Engine) render(res *Result, sev diag.Severity, targets []target, byFile, others map[string][]diag.Diagnostic) {
	o := e.Config.Output
	limits := diag.Limits{MaxPerFile: o.MaxPerFile, MaxOtherFiles: o.MaxOtherFiles, MaxLines: o.MaxLines, MaxChars: o.MaxChars}
	var changed, other []diag.FileDiagnostics
	isTarget := make(map[string]bool)
	for _, t := range targets {
		isTarget[t.path] = true
		if ds := diag.SortDedupe(diag.Filter(byFile[t.path], sev)); len(ds) > 0 {
			changed = append(changed, diag.FileDiagnostics{Path: t.path, Rel: t.rel, Diagnostics: ds})
		}
	}
	for _, path := range slices.Sorted(maps.Keys(others)) {
		if isTarget[path] || !inside(path, e.Root) {
			continue
		}
		if ds := diag.SortDedupe(diag.Filter(others[path], sev)); len(ds) > 0 {
			other = append(other, diag.FileDiagnostics{Path: path, Rel: e.rel(path), Diagnostics: ds})
		}
	}
	res.Files = append(changed, other...)
	if res.Files == nil {
		res.Files = []diag.FileDiagnostics{}
	}
	res.Lint = diag.LintBlock(changed, other, limits)
	if note := unknownNote(res.Servers); note != "" {
		if res.Lint != "" {
			res.Lint += "\n"
		}
		res.Lint += note
	}
}

// unknownNote says which servers gave no complete fresh answer, so a
// timeout is never mistaken for a clean file:
//
//	lsp-hook: no fresh diagnostics from gopls (timeout); errors it would report are unknown, not absent.
//	lsp-hook: rust-analyzer was still running cargo check; errors it finds later are not in this answer.
func unknownNote(servers []ServerResult) string {
	var names, running []string
	for _, s := range servers {
		switch {
		case len(s.Pending) > 0:
			running = append(running, fmt.Sprintf("%s was still running %s", s.Name, strings.Join(s.Pending, ", ")))
		case s.Freshness == string(lsp.Timeout) || s.Freshness == string(lsp.Partial) ||
			(s.Freshness == string(lsp.None) && s.State == lsp.StateBroken),
			s.Kind == KindLinter && s.State == lsp.StateUnavailable:
			names = append(names, fmt.Sprintf("%s (%s)", s.Name, reason(s)))
		}
	}
	var lines []string
	if len(names) > 0 {
		lines = append(lines, "lsp-hook: no fresh diagnostics from "+strings.Join(names, ", ")+"; errors it would report are unknown, not absent.")
	}
	if len(running) > 0 {
		lines = append(lines, "lsp-hook: "+strings.Join(running, "; ")+"; errors it finds later are not in this answer.")
	}
	return strings.Join(lines, "\n")
}

func reason(s ServerResult) string {
	switch {
	case s.Kind == KindLinter && s.State == lsp.StateUnavailable:
		return "not installed"
	case s.Kind == KindLinter && s.Freshness == string(lsp.None):
		return "failed"
	case s.Freshness == string(lsp.None):
		return "not running"
	}
	return s.Freshness
}
