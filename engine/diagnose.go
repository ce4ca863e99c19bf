package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// CheckFunc runs one check: Engine.Check in-process, or notify_change
// through a daemon's Client (see ClientChecker).
type CheckFunc func(ctx context.Context, p wire.NotifyChangeParams) (wire.Result, error)

// EngineChecker returns e.Check as a CheckFunc.
func EngineChecker(e *Engine) CheckFunc {
	return func(ctx context.Context, p wire.NotifyChangeParams) (wire.Result, error) { return e.Check(ctx, p), nil }
}

// ClientChecker returns a CheckFunc that sends notify_change over c.
func ClientChecker(c *wire.Client) CheckFunc {
	return func(ctx context.Context, p wire.NotifyChangeParams) (wire.Result, error) {
		var res wire.Result
		err := c.Call(ctx, wire.MethodNotifyChange, p, &res)
		return res, err
	}
}

// DiagnoseOptions configures Diagnose.
type DiagnoseOptions struct {
	// Files are the absolute paths to check (workspace.CollectFiles' answer).
	Files []string
	// Check runs one chunk of files.
	Check CheckFunc
	// Jobs is how many chunks are checked at once (default 2).
	Jobs int
	// ChunkSize is how many files one check names (default 25). Files are
	// checked in path order, so a package's files share chunks.
	ChunkSize int
	// Severity is the lowest severity reported.
	Severity diag.Severity
	// Budget bounds one chunk's check, language servers' first touch
	// included (default 2 minutes).
	Budget time.Duration
	// Progress, when not nil, is advanced as chunks finish.
	Progress *Progress
}

// DiagnoseReport is what Diagnose found: Files with diagnostics (sorted by
// path), Checkers that did not answer fully (one line each, for notes and
// stderr), Notes from the checks (files skipped and why), how many files
// were Checked, the files nothing checked (Unchecked, sorted, absolute;
// each has a note: wire.Result.Unchecked), and whether every checker
// answered (Complete).
type DiagnoseReport struct {
	Files     []diag.FileDiagnostics
	Checkers  []wire.ServerResult
	Notes     []string
	Checked   int
	Unchecked []string
	Complete  bool
	Elapsed   time.Duration
}

// Diagnose checks opts.Files in chunks, opts.Jobs at a time, in the
// "diagnose" phase (linters configured `when: diagnose` run too), and
// merges the answers. A chunk whose check fails outright is an error; a
// checker that timed out, broke or could not start is reported in
// Checkers and leaves the report incomplete — never silently clean.
func Diagnose(ctx context.Context, opts DiagnoseOptions) (DiagnoseReport, error) {
	begin := time.Now()
	jobs, size := max(opts.Jobs, 1), opts.ChunkSize
	if size <= 0 {
		size = 25
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = 2 * time.Minute
	}
	files := slices.Sorted(slices.Values(opts.Files))
	var chunks [][]string
	for len(files) > 0 {
		n := min(size, len(files))
		chunks = append(chunks, files[:n])
		files = files[n:]
	}
	var (
		mu      sync.Mutex // guards rep, failed and firstErr
		rep     = DiagnoseReport{Complete: true}
		failed  = make(map[string]wire.ServerResult)
		firstEr error
	)
	work := make(chan []string)
	var wg sync.WaitGroup
	for range min(jobs, max(len(chunks), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for chunk := range work {
				res, err := opts.Check(ctx, diagnoseParams(chunk, opts.Severity, budget))
				mu.Lock()
				if err != nil && firstEr == nil {
					firstEr = fmt.Errorf("checking %s and %d more: %w", chunk[0], len(chunk)-1, err)
				}
				mergeChunk(&rep, failed, chunk, res)
				mu.Unlock()
				if opts.Progress != nil {
					opts.Progress.Add(len(chunk))
				}
			}
		}()
	}
feed:
	for _, c := range chunks {
		select {
		case work <- c:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if firstEr == nil && ctx.Err() != nil {
		firstEr = ctx.Err()
	}
	for _, k := range slices.Sorted(mapsKeys(failed)) {
		rep.Checkers = append(rep.Checkers, failed[k])
	}
	rep.Complete = rep.Complete && len(rep.Checkers) == 0
	slices.Sort(rep.Unchecked)
	slices.SortFunc(rep.Files, func(a, b diag.FileDiagnostics) int { return strings.Compare(a.Path, b.Path) })
	rep.Elapsed = time.Since(begin)
	return rep, firstEr
}

func diagnoseParams(chunk []string, sev diag.Severity, budget time.Duration) wire.NotifyChangeParams {
	p := wire.NotifyChangeParams{Source: "diagnose", Phase: phaseDiagnose, Severity: sev.String(),
		BudgetMS: int(budget.Milliseconds()), ColdBudgetMS: int(budget.Milliseconds())}
	for _, f := range chunk {
		p.Changes = append(p.Changes, wire.Change{Path: f, Mode: wire.ModeEdit})
	}
	return p
}

// mergeChunk adds one chunk's answer to rep: the diagnostics of the chunk's
// own files, its notes, which of its files were checked and which nothing
// checked, and each checker that did not answer fully (keyed by name and
// root, so a server that timed out on ten chunks is one line).
func mergeChunk(rep *DiagnoseReport, failed map[string]wire.ServerResult, chunk []string, res wire.Result) {
	mine := make(map[string]bool, len(chunk))
	for _, f := range chunk {
		mine[f] = true
	}
	for _, f := range res.Unchecked {
		if mine[f] {
			delete(mine, f)
			rep.Unchecked = append(rep.Unchecked, f)
		}
	}
	rep.Checked += len(mine)
	for _, f := range res.Files {
		if mine[f.Path] && len(f.Diagnostics) > 0 {
			rep.Files = append(rep.Files, f)
		}
	}
	rep.Notes = append(rep.Notes, res.Notes...)
	for _, s := range res.Servers {
		if s.Freshness == string(lsp.Fresh) || s.State == lsp.StateUnavailable && s.Kind == wire.KindServer {
			continue // a language server that is not installed is a note below, not a failure
		}
		failed[s.Name+"\x00"+s.Root] = s
	}
	for _, s := range res.Servers {
		if s.State == lsp.StateUnavailable && s.Kind == wire.KindServer {
			note := fmt.Sprintf("%s is not installed: its files were not checked by it", s.Name)
			if !slices.Contains(rep.Notes, note) {
				rep.Notes = append(rep.Notes, note)
			}
		}
	}
}
