package engine

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

func mapsKeys[K comparable, V any](m map[K]V) iter.Seq[K] { return maps.Keys(m) }

// render fills res.Files and res.Lint: changed files first, in the order
// they were changed, then other files by path; each file's diagnostics
// filtered to sev, sorted and de-duplicated. The block ends with its notes,
// one line each: which servers gave no fresh answer (unknownNote), then
// notes (each without its "lsp-hook: " prefix). The whole block, notes
// included, stays within the output caps (fitBlock).
func (e *Engine) render(res *wire.Result, sev diag.Severity, targets []target, byFile, others map[string][]diag.Diagnostic, notes []string) {
	var changed, other []diag.FileDiagnostics
	isTarget := make(map[string]bool)
	for _, t := range targets {
		isTarget[t.path] = true
		if ds := diag.SortDedupe(diag.Filter(byFile[t.path], sev)); len(ds) > 0 {
			changed = append(changed, diag.FileDiagnostics{Path: t.path, Rel: t.rel, Diagnostics: ds})
		}
	}
	for _, path := range slices.Sorted(maps.Keys(others)) {
		if isTarget[path] || !workspace.Inside(e.Root, path) {
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
	var lines []string
	if u := unknownNote(res.Servers); u != "" {
		lines = strings.Split(u, "\n")
	}
	for _, n := range notes {
		lines = append(lines, "lsp-hook: "+n)
	}
	res.Lint = fitBlock(changed, other, lines, e.limits())
}

// limits returns the configured output caps, each zero one at its default
// (diag.DefaultLimits).
func (e *Engine) limits() diag.Limits {
	o, d := e.Config.Output, diag.DefaultLimits
	return diag.Limits{
		MaxPerFile: cmp.Or(max(o.MaxPerFile, 0), d.MaxPerFile), MaxOtherFiles: cmp.Or(max(o.MaxOtherFiles, 0), d.MaxOtherFiles),
		MaxLines: cmp.Or(max(o.MaxLines, 0), d.MaxLines), MaxChars: cmp.Or(max(o.MaxChars, 0), d.MaxChars),
	}
}

// fitBlock renders the lint block of changed and other files followed by
// the note lines, all of it within lim's line and character caps. Notes
// come first: an agent must know when a server's errors are unknown, or a
// linter did not run, more than it needs the tail of a long list of
// diagnostics, which the block already says it cut ("... and N more").
// They may take up to half of each cap (fitNotes cuts the rest, saying how
// many it left out); the diagnostics get what the notes leave. At caps too
// small for diag.LintBlock's own markers (under about 100 characters or 4
// lines) the joined block is cut at a line, as a last resort.
func fitBlock(changed, other []diag.FileDiagnostics, notes []string, lim diag.Limits) string {
	caps := lim
	text, n := fitNotes(notes, lim.MaxChars/2, lim.MaxLines/2)
	if text != "" {
		lim.MaxChars = max(lim.MaxChars-len(text)-1, 1) // 0 would mean the default
		lim.MaxLines = max(lim.MaxLines-n, 1)
	}
	block := diag.LintBlock(changed, other, lim)
	switch {
	case block == "":
		block = text
	case text != "":
		block += "\n" + text
	}
	return cutLines(block, caps.MaxChars, caps.MaxLines)
}

// fitNotes joins note lines into at most maxChars characters (bytes) and
// maxLines lines, and returns the text and its line count. It keeps the
// most notes, in order, that fit with one last line standing for the
// others, "lsp-hook: … and N more notes (lsp-hook status, the log)"; when
// not even the first fits so, that one is cut at a character boundary,
// ending in "…", and followed by the line for the others when there is
// room for a second line.
func fitNotes(notes []string, maxChars, maxLines int) (string, int) {
	if len(notes) == 0 || maxLines < 1 {
		return "", 0
	}
	for keep := len(notes); keep >= 1; keep-- {
		lines := notes[:keep:keep]
		if keep < len(notes) {
			lines = append(lines, moreNotes(len(notes)-keep))
		}
		if text := strings.Join(lines, "\n"); len(text) <= maxChars && len(lines) <= maxLines {
			return text, len(lines)
		}
	}
	more := moreNotes(len(notes) - 1)
	if first := cutString(notes[0], maxChars-len(more)-1); len(notes) > 1 && maxLines >= 2 && first != "" {
		return first + "\n" + more, 2
	}
	if first := cutString(notes[0], maxChars); first != "" {
		return first, 1
	}
	return "", 0
}

// moreNotes is the line that stands for n notes fitNotes left out.
func moreNotes(n int) string {
	if n == 1 {
		return "lsp-hook: … and 1 more note (lsp-hook status, the log)"
	}
	return fmt.Sprintf("lsp-hook: … and %d more notes (lsp-hook status, the log)", n)
}

// cutString returns s when it has at most n bytes, else its longest
// prefix that ends at a character boundary and, with "…" added, has at
// most n bytes ("" when not even that fits).
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	if cut < 0 {
		return ""
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// cutLines returns s cut, at a line break, to at most maxChars bytes and
// maxLines lines (a first line longer than maxChars cut at a character).
func cutLines(s string, maxChars, maxLines int) string {
	for strings.Count(s, "\n")+1 > maxLines || len(s) > maxChars {
		i := strings.LastIndexByte(s, '\n')
		if i < 0 {
			return cutString(s, maxChars)
		}
		s = s[:i]
	}
	return s
}

// unknownNote says which servers gave no complete fresh answer, so a
// timeout is never mistaken for a clean file, and why a broken server
// broke and what brings it back (brokenNote):
//
//	lsp-hook: no fresh diagnostics from gopls (timeout); errors it would report are unknown, not absent.
//	lsp-hook: rust-analyzer was still running cargo check; errors it finds later are not in this answer.
//	lsp-hook: pyright: files importing a changed one were not checked again: 4 past the first 10 (a.py, b.py, c.py, …); errors the change made there are unknown, not absent.
//	lsp-hook: gopls is broken (server process exited: signal: killed); it restarts on the next change after 15:04:05 (in 1s).
func unknownNote(servers []wire.ServerResult) string {
	var names, running, broken, importers []string
	for _, s := range servers {
		if s.Kind != wire.KindLinter && s.State == lsp.StateBroken && s.Error != "" {
			broken = append(broken, brokenNote(s))
		}
		switch {
		case len(s.Pending) > 0:
			running = append(running, fmt.Sprintf("%s was still running %s", s.Name, strings.Join(s.Pending, ", ")))
		case s.Kind != wire.KindLinter && s.Freshness == string(lsp.Partial) && strings.HasPrefix(s.Error, lsp.ErrImportersCap.Error()):
			// The changed files' answers are whole: say what was not.
			n := fmt.Sprintf("lsp-hook: %s: %s; errors the change made there are unknown, not absent.", s.Name, oneLine(s.Error))
			if !slices.Contains(importers, n) {
				importers = append(importers, n)
			}
		case s.Freshness == string(lsp.Timeout) || s.Freshness == string(lsp.Partial) ||
			(s.Freshness == string(lsp.None) && s.State == lsp.StateBroken),
			s.Kind == wire.KindLinter && s.State == lsp.StateUnavailable:
			if n := fmt.Sprintf("%s (%s)", s.Name, reason(s)); !slices.Contains(names, n) {
				names = append(names, n) // said once: a server of another root says what the changed file's said (lsp/crossroot.go)
			}
		}
	}
	var lines []string
	if len(names) > 0 {
		lines = append(lines, "lsp-hook: no fresh diagnostics from "+strings.Join(names, ", ")+"; errors it would report are unknown, not absent.")
	}
	if len(running) > 0 {
		lines = append(lines, "lsp-hook: "+strings.Join(running, "; ")+"; errors it finds later are not in this answer.")
	}
	lines = append(lines, importers...)
	lines = append(lines, broken...)
	return strings.Join(lines, "\n")
}

// brokenNote is the note of a broken server: why it broke, and what lsp
// says brings it back (lsp.SplitCrashPlan): the next change after its
// back-off, or, once it crashed too often, `lsp-hook restart` (also for an
// error that says neither).
func brokenNote(s wire.ServerResult) string {
	why, plan := lsp.SplitCrashPlan(s.Error)
	if plan == "" {
		plan = fmt.Sprintf("`lsp-hook restart %s` starts it again", s.Name)
	}
	return fmt.Sprintf("lsp-hook: %s is broken (%s); %s.", s.Name, brokenReason(why), plan)
}

// maxReason bounds the reason a broken-server note quotes, in bytes.
const maxReason = 200

// brokenReason is a broken server's error as the note quotes it: without
// the "language server is broken: " that the note already says, on one
// line, at most maxReason bytes (cut at a character boundary).
func brokenReason(err string) string {
	return oneLine(strings.TrimPrefix(err, lsp.ErrBroken.Error()+": "))
}

// oneLine is r on one line, at most maxReason bytes (cut at a character
// boundary).
func oneLine(r string) string {
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

func reason(s wire.ServerResult) string {
	switch {
	case s.Kind == wire.KindLinter && s.State == lsp.StateUnavailable:
		return "not installed"
	case s.Kind == wire.KindLinter && s.Freshness == string(lsp.None):
		return "failed"
	case s.Freshness == string(lsp.None):
		return "not running"
	case s.Kind != wire.KindLinter && strings.HasPrefix(s.Error, lsp.ErrLoad.Error()):
		return oneLine(s.Error) // gopls with a broken go.mod: say what to fix
	case s.Kind != wire.KindLinter && (strings.HasPrefix(s.Error, lsp.ErrProjectCap.Error()) || strings.HasPrefix(s.Error, lsp.ErrCrossRootCap.Error())):
		return oneLine(s.Error)
	case s.Kind != wire.KindLinter && strings.HasPrefix(s.Error, lsp.ErrSuperseded.Error()):
		return oneLine(s.Error) + "; the newer check reports it" // two hooks on one file
	}
	return s.Freshness
}
