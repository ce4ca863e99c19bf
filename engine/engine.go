package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/validators"
	"github.com/lsp-hook/lsp-hook/wire"
)

const (
	// replyMargin is kept out of the budget for encoding and sending the
	// reply, so the caller has it before its own deadline.
	replyMargin = 150 * time.Millisecond
)

// Engine runs every checker for a change and renders the result. With a nil
// Manager it runs the validators only: that is the hook's in-process
// fallback when no daemon can be had.
type Engine struct {
	Root     string // workspace root: absolute, clean, symlink-free
	Config   *config.Config
	Manager  *lsp.Manager // nil: no language servers
	Log      *slog.Logger
	severity diag.Severity

	linterStats linterStats // compiler-mode runs, for status

	// Fallback, when not "", says why no language server checks with this
	// engine (the hook's in-process fallback: "the lsp-hook daemon is
	// unavailable"); Check then notes, in the lint block, which installed
	// servers would have checked the changed files, so that silence is not
	// taken for a clean file. "" with a Manager, or when the user chose no
	// daemon.
	Fallback string

	untrustedSaid  atomic.Bool       // the untrusted-config note was shown once
	untrustedProgs untrustedPrograms // workspace programs linters could not run untrusted

	mu      sync.Mutex                   // guards answers and noCheckerNoted
	answers map[string]map[string]answer // path → checker → its last answer (only_new's memory)
	// noCheckerNoted holds the (session, language) pairs whose
	// nothing-checks-it note was given (noCheckerNotes).
	noCheckerNoted map[string]struct{}

	subs subscribers // who gets the published notifications of checks
}

// NewEngine returns an engine for root with cfg; manager may be nil.
func NewEngine(root string, cfg *config.Config, manager *lsp.Manager, log *slog.Logger) *Engine {
	sev, err := diag.ParseSeverity(cfg.Severity)
	if err != nil {
		sev = diag.SeverityError
	}
	return &Engine{Root: root, Config: cfg, Manager: manager, Log: log, severity: sev}
}

// target is a change after its path was resolved and its text read.
type target struct {
	path, rel string
	text      []byte
	write     bool
	fromDisk  bool    // text was read from the file, not carried by the event (lsp.Doc.FromDisk)
	before    *string // the file's text before the change, when the event carried it (wire.Change.Before)
	revisited bool    // the change's session touched the file before (lsp.Doc.Revisited)
}

// Check runs validators and language servers for the changes, all in
// parallel, under the budget in p (the cold budget when a server must start
// or has never answered), and returns the merged, filtered, rendered result.
// With only_new (the config's, or p.OnlyNew) it shows only the diagnostics
// the change introduced: see onlynew.go for the baseline and the matching
// rule. Files it cannot check are explained in Result.Notes and the log;
// Check itself never fails.
func (e *Engine) Check(ctx context.Context, p wire.NotifyChangeParams) wire.Result {
	res, _ := e.CheckBaselines(ctx, p, nil)
	return res
}

// Baselines is what a check learned of the other files its servers
// re-published after the change (CheckBaselines), path → diagnostics.
type Baselines struct {
	// OthersBefore is what the servers had said of them before the
	// change (lsp.Outcome.OthersBefore: nil for a file they had said
	// nothing of), for the files whose state before is known
	// (lsp.Outcome.OthersBeforeKnown). The daemon keeps, per agent
	// session, the first it hears of each file: the Stop gate's baseline
	// for the files the session's changes broke (Introduced's
	// othersBefore).
	OthersBefore map[string][]diag.Diagnostic
	// Made holds the errors the change introduced there, in the files
	// whose state before is known; Unsure the errors in the others,
	// which it may have. The daemon records them as made by the change's
	// session (session.Registry.RecordMade, Made's for sure), for the
	// Stop gate of another session sharing a file with it.
	Made, Unsure map[string][]diag.Diagnostic
}

// CheckBaselines is Check that also returns what it learned of the other
// files (Baselines). revisited names the changed files (absolute) the
// change's agent session touched before this change (lsp.Doc.Revisited:
// a text equal to git HEAD's may still be a change); nil for none.
func (e *Engine) CheckBaselines(ctx context.Context, p wire.NotifyChangeParams, revisited map[string]bool) (res wire.Result, b Baselines) {
	begin := time.Now()
	res.Notes = slices.Clone(p.Skipped)
	targets, unchecked, gone := e.targets(p.Changes, &res)
	unchecked = append(slices.Clone(p.Skipped), unchecked...)
	ctx, cancel := context.WithTimeout(ctx, e.budget(p, targets)-replyMargin)
	defer cancel()

	byFile := make(map[string][]diag.Diagnostic)
	others := make(map[string][]diag.Diagnostic)
	anyWrite := slices.ContainsFunc(targets, func(t target) bool { return t.write })
	// A write waits for other files' waves, and warnings for analyzers'
	// follow-ups; an edit shown errors-only needs the first answer.
	settle := lsp.DefaultSettle
	sev := e.severity
	if v, err := diag.ParseSeverity(p.Severity); err == nil {
		sev = v
	}
	if !anyWrite && sev == diag.SeverityError {
		settle = lsp.EditSettle
	}
	if sev != diag.SeverityError && e.Manager != nil {
		e.Manager.ShowWarnings() // servers drop no warnings-only part from now on
	}
	onlyNew := e.Config.OnlyNew
	if p.OnlyNew != nil {
		onlyNew = *p.OnlyNew
	}
	var base *baseline
	if onlyNew && len(targets) > 0 {
		base = e.baseline(ctx, targets, settle)
	}
	for i := range targets {
		targets[i].revisited = revisited[targets[i].path]
	}
	lspDone := e.checkServers(ctx, targets, gone, settle, phaseOf(p), p.Phase == wire.PhaseStop)
	// only_new's memory of answers (texts: each changed file's line
	// hashes) is kept only by checks that use it; without it a baseline
	// falls back to git HEAD.
	var texts map[string][]uint64
	if onlyNew {
		texts = make(map[string][]uint64, len(targets))
		for _, t := range targets {
			texts[t.path] = lineHashes(t.text)
		}
	}
	lintDone := make(chan struct{})
	var lintByFile map[string][]diag.Diagnostic
	var lintResults []wire.ServerResult
	var linted map[string]bool
	go func() {
		defer close(lintDone)
		lintByFile, lintResults, linted = e.lint(ctx, targets, phaseOf(p))
	}()
	validated, partial := e.validate(targets, texts, byFile)
	res.Servers = append(res.Servers, validated...)
	res.Servers = append(res.Servers, e.checkConfigFiles(targets, byFile)...)
	outcomes := <-lspDone
	<-lintDone
	for path, ds := range lintByFile {
		byFile[path] = append(byFile[path], ds...)
		if texts != nil {
			e.remember(path, "linters", answer{lines: texts[path], diags: ds})
		}
	}
	res.Servers = append(res.Servers, lintResults...)
	if base != nil { // before the answers below replace what it remembers
		for _, o := range slices.Concat(outcomes.changed, outcomes.gone) {
			base.captureOthers(e, o.Others)
		}
	}
	b = Baselines{make(map[string][]diag.Diagnostic), make(map[string][]diag.Diagnostic), make(map[string][]diag.Diagnostic)}
	for _, o := range slices.Concat(outcomes.changed, outcomes.gone) {
		for path, ds := range o.Others {
			if !o.OthersBeforeKnown[path] {
				b.Unsure[path] = append(b.Unsure[path], diag.Filter(ds, diag.SeverityError)...)
				continue
			}
			b.OthersBefore[path] = append(b.OthersBefore[path], o.OthersBefore[path]...)
			base := appendBase(nil, answer{diags: o.OthersBefore[path]}, nil)
			b.Made[path] = append(b.Made[path], diag.Filter(introduced(base, ds), diag.SeverityError)...)
		}
	}
	merged, notChecked := e.mergeOutcomes(outcomes.changed, texts, anyWrite, byFile, others)
	res.Servers = append(res.Servers, merged...)
	// What a deletion broke is listed as a write's other files are.
	merged, _ = e.mergeOutcomes(newerThanGone(outcomes.gone, outcomes.changed), nil, true, byFile, others)
	res.Servers = append(res.Servers, merged...)
	if base != nil {
		e.keepIntroduced(base, byFile, others)
		res.Notes = append(res.Notes, base.notes...)
	}
	for _, o := range outcomes.changed {
		res.Unchecked = append(res.Unchecked, slices.Sorted(maps.Keys(o.Unchecked))...)
	}
	untrusted := e.untrustedNotes()
	noChecker, nothingChecked := e.noCheckerNotes(p.Session, targets, res.Servers, linted)
	notChecked = append(notChecked, noChecker...)
	res.Unchecked = append(res.Unchecked, nothingChecked...)
	res.Notes = slices.Concat(res.Notes, notChecked, partial, untrusted)
	e.render(&res, sev, targets, byFile, others, slices.Concat(unchecked, notChecked, partial, e.fallbackNotes(targets), untrusted))
	res.ElapsedMS = time.Since(begin).Milliseconds()
	e.publish(p, targets, res)
	return res, b
}

// newerThanGone returns gone (the re-check after a deletion) without the
// other files that an outcome of changed from the same server and root
// answered too, listed or clean (a key of its Files or Others): the
// changed files' check runs after the deletion's re-check
// (checkServers), so its answer is the newer one. When the changes also
// held a project file (pyrightconfig.json put back by a Bash command, a
// deleted file with it), the server restarted between the two, and the
// deletion's answer was the old configuration's: listed beside the newer
// one, an error of the old one was stale (the soak, seed
// 7239075484410783918, Python #249).
func newerThanGone(gone, changed []lsp.Outcome) []lsp.Outcome {
	out := make([]lsp.Outcome, 0, len(gone))
	for _, g := range gone {
		var others map[string][]diag.Diagnostic
		for path, ds := range g.Others {
			if !slices.ContainsFunc(changed, func(c lsp.Outcome) bool { return c.Server == g.Server && c.Root == g.Root && answered(c, path) }) {
				if others == nil {
					others = make(map[string][]diag.Diagnostic, len(g.Others))
				}
				others[path] = ds
			}
		}
		g.Others = others
		out = append(out, g)
	}
	return out
}

// answered reports whether o holds an answer for path, listed or clean.
func answered(o lsp.Outcome, path string) bool {
	if _, ok := o.Files[path]; ok {
		return true
	}
	_, ok := o.Others[path]
	return ok
}

// serverOutcomes are the language servers' answers to one check: to the
// changed files, and to the re-check that follows a deletion
// (lsp.Manager.Gone).
type serverOutcomes struct {
	changed, gone []lsp.Outcome
}

// checkServers starts the language servers' check of targets, and of
// what the deletion of the files gone broke, and returns the channel its
// outcomes arrive on (none at once when there are no servers).
// allImporters has the servers re-check the targets' importers however
// far (lsp.Doc.AllImporters: the Stop gate's check).
func (e *Engine) checkServers(ctx context.Context, targets []target, gone []string, settle time.Duration, phase string, allImporters bool) <-chan serverOutcomes {
	done := make(chan serverOutcomes, 1)
	if e.Manager == nil || len(targets)+len(gone) == 0 {
		done <- serverOutcomes{}
		return done
	}
	docs := make([]lsp.Doc, len(targets))
	for i, t := range targets {
		prior := e.textBefore(ctx, t)
		docs[i] = lsp.Doc{Path: t.path, Text: t.text, Before: e.beforeOf(t, prior), Prior: prior, FromDisk: t.fromDisk, AllImporters: allImporters, Revisited: t.revisited}
	}
	check := e.Manager.Check
	if phase == phaseDiagnose { // a batch: servers get the whole budget
		check = e.Manager.CheckWithin
	}
	go func() {
		var out serverOutcomes
		if len(gone) > 0 {
			out.gone = e.Manager.Gone(ctx, gone, settle)
		}
		if len(docs) > 0 {
			out.changed = check(ctx, docs, settle)
		}
		done <- out
	}()
	return done
}

// beforeOf returns t's lsp.Doc.Before: nil unless the lint block lists
// the errors the change introduced in other files (output.other_files:
// introduced); else textBefore, t's text before the change.
func (e *Engine) beforeOf(t target, textBefore func() ([]byte, bool)) func() ([]byte, bool) {
	if e.Config.Output.OtherFiles(t.write) != config.OtherFilesIntroduced {
		return nil
	}
	return textBefore
}

// textBefore returns t's lsp.Doc.Prior (and Before, when the lint block
// wants it): a func that gives the text the event said the file had
// before the change (t.before: Claude Code's originalFile), or reads t's
// git HEAD version once, on first ask, when the event said none (or that
// the change created the file), and says false when that is t's text or
// git does not track it. The event's text comes first: a change that
// brings a file back to its HEAD text (a revert, `git checkout` of one
// file) changes it all the same, and what it breaks elsewhere (the
// callers of what the session had renamed) is hidden as old by a server
// with no answer yet to compare with (make soak, seed
// 6008365553603227565, Go #18: the daemon restarted mid-session, a
// false clean).
func (e *Engine) textBefore(ctx context.Context, t target) func() ([]byte, bool) {
	if t.before != nil && *t.before != "" {
		before := []byte(*t.before)
		changed := !bytes.Equal(before, t.text)
		return func() ([]byte, bool) { return before, changed }
	}
	return sync.OnceValues(func() ([]byte, bool) {
		head, tracked := gitHead(ctx, e.Root, t.path)
		if !tracked || bytes.Equal(head, t.text) {
			return nil, false
		}
		return head, true
	})
}

// mergeOutcomes adds each outcome's diagnostics to byFile (changed files)
// and to others as output.other_files says for a write (anyWrite) or an
// edit: all of each other file's diagnostics, only those the change
// introduced in it (compared with what its server had said of it before
// the change, lsp.Outcome.OthersBefore), or none. It remembers them when
// texts is not nil (each changed file's line hashes), and returns how each
// server fared and a note for each changed file a server said it could not
// check (lsp.Outcome.Unchecked): silence would say it is clean.
func (e *Engine) mergeOutcomes(outcomes []lsp.Outcome, texts map[string][]uint64, anyWrite bool, byFile, others map[string][]diag.Diagnostic) (out []wire.ServerResult, notChecked []string) {
	for _, o := range outcomes {
		out = append(out, outcomeResult(o))
		if texts != nil {
			e.rememberOutcome(o, texts)
		}
		for _, path := range slices.Sorted(maps.Keys(o.Unchecked)) {
			notChecked = append(notChecked, fmt.Sprintf("%s not checked: %s: %s", e.rel(path), o.Server, o.Unchecked[path]))
		}
		for path, ds := range o.Files {
			byFile[path] = append(byFile[path], ds...)
		}
		switch e.Config.Output.OtherFiles(anyWrite) {
		case config.OtherFilesAll:
			for path, ds := range o.Others {
				others[path] = append(others[path], ds...)
			}
		case config.OtherFilesIntroduced:
			for path, ds := range o.Others {
				base := appendBase(nil, answer{diags: o.OthersBefore[path]}, nil)
				others[path] = append(others[path], introduced(base, ds)...)
			}
		}
		e.Log.Info("lsp outcome", "server", o.Server, "root", o.Root, "freshness", o.Freshness, "err", o.Err)
	}
	return out, notChecked
}

// keepIntroduced drops from byFile (changed files) and others what base
// accounts for.
func (e *Engine) keepIntroduced(base *baseline, byFile, others map[string][]diag.Diagnostic) {
	for path, ds := range byFile {
		if base.unchanged[path] {
			delete(byFile, path)
			continue
		}
		byFile[path] = introduced(base.byPath[path], ds)
	}
	for path, ds := range others {
		if _, changed := byFile[path]; changed {
			continue // shown as a changed file, if at all
		}
		others[path] = introduced(base.others[path], ds)
	}
}

// budget picks the warm or cold budget for p: cold when a server that will
// be asked has not answered fresh yet.
func (e *Engine) budget(p wire.NotifyChangeParams, targets []target) time.Duration {
	warm := time.Duration(p.BudgetMS) * time.Millisecond
	if warm <= 0 {
		warm = wire.DefaultBudget
	}
	cold := time.Duration(p.ColdBudgetMS) * time.Millisecond
	if cold <= 0 {
		cold = wire.DefaultColdBudget
	}
	if cold < warm {
		cold = warm
	}
	if e.Manager == nil {
		return warm
	}
	for _, t := range targets {
		if !e.Manager.Warm(t.path) {
			return cold
		}
	}
	return warm
}

// targets resolves and reads every change, noting those it must skip in
// res.Notes. It also returns, for the lint block, the notes of files the
// agent must not take for clean: text it wrote that is too large to check,
// a path outside the workspace (a symlink leading out, ../x.json), which
// is never checked (a binary or a deleted file is no news to the model,
// and a Bash command may touch many of those); those it also lists in
// res.Unchecked. Last, it returns the
// changed files that are gone (absolute), for the servers to close
// (lsp.Manager.Gone).
func (e *Engine) targets(changes []wire.Change, res *wire.Result) (out []target, unchecked, gone []string) {
	seen := make(map[string]int)
	for _, c := range changes {
		path, err := workspace.Resolve(e.Root, c.Path)
		if err == nil {
			var text []byte
			text, err = readContent(path, c.Content)
			if err == nil {
				t := target{path: path, rel: e.rel(path), text: text, write: c.Mode == wire.ModeWrite, fromDisk: c.Content == nil, before: c.Before}
				if i, dup := seen[path]; dup { // the last change of a file wins; the text before is the first's
					t.write = t.write || out[i].write
					if out[i].before != nil {
						t.before = out[i].before
					}
					out[i] = t
				} else {
					seen[path] = len(out)
					out = append(out, t)
				}
				continue
			}
		}
		note := fmt.Sprintf("skipped %s: %v", c.Path, err)
		res.Notes = append(res.Notes, note)
		switch {
		case errors.Is(err, ErrTooLarge):
			unchecked = append(unchecked, fmt.Sprintf("%s not checked: %v", e.relOrAsGiven(c.Path), err))
			res.Unchecked = append(res.Unchecked, path)
		case errors.Is(err, workspace.ErrOutside):
			unchecked = append(unchecked, note)
			res.Unchecked = append(res.Unchecked, c.Path)
		case errors.Is(err, os.ErrNotExist) && path != "":
			gone = append(gone, path)
		}
		e.Log.Warn("skipping change", "path", c.Path, "err", err)
	}
	return out, unchecked, gone
}

// relOrAsGiven is path relative to the root when it is inside it, else
// path as given.
func (e *Engine) relOrAsGiven(path string) string {
	if p, err := workspace.Resolve(e.Root, path); err == nil {
		return e.rel(p)
	}
	return path
}

// validate runs the built-in validator of each target, if any applies, and
// returns how they fared and a note for each file a validator checked only
// in part ("big.yaml: 15.0 MiB of YAML not checked: …", validators.Partial).
// texts holds each target's text as line hashes, for only_new's memory
// (nil: nothing is remembered).
func (e *Engine) validate(targets []target, texts map[string][]uint64, byFile map[string][]diag.Diagnostic) ([]wire.ServerResult, []string) {
	ran := make(map[validators.Kind]bool)
	var notes []string
	for _, t := range targets {
		kind, ok := validators.KindOf(t.path)
		if !ok || !e.Config.ValidatorEnabled(string(kind)) {
			continue
		}
		v := validators.For(kind)
		if p, ok := v.(validators.Partial); ok {
			if why := p.Unchecked(t.text); why != "" {
				notes = append(notes, t.rel+": "+why)
				e.Log.Info("validating in part", "path", t.path, "why", why)
			}
		}
		ds := v.Validate(t.path, t.text)
		if texts != nil {
			e.remember(t.path, string(kind), answer{lines: texts[t.path], diags: ds})
		}
		byFile[t.path] = append(byFile[t.path], ds...)
		ran[kind] = true
	}
	var out []wire.ServerResult
	for _, k := range slices.Sorted(mapsKeys(ran)) {
		out = append(out, wire.ServerResult{Name: string(k), Kind: wire.KindValidator, State: lsp.StateActive, Freshness: string(lsp.Fresh)})
	}
	return out, notes
}

func outcomeResult(o lsp.Outcome) wire.ServerResult {
	r := wire.ServerResult{Name: o.Server, Kind: wire.KindServer, Root: o.Root, State: lsp.StateActive, Freshness: string(o.Freshness), Pending: o.Pending}
	if o.Err != nil {
		r.Error = o.Err.Error()
		switch {
		case errors.Is(o.Err, lsp.ErrUnavailable):
			r.State = lsp.StateUnavailable
		case errors.Is(o.Err, lsp.ErrStarting):
			r.State = lsp.StateStarting
		case o.Freshness == lsp.None:
			r.State = lsp.StateBroken
		}
	}
	return r
}

// rel is path as the lint block shows it: root-relative, or absolute
// outside the root (workspace.Display).
func (e *Engine) rel(path string) string {
	return workspace.Display(e.Root, path)
}

// Current returns the latest diagnostics the language servers published for
// paths (absolute or root-relative), or for every file when paths is empty,
// filtered to the configured severity. Validators keep no state, so only
// server diagnostics appear here.
func (e *Engine) Current(paths []string) wire.Result {
	res := wire.Result{Files: []diag.FileDiagnostics{}, Servers: []wire.ServerResult{}}
	if e.Manager == nil {
		return res
	}
	all := e.Manager.Current()
	want := make(map[string]bool)
	for _, p := range paths {
		if r, err := workspace.Resolve(e.Root, p); err == nil {
			want[r] = true
		} else {
			res.Notes = append(res.Notes, fmt.Sprintf("skipped %s: %v", p, err))
		}
	}
	var files []diag.FileDiagnostics
	for _, path := range slices.Sorted(mapsKeys(all)) {
		if len(paths) > 0 && !want[path] {
			continue
		}
		if ds := diag.SortDedupe(diag.Filter(all[path], e.severity)); len(ds) > 0 {
			files = append(files, diag.FileDiagnostics{Path: path, Rel: e.rel(path), Diagnostics: ds})
		}
	}
	if files != nil {
		res.Files = files
	}
	res.Lint = diag.LintBlock(files, nil, e.limits())
	return res
}

// untrustedNotes says, once per engine, which entries of an untrusted
// workspace config were skipped (config.Config.Untrusted), and, once per
// program, which workspace programs linters did not run (programs.go).
func (e *Engine) untrustedNotes() []string {
	var notes []string
	if len(e.Config.Untrusted) > 0 && !e.untrustedSaid.Swap(true) {
		notes = append(notes, fmt.Sprintf("the workspace config sets what runs or installs programs, skipped until you run `lsp-hook trust` here: %s.",
			strings.Join(e.Config.Untrusted, ", ")))
	}
	return append(notes, e.untrustedProgs.take()...)
}

// fallbackNotes says, when e.Fallback is set, which installed servers would
// have checked targets (none: no note).
func (e *Engine) fallbackNotes(targets []target) []string {
	if e.Fallback == "" {
		return nil
	}
	var missed []string
	for _, t := range targets {
		for _, s := range e.Config.ServersForPath(t.path) {
			if Installed(s) && !slices.Contains(missed, s.Name) { // not installed: it would not have checked either
				missed = append(missed, s.Name)
			}
		}
	}
	if len(missed) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s, so %s did not check this change; errors it would report are unknown, not absent.",
		e.Fallback, strings.Join(missed, ", "))}
}
