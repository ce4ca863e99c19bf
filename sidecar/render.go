package sidecar

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

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
// timeout is never mistaken for a clean file, and why a broken server
// broke and how to bring it back (it stays broken until restarted):
//
//	lsp-hook: no fresh diagnostics from gopls (timeout); errors it would report are unknown, not absent.
//	lsp-hook: rust-analyzer was still running cargo check; errors it finds later are not in this answer.
//	lsp-hook: gopls is broken (server process exited: signal: killed); `lsp-hook restart gopls` starts it again.
func unknownNote(servers []ServerResult) string {
	var names, running, broken []string
	for _, s := range servers {
		if s.Kind != KindLinter && s.State == lsp.StateBroken && s.Error != "" {
			broken = append(broken, fmt.Sprintf("lsp-hook: %s is broken (%s); `lsp-hook restart %s` starts it again.",
				s.Name, brokenReason(s.Error), s.Name))
		}
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
	lines = append(lines, broken...)
	return strings.Join(lines, "\n")
}

// maxReason bounds the reason a broken-server note quotes, in bytes.
const maxReason = 200

// brokenReason is a broken server's error as the note quotes it: without
// the "language server is broken: " that the note already says, on one
// line, at most maxReason bytes (cut at a character boundary).
func brokenReason(err string) string {
	r := strings.TrimPrefix(err, lsp.ErrBroken.Error()+": ")
	r = strings.Join(strings.Fields(r), " ")
	if len(r) > maxReason {
		cut := maxReason
		for cut > 0 && !utf8.RuneStart(r[cut]) {
			cut--
		}
		r = r[:cut] + "…"
	}
	return r
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
