package hooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

// This file is how a hook gets a Result: from the workspace daemon,
// started when absent, or from the validators in-process; with a shell
// command's files found by the daemon's changed_files or by modification
// time.

// request is what one check asks: the changes, and, when within is
// positive, every workspace file changed on disk in the within before at.
type request struct {
	changes []sidecar.Change
	within  time.Duration
	at      time.Time
}

// Shell-command windows.
const (
	// windowSlack widens a shell command's window at its start: the hook
	// starts after the command ended, and clocks are read at different
	// moments.
	windowSlack = time.Second
	// maxShellFiles bounds the files one shell command contributes.
	maxShellFiles = 200
)

// since is the start of the request's window.
func (q request) since() time.Time { return q.at.Add(-q.within - windowSlack) }

// withShellFiles adds the changed files (absolute paths) to q's changes in
// write mode: a shell command may have changed what other files rely on.
func (q request) withShellFiles(paths []string, log *slog.Logger) []sidecar.Change {
	if len(paths) > maxShellFiles {
		log.Warn("shell command changed many files; checking the first ones", "files", len(paths), "checked", maxShellFiles)
		paths = paths[:maxShellFiles]
	}
	var found []sidecar.Change
	for _, p := range paths {
		found = append(found, sidecar.Change{Path: p, Mode: sidecar.ModeWrite})
	}
	return mergeChanges(q.changes, found)
}

// Check gets a Result for changes in the workspace root: from the daemon
// (started when absent) within the budget counted from begin, else from
// the validators in-process. via says which ("daemon", "started-daemon",
// "in-process").
func Check(ctx context.Context, root string, changes []sidecar.Change, source string, begin time.Time, opts Options) (res sidecar.Result, via string) {
	res, via, _ = check(ctx, root, request{changes: changes}, source, begin, opts)
	return res, via
}

// check is Check for a request; it also returns the changes it checked
// (a shell command's files included).
func check(ctx context.Context, root string, q request, source string, begin time.Time, opts Options) (res sidecar.Result, via string, checked []sidecar.Change) {
	opts = opts.withDefaults()
	log := opts.Log
	socket := opts.Socket
	if socket == "" {
		socket = sidecar.SocketPath(root)
	}
	coldCtx, cancel := context.WithDeadline(ctx, begin.Add(opts.ColdBudget))
	defer cancel()
	if !opts.NoDaemon {
		res, started, checked, err := viaDaemon(coldCtx, root, socket, q, source, begin, opts)
		if err == nil {
			if started {
				return res, "started-daemon", checked
			}
			return res, "daemon", checked
		}
		why := "the lsp-hook daemon is unavailable"
		if errors.Is(err, jsonrpc2.ErrClosed) {
			why = "the lsp-hook daemon was lost during this check" // it died or closed the connection mid-request
		}
		log.Warn("daemon unavailable; running validators in-process", "socket", socket, "err", err)
		res, checked = inProcess(coldCtx, root, q, source, log, why)
		return res, "in-process", checked
	}
	res, checked = inProcess(coldCtx, root, q, source, log, "") // --no-daemon: the user chose validators only
	return res, "in-process", checked
}

func viaDaemon(ctx context.Context, root, socket string, q request, source string, begin time.Time, opts Options) (sidecar.Result, bool, []sidecar.Change, error) {
	c, started, err := sidecar.Connect(ctx, opts.Version, sidecar.StartOptions{
		Executable: opts.Executable, Root: root, Socket: socket,
		Wait: max(time.Until(begin.Add(opts.ColdBudget))/2, 100*time.Millisecond),
	})
	if err != nil {
		return sidecar.Result{}, false, nil, err
	}
	defer c.Close()
	changes := q.changes
	if q.within > 0 {
		var cf sidecar.ChangedFilesResult
		p := sidecar.ChangedFilesParams{SinceMS: q.since().UnixMilli()}
		if err := c.Call(ctx, sidecar.MethodChangedFiles, p, &cf); err != nil {
			return sidecar.Result{}, started, nil, fmt.Errorf("changed_files: %w", err)
		}
		opts.Log.Debug("files changed by the shell command", "source", cf.Source, "files", len(cf.Paths), "truncated", cf.Truncated)
		changes = q.withShellFiles(cf.Paths, opts.Log)
	}
	if len(changes) == 0 {
		return sidecar.Result{}, started, nil, nil
	}
	warm := time.Until(begin.Add(opts.Budget))
	if started {
		warm = time.Until(begin.Add(opts.ColdBudget))
	}
	p := sidecar.NotifyChangeParams{
		Changes: changes, Source: source, Publish: opts.Publish,
		BudgetMS:     int(max(warm, 0) / time.Millisecond),
		ColdBudgetMS: int(max(time.Until(begin.Add(opts.ColdBudget)), 0) / time.Millisecond),
	}
	if p.BudgetMS <= 0 {
		return sidecar.Result{}, started, nil, fmt.Errorf("budget spent before asking the daemon")
	}
	var res sidecar.Result
	if err := c.Call(ctx, sidecar.MethodNotifyChange, p, &res); err != nil {
		return sidecar.Result{}, started, nil, fmt.Errorf("notify_change: %w", err)
	}
	return res, started, changes, nil
}

// inProcess runs the engine without language servers: the built-in
// validators only, on the request's changes and, for a shell command, the
// files whose modification time falls in its window. When a changed file
// is one a language server would have checked, the block says so (why is
// the reason), so the agent never takes silence for a clean file.
func inProcess(ctx context.Context, root string, q request, source string, log *slog.Logger, why string) (sidecar.Result, []sidecar.Change) {
	changes := q.changes
	if q.within > 0 {
		paths, err := sidecar.ChangedSince(ctx, root, q.since())
		if err != nil {
			log.Warn("listing files the shell command changed", "err", err)
		}
		changes = q.withShellFiles(paths, log)
	}
	if len(changes) == 0 {
		return sidecar.Result{}, nil
	}
	cfg, problems := sidecar.LoadConfig(root)
	for _, p := range problems {
		log.Warn("config problem; using defaults for it", "problem", p.Error())
	}
	e := sidecar.NewEngine(root, cfg, nil, log)
	e.Fallback = why // the block names the servers that did not check, within its caps
	res := e.Check(ctx, sidecar.NotifyChangeParams{Changes: changes, Source: source})
	return res, changes
}
