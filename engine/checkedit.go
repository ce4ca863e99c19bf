package engine

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/validators"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Checking an edit before it is written (`check_edit`, for `lsp-hook
// mcp`'s lsp_check_edit). Three checks of one file go through the
// servers' ordinary document sync, one after the other, each waiting for
// the answer to its own version (lsp.Client.Update):
//
//  1. the text on disk: what is wrong now, the baseline;
//  2. the would-be text, as an unsaved version: what would be wrong;
//  3. the text on disk again, as a newer version: the servers' view of the
//     file goes back to the disk, so that what they say next of it, and of
//     the files that use it, is about the disk and never about text that
//     was only tried.
//
// Step 3 runs even when the caller gave up (its context ended): a server
// left holding tried text would report callers broken that are not.
// Nothing is written, remembered for only_new, recorded for a session or
// published to subscribers. Linters are not run: they read files from
// disk, where the tried text is not.

// restoreBudget bounds step 3 when the caller's own budget is spent.
const restoreBudget = 10 * time.Second

// CheckEdit checks p.Content as the would-be text of p.Path and returns
// what it would introduce (wire.CheckEditResult). It fails, with nothing
// sent, for a path outside the workspace (workspace.ErrOutside), one that
// is not an existing regular text file, content over MaxFileSize or
// binary (ErrTooLarge, ErrBinary), or when language servers are off.
func (e *Engine) CheckEdit(ctx context.Context, p wire.CheckEditParams) (wire.CheckEditResult, error) {
	begin := time.Now()
	path, err := workspace.Resolve(e.Root, p.Path)
	if err != nil {
		return wire.CheckEditResult{}, err
	}
	disk, err := readContent(path, nil)
	if err != nil {
		return wire.CheckEditResult{}, fmt.Errorf("reading %s: %w", p.Path, err)
	}
	text, err := readContent(path, &p.Content)
	if err != nil {
		return wire.CheckEditResult{}, fmt.Errorf("content for %s: %w", p.Path, err)
	}
	if e.Manager == nil {
		return wire.CheckEditResult{}, errors.New("language servers are off (lsp: false): an edit can only be checked by them")
	}
	t := target{path: path, rel: e.rel(path), text: text}
	budget := e.budget(wire.NotifyChangeParams{BudgetMS: p.BudgetMS, ColdBudgetMS: p.BudgetMS}, []target{t})
	settle := lsp.DefaultSettle
	if e.severity == diag.SeverityError {
		settle = lsp.EditSettle
	}

	ctx1, cancel := context.WithTimeout(ctx, budget)
	before := e.Manager.Check(ctx1, []lsp.Doc{{Path: path, Text: disk, FromDisk: true}}, settle)
	cancel()
	ctx2, cancel := context.WithTimeout(ctx, budget)
	after := e.Manager.Check(ctx2, []lsp.Doc{{Path: path, Text: text}}, settle)
	cancel()
	restored, restoreNotes := e.restore(ctx, path, budget)

	var res wire.Result
	byFile := make(map[string][]diag.Diagnostic)
	others := make(map[string][]diag.Diagnostic)
	var baseline []diag.Diagnostic
	for _, o := range before {
		baseline = append(baseline, o.Files[path]...)
	}
	for _, o := range after {
		res.Servers = append(res.Servers, outcomeResult(o))
		byFile[path] = append(byFile[path], o.Files[path]...)
		for other, ds := range o.Others {
			base := appendBase(nil, answer{diags: o.OthersBefore[other]}, nil)
			others[other] = append(others[other], introduced(base, ds)...)
		}
		e.Log.Info("check_edit", "path", path, "server", o.Server, "freshness", o.Freshness, "err", o.Err)
	}
	if kind, ok := validators.KindOf(path); ok && e.Config.ValidatorEnabled(string(kind)) {
		v := validators.For(kind)
		baseline = append(baseline, v.Validate(path, disk)...)
		byFile[path] = append(byFile[path], v.Validate(path, text)...)
	}
	base := appendBase(nil, answer{lines: lineHashes(disk), diags: baseline}, lineHashes(text))
	byFile[path] = introduced(base, byFile[path])
	notes := restoreNotes
	if e.lintedOnEdit(path) {
		notes = append(notes, "linters were not run: they read files from disk, where this text is not")
	}
	e.render(&res, e.severity, []target{t}, byFile, others, notes)
	return wire.CheckEditResult{Files: res.Files, Lint: res.Lint, Servers: res.Servers, Restored: restored,
		Notes: notes, ElapsedMS: time.Since(begin).Milliseconds()}, nil
}

// restore sends the file's text on disk to its servers again, as a newer
// version, and waits for their answer (step 3 above), within budget even
// when ctx has ended. It reports whether every server took it fresh, with
// a note for each that did not.
func (e *Engine) restore(ctx context.Context, path string, budget time.Duration) (bool, []string) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), max(budget, restoreBudget))
	defer cancel()
	disk, err := readContent(path, nil) // what is on disk now: an agent may have written meanwhile
	if err != nil {
		return false, []string{fmt.Sprintf("could not read %s to give its servers the disk's text again: %v", e.rel(path), err)}
	}
	ok := true
	var notes []string
	for _, o := range e.Manager.Check(rctx, []lsp.Doc{{Path: path, Text: disk, FromDisk: true}}, lsp.EditSettle) {
		if o.Freshness != lsp.Fresh && !errors.Is(o.Err, lsp.ErrSuperseded) { // superseded: a newer check sent the disk's text
			ok = false
			notes = append(notes, fmt.Sprintf("%s has not confirmed it holds %s as on disk again (%s): run lsp_diagnostics on it", o.Server, e.rel(path), outcomeResult(o)))
		}
	}
	return ok, notes
}

// lintedOnEdit reports whether a linter would run on path's edits: one
// enabled for them, whose requirements are met, not a fallback for a live
// server, whose program is found.
func (e *Engine) lintedOnEdit(path string) bool {
	t := target{path: path}
	for _, l := range e.Config.Linters {
		if !l.Enabled || l.When == config.LinterOnDiagnose || !l.Serves(filepath.Ext(path)) ||
			l.Mode == config.LinterFallback && e.serverLive(path) || !requiresMet(l, e.linterRoot(l, t)) {
			continue
		}
		argv, dir := e.expand(l, t)
		if len(argv) > 0 {
			if _, err := exec.LookPath(argv[0]); err == nil || e.nearestBin(argv[0], dir) != "" {
				return true
			}
		}
	}
	return false
}
