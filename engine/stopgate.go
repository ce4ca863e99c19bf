package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/session"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
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
// engine.CheckBaselines). A file no event gave the text before of is
// compared with its text at began, the commit git's HEAD named when the
// session began (session.Registry.Began: a commit the session made moves
// HEAD past its own changes; "" when there was none, "HEAD" when
// unknown). A session that moved HEAD off began's line — checked out
// another branch, reset — or pulled in commits older than it is judged
// against the newest commit of HEAD's line older than beganAt, when it
// began (workspace.SessionBase: the branch as it stood before the
// session): every file tracked there is compared with its text there,
// whatever an event carried, and othersBefore, kept on the other branch,
// is not used; errors the branch had before the session are not its. A
// file with no known state before is checked as it is now,
// its errors warned about, never blocked on. A file the session deleted
// is checked as a deletion, so that what it broke in other files counts.
// shared names the files of files another agent session changed after
// this one first did (session.Registry.SharedSince: path → that
// session's ID): the texts before are this session's, so the other's
// changes since count as its own — two sessions in one checkout, one
// blocked for the other's work. The errors found in them, and, with any
// such file, in the files the session did not change (what the other's
// changes broke looks the same), are shown with a note saying so, never
// blocked on — but for the errors whose making a hook saw (madeBy: known,
// and whether by this session's change, as CheckBaselines' Baselines recorded
// them): this session's are gated as its own, another's are left to that
// session's gate. othersTouched names the files other sessions touched
// since this one began, that it never did (session.Registry.OthersTouched):
// one of them deleted is the other session's deletion, not one this
// session's hooks missed.
func (e *Engine) Introduced(ctx context.Context, files []session.File, othersBefore map[string][]diag.Diagnostic, shared, othersTouched map[string]string, madeBy func(diag.Diagnostic) (known, mine bool), began string, beganAt time.Time, budget time.Duration) (res wire.Result, errs int, unchecked bool) {
	begin := time.Now()
	budget -= replyMargin
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	if base, moved := workspace.SessionBase(ctx, e.Root, began, beganAt); moved {
		e.Log.Info("stop gate: HEAD moved off the commit the session began on; judging against the newest commit of its line older than the session",
			"began", began, "base", base)
		files, othersBefore, began = e.rebased(ctx, files, base), nil, base
	}
	changes, befores, unknownBefore := e.gateChanges(ctx, files, began)
	if len(changes) == 0 {
		return wire.Result{Files: []diag.FileDiagnostics{}}, 0, false
	}
	var deleted []string
	if began != "" {
		deleted = slices.DeleteFunc(workspace.DeletedSince(ctx, e.Root, began), func(p string) bool {
			_, theirs := othersTouched[p]
			return theirs
		})
	}
	missed := missedDeletions(deleted, files)
	for _, path := range missed {
		changes = append(changes, wire.Change{Path: path, Mode: wire.ModeWrite})
	}
	base, snap, notes := e.beforeSession(ctx, befores)
	cur := e.checkNow(ctx, changes, begin.Add(budget))
	byFile := make(map[string][]diag.Diagnostic)
	others := make(map[string][]diag.Diagnostic)
	// Where the texts before cannot show a server the state before: the
	// session deleted a file (pyright and clangd resolve imports and
	// includes on disk, whatever the buffers hold), or changed a header
	// (clangd compiles its importers with the header on disk). A file whose
	// errors are all in its baseline may then have the session's there —
	// and so may one whose baseline the session's hooks kept after an
	// earlier change of the same session, or of a daemon's earlier life,
	// had broken it: its errors are reported with a note saying so — with
	// a warning when nothing else is, beside the errors a block is for
	// when something is — and never blocked on.
	blind := blindSpot(changes, befores)
	projectBlind := e.projectBlindSpot(ctx, changes, befores)
	if blind == "" {
		blind = projectBlind
	}
	if len(missed) > 0 {
		blind = fmt.Sprintf("%s was deleted during the session, unseen by its hooks", e.rel(missed[0]))
	}
	unsure := make(map[string][]diag.Diagnostic) // errors whose baseline may hold the session's: reported only under a blind spot
	isChanged := make(map[string]bool, len(changes))
	for _, c := range changes {
		isChanged[c.Path] = true
	}
	noBefore := make(map[string][]diag.Diagnostic) // errors of files whose state before is unknown: warned about only
	theirs := make(map[string][]diag.Diagnostic)   // errors another session's changes may have made (shared): shown, never blocked on
	for _, f := range cur.Files {
		path := f.Path
		if unknownBefore[path] {
			if ds := diag.Filter(f.Diagnostics, diag.SeverityError); len(ds) > 0 {
				noBefore[path] = ds
			}
			continue
		}
		b, known := base[path]
		first, seen := othersBefore[path]
		if !known && snap != nil && !seen && !isChanged[path] {
			b, known = snap.Diagnostics(path), true // another file the texts before did not republish: as it stood then
		}
		v := judgeFile(f.Diagnostics, b, known, first, seen, isChanged[path])
		if projectBlind != "" && !known && !seen && !isChanged[path] {
			// No baseline at all, and the project's configuration changed:
			// its errors now may be the session's.
			v.unsure = diag.Filter(f.Diagnostics, diag.SeverityError)
		}
		if v.unchecked {
			unchecked = true // its servers did not answer for the text before: not gated on a guess
			continue
		}
		intro := v.introduced
		e.Log.Debug("stop gate: file judged", "path", path, "changed", isChanged[path], "before_known", known,
			"seen_by_hooks", seen, "hooks_before", len(first), "baseline", len(b), "now", len(f.Diagnostics), "introduced", len(intro), "unsure", len(v.unsure), "blind", blind)
		if len(v.unsure) > 0 {
			unsure[path] = v.unsure
		}
		if len(intro) == 0 {
			continue
		}
		if len(shared) > 0 && (shared[path] != "" || !isChanged[path]) {
			var mine, unsure []diag.Diagnostic
			for _, d := range intro {
				switch known, own := madeBy(d); {
				case known && own:
					mine = append(mine, d)
				case !known:
					unsure = append(unsure, d)
				} // made by another session's change: its gate's
			}
			if len(unsure) > 0 {
				theirs[path] = unsure
			}
			if intro = mine; len(intro) == 0 {
				continue
			}
		}
		errs += len(intro)
		if isChanged[path] {
			byFile[path] = intro
		} else {
			others[path] = intro
		}
	}
	switch {
	case len(missed) > 0 || sessionDeleted(changes) || goDiskReadChangedIn(changes, befores) != "":
		// What a deletion broke may not have been re-published by this
		// check: gopls publishes no file's unchanged diagnostics again,
		// and a deletion it was told of before (by a hook, or the hooks
		// of an earlier daemon) changes nothing for it now. The files the
		// servers hold errors for count too (the soak's Stop judge caught
		// a turn allowed in silence without them, Go, seed 777, Stop #2).
		// So may what a build constraint changed (the soak's
		// constraint-added, Go: jobs.go's call of a function the
		// constraint left out, published as gopls loaded the workspace,
		// never again). And what a //go:embed pattern changed: shown the
		// text before, gopls answers with the patterns on disk.
		e.heldErrors(cur.Files, unsure)
	case blind != "":
	case len(unsure) > 0 && len(deleted) > 0:
		// A deletion the session's record missed, longer ago than
		// missedDeletions looks: git knows the tracked files gone.
		blind = fmt.Sprintf("%s is deleted (git diff against the commit the session began on), and servers resolve imports on disk", e.rel(deleted[0]))
	}
	if blind != "" && len(unsure) > 0 {
		// Shown beside the errors the session introduced too, if any:
		// left out, a file with errors the session may have made read as
		// clean (make test's soak, seed 2372183960821548871, C Stop #2: a
		// block naming src/math.c's new errors left out src/label.c's
		// include of the header the session had deleted).
		for path, ds := range unsure {
			if isChanged[path] {
				byFile[path] = ds
			} else {
				others[path] = ds
			}
		}
		if errs == 0 {
			notes = append(notes, fmt.Sprintf("stop gate: %s, so whether the session introduced the errors above is unknown: check them", blind))
		} else {
			var rels []string
			for _, path := range slices.Sorted(maps.Keys(unsure)) {
				rels = append(rels, e.rel(path))
			}
			notes = append(notes, fmt.Sprintf("stop gate: %s, so whether the session introduced the errors shown in %s is unknown: check them", blind, strings.Join(rels, ", ")))
		}
		unchecked = true
	}
	if len(theirs) > 0 {
		for path, ds := range theirs {
			if isChanged[path] {
				byFile[path] = ds
			} else {
				others[path] = ds
			}
		}
		notes = append(notes, sharedNote(e.rel, shared, slices.Sorted(maps.Keys(theirs))))
		unchecked = true
	}
	if errs == 0 && len(noBefore) > 0 {
		for path, ds := range noBefore {
			byFile[path] = ds
		}
		first := slices.Sorted(maps.Keys(noBefore))[0]
		notes = append(notes, fmt.Sprintf("stop gate: what %s held before the session is unknown (no event carried its text, and git has no commit holding it), so whether the session introduced the errors above is unknown: check them", e.rel(first)))
		unchecked = true
	}
	res.Servers = cur.Servers
	res.Notes = append(notes, cur.Notes...) // rendered too: why a file went unchecked (a server not installed, a timeout)
	var targets []target
	for _, c := range changes {
		targets = append(targets, target{path: c.Path, rel: e.rel(c.Path), write: true})
	}
	e.render(&res, diag.SeverityError, targets, byFile, others, res.Notes)
	res.ElapsedMS = time.Since(begin).Milliseconds()
	// A changed file nothing could check (its server not installed,
	// gopls's file in no package, nothing here for its language) is
	// unchecked too: allowing in silence would say it is clean.
	return res, errs, unchecked || incomplete(cur.Servers) || len(cur.Unchecked) > 0
}

// sharedNote is the Stop gate's note on the errors found in the files of
// theirs (absolute paths, sorted) while another session changed the files
// of shared (SharedSince) after this one first did: whether this session
// made them is unknown. rel spells a path for the block.
func sharedNote(rel func(string) string, shared map[string]string, theirs []string) string {
	paths := slices.Sorted(maps.Keys(shared))
	var changed, names []string
	for _, p := range paths {
		changed = append(changed, rel(p))
		if !slices.Contains(names, shared[p]) {
			names = append(names, shared[p])
		}
	}
	var shown []string
	for _, p := range theirs {
		shown = append(shown, rel(p))
	}
	who := "another agent session (" + strings.Join(names, ", ") + ")"
	if len(names) > 1 {
		who = "other agent sessions (" + strings.Join(names, ", ") + ")"
	}
	return fmt.Sprintf("stop gate: %s changed %s after this session first did, so whether this session introduced the errors shown in %s is unknown: check them",
		who, strings.Join(changed, ", "), strings.Join(shown, ", "))
}

// verdict is the Stop gate's judgement of one file's errors now.
type verdict struct {
	// introduced holds the errors the session introduced.
	introduced []diag.Diagnostic
	// unsure holds, when none was introduced, the errors now: all are in
	// the file's baseline, which a blind spot (blindSpot) could have
	// filled with the session's own.
	unsure []diag.Diagnostic
	// unchecked is set for a file the session changed whose servers gave
	// no answer for its text before: it is not judged on a guess.
	unchecked bool
}

// judgeFile judges the diagnostics a file has now against its baseline:
// what the servers said of the texts before the session (base; known:
// whether they said anything of it), less what the session's own hooks
// found was not there before the session's first change that re-published
// the file (first; seen: whether they found anything). changed is whether
// the file is one the session changed. Only errors are judged.
func judgeFile(now, base []diag.Diagnostic, known bool, first []diag.Diagnostic, seen, changed bool) verdict {
	switch {
	case !known && changed:
		return verdict{unchecked: true}
	case !known && seen:
		base = first // what the servers said of it before the session's first change re-published it
	case !known:
		return verdict{}
	case seen:
		// An error that was not there when a hook of the session first
		// saw a change re-publish the file was not there before the
		// session, whatever the texts before showed — clangd compiles a
		// header's importers, touched by the session or not, with the
		// header on disk, the session's, whichever text its buffer holds.
		// It only ever takes errors out of the baseline: never hides one.
		firstBase := appendBase(nil, answer{diags: first}, nil)
		base = slices.DeleteFunc(slices.Clone(base), func(d diag.Diagnostic) bool {
			return len(introduced(firstBase, []diag.Diagnostic{d})) > 0
		})
	}
	v := verdict{introduced: diag.Filter(introduced(appendBase(nil, answer{diags: base}, nil), now), diag.SeverityError)}
	if len(v.introduced) == 0 {
		v.unsure = diag.Filter(now, diag.SeverityError)
	}
	return v
}

// sessionDeleted reports whether a file of changes is gone from disk: the
// session deleted it.
func sessionDeleted(changes []wire.Change) bool {
	return slices.ContainsFunc(changes, func(c wire.Change) bool {
		_, err := os.Lstat(c.Path)
		return errors.Is(err, fs.ErrNotExist)
	})
}

// blindSpot says why the texts before the session cannot show the
// servers the state before (a file the session deleted, a C or C++ header
// it changed, a Go file whose build constraint or //go:embed patterns it
// changed), or "" when they can.
func blindSpot(changes []wire.Change, befores map[string][]byte) string {
	for _, c := range changes {
		if _, err := os.Lstat(c.Path); errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("the session deleted %s, and servers resolve imports on disk", filepath.Base(c.Path))
		}
	}
	for _, c := range changes {
		switch strings.ToLower(filepath.Ext(c.Path)) {
		case ".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".inl":
			if !sameAsBefore(c.Path, befores) {
				return fmt.Sprintf("the session changed %s, and clangd reads a header's importers' includes on disk", filepath.Base(c.Path))
			}
		}
	}
	return goDiskReadChangedIn(changes, befores)
}

// goDiskReadChangedIn says which of changes is a Go file whose text
// differs from its text in befores in what gopls takes from the file on
// disk whatever it is shown, or "": its build constraint
// (lsp.GoBuildConstraint: gopls keeps the file in or out of its package
// as it loaded it, config.Server.StaleIgnoredMessages — the soak's
// constraint-added, Go: a Stop gate allowed jobs.go's call of a function
// the constraint left out), or its //go:embed patterns
// (lsp.GoEmbedPatterns: go list reads them on disk — the soak's
// embed-before-file, Go, seed 12: a Stop gate allowed in silence the
// pattern the session added, which matched no file). Shown the text
// before, gopls answers with the file on disk, so what it says then is
// no state before.
func goDiskReadChangedIn(changes []wire.Change, befores map[string][]byte) string {
	for _, c := range changes {
		before, ok := befores[c.Path]
		if !ok || !strings.EqualFold(filepath.Ext(c.Path), ".go") {
			continue
		}
		now, err := os.ReadFile(c.Path)
		switch {
		case err != nil:
		case lsp.GoBuildConstraint(now) != lsp.GoBuildConstraint(before):
			return fmt.Sprintf("the session changed %s's build constraint, and gopls keeps a package's files as it loaded them from disk", filepath.Base(c.Path))
		case !slices.Equal(lsp.GoEmbedPatterns(now), lsp.GoEmbedPatterns(before)):
			return fmt.Sprintf("the session changed %s's //go:embed patterns, and go list reads them on disk", filepath.Base(c.Path))
		}
	}
	return ""
}

// projectBlindSpot says why the state before of every file of a project
// is unknown when the session changed the project's configuration (a
// server's ProjectFiles: tsconfig.json, pyrightconfig.json,
// compile_flags.txt): the servers check the texts before under the
// configuration as it is now, so an error the new configuration made is
// in every baseline (the soak's Stop judge caught a pythonVersion edit's
// errors allowed in silence, Python, seed 7889959302469903499, Stop #1);
// or a file no server checks that a server's files import (a JSON module:
// lsp.Manager.ImportsData), which the servers read on disk however the
// texts before are shown; "" when it did not.
func (e *Engine) projectBlindSpot(ctx context.Context, changes []wire.Change, befores map[string][]byte) string {
	for _, c := range changes {
		if sameAsBefore(c.Path, befores) {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(e.Config.LSP.Servers)) {
			if s := e.Config.LSP.Servers[name]; s.Enabled && s.IsProjectFile(c.Path) {
				return fmt.Sprintf("the session changed %s, which sets how %s checks every file of its project", filepath.Base(c.Path), name)
			}
		}
		if e.Manager != nil && e.Manager.ImportsData(ctx, c.Path) {
			return fmt.Sprintf("the session changed %s, which files of the project import, and their server reads it on disk", filepath.Base(c.Path))
		}
	}
	return ""
}

// gateChanges returns the changes the Stop gate checks for files (a
// session's record) and their texts before the session (path → text:
// the event's, else the text at commit began), and the files that exist
// but whose state before is unknown (no event carried their text before,
// and began holds none: no commit when the session began, or a file
// untracked then): those are checked as they are now, and their errors
// are never blocked on, only warned about. A file
// the session deleted is checked as a deletion, its servers shown its
// text before with the others' (what used it resolves as before the
// session) and then told it is gone (the engine re-checks what used it),
// so that what it broke counts.
func (e *Engine) gateChanges(ctx context.Context, files []session.File, began string) (changes []wire.Change, befores map[string][]byte, unknown map[string]bool) {
	befores = make(map[string][]byte)
	unknown = make(map[string]bool)
	for _, f := range files {
		_, err := os.Lstat(f.Path)
		gone := errors.Is(err, fs.ErrNotExist)
		before, ok := f.Before, f.BeforeKnown
		if !ok && began != "" {
			before, ok = gitShow(ctx, e.Root, began, f.Path)
		}
		switch {
		case gone && (!ok || len(before) == 0): // made and deleted by the session
		case !ok:
			e.Log.Info("stop gate: no state before the session; its errors are warned about, not blocked on", "path", f.Path)
			unknown[f.Path] = true
			changes = append(changes, wire.Change{Path: f.Path, Mode: wire.ModeWrite})
		default:
			befores[f.Path] = before
			changes = append(changes, wire.Change{Path: f.Path, Mode: wire.ModeWrite})
		}
	}
	return changes, befores, unknown
}

// rebased returns files with the text before of each file tracked at
// commit base replaced by its text there (Introduced: a session that
// moved HEAD to another line is judged against base); a file base does
// not hold keeps what its event carried.
func (e *Engine) rebased(ctx context.Context, files []session.File, base string) []session.File {
	out := slices.Clone(files)
	for i, f := range out {
		if before, ok := gitShow(ctx, e.Root, base, f.Path); ok {
			out[i].Before, out[i].BeforeKnown = before, true
		}
	}
	return out
}

// checkNow checks the files of changes as they are now, until deadline. A
// check overtaken by a newer text of a file (a hook, the watcher or a
// prewarm sent it meanwhile) is of a text that is gone, and its missing
// errors are not absent: it is asked again while time remains.
func (e *Engine) checkNow(ctx context.Context, changes []wire.Change, deadline time.Time) wire.Result {
	onlyNew := false
	for {
		cur := e.Check(ctx, wire.NotifyChangeParams{Changes: changes, Source: "stop", Phase: wire.PhaseStop, OnlyNew: &onlyNew,
			Severity: "error", BudgetMS: int(time.Until(deadline) / time.Millisecond)})
		s, ok := superseded(cur.Servers)
		if !ok || ctx.Err() != nil {
			return cur
		}
		e.Log.Info("stop gate: a file changed during its check; checking again", "server", s.Name, "error", s.Error)
	}
}

// heldErrors adds to into the errors the servers hold now for existing
// workspace files other than reported's.
func (e *Engine) heldErrors(reported []diag.FileDiagnostics, into map[string][]diag.Diagnostic) {
	if e.Manager == nil {
		return
	}
	skip := make(map[string]bool, len(reported))
	for _, f := range reported {
		skip[f.Path] = true
	}
	now := e.Manager.Snapshot()
	for _, path := range now.Paths() {
		if skip[path] || !workspace.Inside(e.Root, path) {
			continue
		}
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		if ds := diag.Filter(now.Diagnostics(path), diag.SeverityError); len(ds) > 0 {
			into[path] = ds
		}
	}
}

// missedDeletionSlack is how long before the session's first touch a
// deletion the session's record missed may have happened and still be
// taken for the session's (a shell command runs before its hook).
const missedDeletionSlack = time.Minute

// missedDeletions returns the files of deleted (workspace.DeletedFromHead's)
// that are not among the session's files but whose directory changed since
// shortly before its first touch: a shell command of the session deleted
// them before the watcher covered its span, and its hook found the changed
// files by modification time, which tells no deletion. The gate checks them
// as deletions, and warns on what they broke, never blocks: the session may
// not be the one that deleted them.
func missedDeletions(deleted []string, files []session.File) []string {
	if len(files) == 0 {
		return nil
	}
	known := make(map[string]bool, len(files))
	for _, f := range files {
		known[f.Path] = true
	}
	return slices.DeleteFunc(workspace.DirChangedSince(deleted, files[0].FirstTouch.Add(-missedDeletionSlack)),
		func(path string) bool { return known[path] })
}

// sameAsBefore reports whether path holds the text it had before the
// session (befores), as far as reading it tells.
func sameAsBefore(path string, befores map[string][]byte) bool {
	before, ok := befores[path]
	if !ok {
		return false
	}
	now, err := os.ReadFile(path)
	return err == nil && bytes.Equal(now, before)
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
			docs = append(docs, lsp.Doc{Path: path, Text: text, AllImporters: true}) // as checkNow's
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
