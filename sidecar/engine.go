package sidecar

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/validators"
)

// Default budgets for a notify_change whose caller named none.
const (
	DefaultBudget     = 5 * time.Second
	DefaultColdBudget = 12 * time.Second
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
}

// Check runs validators and language servers for the changes, all in
// parallel, under the budget in p (the cold budget when a server must start
// or has never answered), and returns the merged, filtered, rendered result.
// Files it cannot check are explained in Result.Notes and the log; Check
// itself never fails.
func (e *Engine) Check(ctx context.Context, p NotifyChangeParams) Result {
	begin := time.Now()
	var res Result
	targets := e.targets(p.Changes, &res)
	ctx, cancel := context.WithTimeout(ctx, e.budget(p, targets)-replyMargin)
	defer cancel()

	byFile := make(map[string][]diag.Diagnostic)
	others := make(map[string][]diag.Diagnostic)
	anyWrite := slices.ContainsFunc(targets, func(t target) bool { return t.write })
	lspDone := make(chan []lsp.Outcome, 1)
	if e.Manager != nil && len(targets) > 0 {
		docs := make([]lsp.Doc, len(targets))
		for i, t := range targets {
			docs[i] = lsp.Doc{Path: t.path, Text: t.text}
		}
		// A write waits for other files' waves, and warnings for analyzers'
		// follow-ups; an edit shown errors-only needs the first answer.
		settle := lsp.DefaultSettle
		if !anyWrite && e.severity == diag.SeverityError {
			settle = lsp.EditSettle
		}
		go func() { lspDone <- e.Manager.Check(ctx, docs, settle) }()
	} else {
		lspDone <- nil
	}
	for _, r := range e.validate(targets, byFile) {
		res.Servers = append(res.Servers, r)
	}
	for _, o := range <-lspDone {
		res.Servers = append(res.Servers, outcomeResult(o))
		for path, ds := range o.Files {
			byFile[path] = append(byFile[path], ds...)
		}
		if anyWrite {
			for path, ds := range o.Others {
				others[path] = append(others[path], ds...)
			}
		}
		e.Log.Info("lsp outcome", "server", o.Server, "root", o.Root, "freshness", o.Freshness, "err", o.Err)
	}
	e.render(&res, targets, byFile, others)
	res.ElapsedMS = time.Since(begin).Milliseconds()
	return res
}

// budget picks the warm or cold budget for p: cold when a server that will
// be asked has not answered fresh yet.
func (e *Engine) budget(p NotifyChangeParams, targets []target) time.Duration {
	warm := time.Duration(p.BudgetMS) * time.Millisecond
	if warm <= 0 {
		warm = DefaultBudget
	}
	cold := time.Duration(p.ColdBudgetMS) * time.Millisecond
	if cold <= 0 {
		cold = DefaultColdBudget
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

// targets resolves and reads every change, noting those it must skip.
func (e *Engine) targets(changes []Change, res *Result) []target {
	var out []target
	seen := make(map[string]int)
	for _, c := range changes {
		path, err := resolve(e.Root, c.Path)
		if err == nil {
			var text []byte
			text, err = readContent(path, c.Content)
			if err == nil {
				t := target{path: path, rel: e.rel(path), text: text, write: c.Mode == ModeWrite}
				if i, dup := seen[path]; dup { // the last change of a file wins
					t.write = t.write || out[i].write
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
		e.Log.Warn("skipping change", "path", c.Path, "err", err)
	}
	return out
}

// validate runs the built-in validator of each target, if any applies.
func (e *Engine) validate(targets []target, byFile map[string][]diag.Diagnostic) []ServerResult {
	ran := make(map[validators.Kind]bool)
	for _, t := range targets {
		kind, ok := validators.KindOf(t.path)
		if !ok || !e.Config.ValidatorEnabled(string(kind)) {
			continue
		}
		ds := validators.For(kind).Validate(t.path, t.text)
		byFile[t.path] = append(byFile[t.path], ds...)
		ran[kind] = true
	}
	var out []ServerResult
	for _, k := range slices.Sorted(mapsKeys(ran)) {
		out = append(out, ServerResult{Name: string(k), State: lsp.StateActive, Freshness: string(lsp.Fresh)})
	}
	return out
}

func outcomeResult(o lsp.Outcome) ServerResult {
	r := ServerResult{Name: o.Server, Root: o.Root, State: lsp.StateActive, Freshness: string(o.Freshness)}
	if o.Err != nil {
		r.Error = o.Err.Error()
		switch {
		case errors.Is(o.Err, lsp.ErrUnavailable):
			r.State = lsp.StateUnavailable
		case o.Freshness == lsp.None:
			r.State = lsp.StateBroken
		}
	}
	return r
}

func (e *Engine) rel(path string) string {
	r, err := filepath.Rel(e.Root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// Current returns the latest diagnostics the language servers published for
// paths (absolute or root-relative), or for every file when paths is empty,
// filtered to the configured severity. Validators keep no state, so only
// server diagnostics appear here.
func (e *Engine) Current(paths []string) Result {
	res := Result{Files: []diag.FileDiagnostics{}, Servers: []ServerResult{}}
	if e.Manager == nil {
		return res
	}
	all := e.Manager.Current()
	want := make(map[string]bool)
	for _, p := range paths {
		if r, err := resolve(e.Root, p); err == nil {
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
	res.Lint = diag.LintBlock(files, nil, diag.DefaultLimits)
	return res
}
