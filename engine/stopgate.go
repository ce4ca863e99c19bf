package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/session"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/validators"
	"github.com/lsp-hook/lsp-hook/wire"
)

// This file is the Stop gate's check (DESIGN.md "Sessions"): at the end
// of an agent's turn, the errors the session introduced that remain — in
// the files it touched and in the files those changes broke — and nothing
// that was there before the session. A file's state before the session is
// the text the agent's event carried at its first touch
// (session.File.Before), else its git HEAD text; a file with neither (an
// untracked file the event said nothing about) is not gated. The check
// shows the servers those texts first (as only_new shows the HEAD text:
// onlynew.go), then the files as they are now, and compares the two
// answers with only_new's rule (match.go: introduced).

// Introduced is the Stop gate's check of files (a session's record) within
// budget (less the margin the reply needs): the lint block of the errors
// the session introduced that remain (in res.Lint and res.Files, at error
// severity), their count, and whether something could not be checked — a
// server gave no fresh answer for the files now, or none for a changed
// file's text before the session (res.Lint's notes say which): no errors
// then does not mean none. A check overtaken by a newer text of a file (a
// hook or the watcher sent it meanwhile) is asked again within budget.
// Each file is judged against the texts before less what the session's
// own hooks found was not there before its first change that re-published
// the file (othersBefore: path → diagnostics, from
// engine.CheckBaselines). A file the session deleted is checked as a
// deletion, so that what it broke in other files counts; files with no
// known state before the session are left out (logged).
func (e *Engine) Introduced(ctx context.Context, files []session.File, othersBefore map[string][]diag.Diagnostic, budget time.Duration) (res wire.Result, errs int, unchecked bool) {
	begin := time.Now()
	budget -= replyMargin
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	var changes []wire.Change
	befores := make(map[string][]byte)
	for _, f := range files {
		_, err := os.Lstat(f.Path)
		gone := errors.Is(err, fs.ErrNotExist)
		before, ok := f.Before, f.BeforeKnown
		if !ok {
			before, ok = gitHead(ctx, e.Root, f.Path)
		}
		switch {
		case gone && ok && len(before) > 0:
			// Deleted by the session: checked as a deletion (the engine
			// re-checks what used it), so that what it broke is judged —
			// against what the session's hooks heard before (othersBefore).
			changes = append(changes, wire.Change{Path: f.Path, Mode: wire.ModeWrite})
		case gone:
		case !ok:
			e.Log.Info("stop gate: no state before the session; not gated", "path", f.Path)
		default:
			befores[f.Path] = before
			changes = append(changes, wire.Change{Path: f.Path, Mode: wire.ModeWrite})
		}
	}
	if len(changes) == 0 {
		return wire.Result{Files: []diag.FileDiagnostics{}}, 0, false
	}
	base, snap, notes := e.beforeSession(ctx, befores)
	onlyNew := false
	var cur wire.Result
	for {
		cur = e.Check(ctx, wire.NotifyChangeParams{Changes: changes, Source: "stop", OnlyNew: &onlyNew,
			Severity: "error", BudgetMS: int(time.Until(begin.Add(budget)) / time.Millisecond)})
		s, ok := superseded(cur.Servers)
		if !ok || ctx.Err() != nil {
			break
		}
		// Another check sent a newer text of a file under this one (a hook,
		// the watcher, a prewarm): this answer is of a text that is gone, and
		// its missing errors are not absent. Ask again of the files as they
		// are now, within the budget.
		e.Log.Info("stop gate: a file changed during its check; checking again", "server", s.Name, "error", s.Error)
	}
	byFile := make(map[string][]diag.Diagnostic)
	others := make(map[string][]diag.Diagnostic)
	isChanged := make(map[string]bool, len(changes))
	for _, c := range changes {
		isChanged[c.Path] = true
	}
	for _, f := range cur.Files {
		path := f.Path
		b, known := base[path]
		first, seen := othersBefore[path]
		switch {
		case !known && isChanged[path]:
			unchecked = true // its servers did not answer for the text before: not gated on a guess
			continue
		case !known && seen:
			b = first // what the servers said of it before the session's first change re-published it
		case !known && snap != nil:
			b = snap.Diagnostics(path) // another file the texts before did not republish: as it stood then
		case !known:
			continue
		case seen:
			// What the servers said of it when a hook of the session first
			// saw a change re-publish it: an error that was not there then
			// was not there before the session, whatever the texts before
			// showed — clangd compiles a header's importers, touched by the
			// session or not, with the header on disk, the session's,
			// whichever text its buffer holds. It only ever takes errors out
			// of the baseline: never hides one.
			firstBase := appendBase(nil, answer{diags: first}, nil)
			b = slices.DeleteFunc(slices.Clone(b), func(d diag.Diagnostic) bool {
				return len(introduced(firstBase, []diag.Diagnostic{d})) > 0
			})
		}
		intro := diag.Filter(introduced(appendBase(nil, answer{diags: b}, nil), f.Diagnostics), diag.SeverityError)
		e.Log.Debug("stop gate: file judged", "path", path, "changed", isChanged[path], "before_known", known,
			"seen_by_hooks", seen, "hooks_before", len(first), "baseline", len(b), "now", len(f.Diagnostics), "introduced", len(intro))
		if len(intro) == 0 {
			continue
		}
		errs += len(intro)
		if isChanged[path] {
			byFile[path] = intro
		} else {
			others[path] = intro
		}
	}
	res.Servers = cur.Servers
	res.Notes = append(notes, cur.Notes...)
	var targets []target
	for _, c := range changes {
		targets = append(targets, target{path: c.Path, rel: e.rel(c.Path), write: true})
	}
	e.render(&res, diag.SeverityError, targets, byFile, others, notes)
	res.ElapsedMS = time.Since(begin).Milliseconds()
	return res, errs, unchecked || incomplete(cur.Servers)
}

// superseded returns the first of servers whose check was overtaken by a
// newer text of one of its files (lsp.ErrSuperseded), if any.
func superseded(servers []wire.ServerResult) (wire.ServerResult, bool) {
	for _, s := range servers {
		if s.Kind != wire.KindLinter && strings.HasPrefix(s.Error, lsp.ErrSuperseded.Error()) {
			return s, true
		}
	}
	return wire.ServerResult{}, false
}

// incomplete reports whether a language server or validator in servers
// gave no fresh answer to a Stop gate check (timed out, partial, broken):
// the errors it would report are unknown, and the gate must not take their
// absence for a clean end of turn. Linters are left out: one not
// installed says so after every edit, and the gate is about the servers'
// errors.
func incomplete(servers []wire.ServerResult) bool {
	for _, s := range servers {
		if s.Kind == wire.KindLinter {
			continue
		}
		switch lsp.Freshness(s.Freshness) {
		case lsp.Timeout, lsp.Partial:
			return true
		case lsp.None:
			if s.State == lsp.StateBroken {
				return true
			}
		}
	}
	return false
}

// beforeSession returns what the checkers said of each file's text before
// the session (befores: path → text): the validators' answer, and the
// language servers' answer to that text sent as a preliminary version —
// for the file itself and for the other files it republished — and what
// the servers had published for every file then (nil without servers). A
// server that gave no fresh answer leaves the file out (unknown), with a
// note; one overtaken by a newer text of a file (lsp.ErrSuperseded) is
// asked again while ctx lasts.
func (e *Engine) beforeSession(ctx context.Context, befores map[string][]byte) (map[string][]diag.Diagnostic, *lsp.Snapshot, []string) {
	base := make(map[string][]diag.Diagnostic)
	var notes []string
	var docs []lsp.Doc
	for path, text := range befores {
		servers, validator := e.checkers(path)
		if validator != "" {
			base[path] = append(base[path], validators.For(validators.Kind(validator)).Validate(path, text)...)
		}
		if len(servers) > 0 {
			docs = append(docs, lsp.Doc{Path: path, Text: text})
		} else if validator == "" {
			base[path] = nil // nothing checks it: nothing to introduce
		}
	}
	if len(docs) == 0 || e.Manager == nil {
		return base, nil, notes
	}
	outs := e.Manager.Check(ctx, docs, lsp.DefaultSettle)
	for i := 0; i < len(outs); i++ {
		if o := outs[i]; errors.Is(o.Err, lsp.ErrSuperseded) && ctx.Err() == nil {
			// A hook or the watcher sent a newer text of a file under this
			// one: the answer is of neither text. Show the servers the texts
			// before the session again, within the budget.
			e.Log.Info("stop gate: a file changed while its text before the session was checked; checking again", "server", o.Server, "err", o.Err)
			outs, i = e.Manager.Check(ctx, docs, lsp.DefaultSettle), -1
		}
	}
	for _, o := range outs {
		if o.Freshness != lsp.Fresh {
			for _, d := range docs {
				if _, ok := o.Files[d.Path]; !ok {
					delete(base, d.Path)
					notes = append(notes, fmt.Sprintf("stop gate: %s gave no answer for %s as it was before the session; its errors there are not gated", o.Server, e.rel(d.Path)))
				}
			}
		}
		for path, ds := range o.Files {
			base[path] = append(base[path], ds...)
		}
		for path, ds := range o.Others {
			base[path] = append(base[path], ds...)
		}
	}
	return base, e.Manager.Snapshot(), notes
}
