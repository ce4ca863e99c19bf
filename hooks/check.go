package hooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/wire"
)

// This file is how a hook gets a Result: from the workspace daemon,
// started when absent, or from the validators in-process; with a shell
// command's files found by the daemon's changed_files or by modification
// time.
//
// A shell command's span: the daemon remembers, per session and hook
// event (chainOf), when that chain's last hook asked, and looks back to
// it; when that hook was a file tool's, which examined no other file, to
// the command's start by the event's duration (measured back from when
// this hook began, with slack) if that is earlier: a hook may arrive
// seconds after its command (another hook ran first), and the event
// carries no end time. With neither known it looks back
// DefaultShellWindow and says so; where its file watcher cannot vouch for
// the span it finds the files by modification time and says so.

// request is what one check asks: the changes, and, for a shell command,
// every workspace file it changed on disk.
type request struct {
	changes []wire.Change
	shell   bool          // add the files a shell command changed
	ran     time.Duration // how long the command ran, by the event; 0 when unknown
	chain   string        // the session's hook chain (chainOf); "" without a session
	at      time.Time     // when the hook began
	session string        // the agent's session, for the daemon's session record; "" without one
	agent   string        // the agent whose session it is
}

// Shell-command spans.
const (
	// windowSlack widens the span a command's duration gives at its start:
	// the hook starts after the command ended, and clocks are read at
	// different moments.
	windowSlack = time.Second
	// maxShellFiles bounds the files one shell command contributes.
	maxShellFiles = 200
)

// chainOf names the event's hook chain for the daemon's memory of
// sessions: the agent, the hook event and the session, so that hooks of
// two agents, or a session's PostToolUse and PostToolBatch hooks, each
// look back to their own previous hook. It is "" without a session.
func chainOf(ev Event) string {
	if ev.Session == "" {
		return ""
	}
	return ev.Agent + "/" + ev.Hook + "/" + ev.Session
}

// changedParams is q's changed_files question.
func (q request) changedParams() wire.ChangedFilesParams {
	p := wire.ChangedFilesParams{Session: q.chain, DefaultMS: DefaultShellWindow.Milliseconds()}
	if q.ran > 0 {
		p.SinceMS = q.at.Add(-q.ran - windowSlack).UnixMilli()
	}
	return p
}

// withShellFiles adds the files of cf to q's changes in write mode (a
// shell command may have changed what other files rely on), those it
// deleted included, and returns
// the notes the lint block must carry: cf's, and one when there were more
// files than a hook checks.
func (q request) withShellFiles(cf wire.ChangedFilesResult, log *slog.Logger) ([]wire.Change, []string) {
	paths, notes := cf.Paths, cf.Notes
	if len(paths) > maxShellFiles || cf.Truncated {
		log.Warn("shell command changed many files; checking the first ones", "files", len(paths), "truncated", cf.Truncated, "checked", min(len(paths), maxShellFiles))
		total := fmt.Sprint(len(paths))
		if cf.Truncated {
			total = "more than " + total
		}
		paths = paths[:min(len(paths), maxShellFiles)]
		notes = append(slices.Clip(notes), fmt.Sprintf("the shell command changed %s files; only the first %d were checked", total, len(paths)))
	}
	var found []wire.Change
	for _, p := range paths {
		found = append(found, wire.Change{Path: p, Mode: wire.ModeWrite})
	}
	// A file the command deleted or renamed away is passed on too: the
	// daemon closes it in the servers and lists what its loss broke.
	for _, p := range cf.Deleted[:min(len(cf.Deleted), maxShellFiles)] {
		found = append(found, wire.Change{Path: p, Mode: wire.ModeWrite})
	}
	return mergeChanges(q.changes, found), notes
}

// Check gets a Result for changes in the workspace root: from the daemon
// (started when absent) within the budget counted from begin, else from
// the validators in-process. via says which ("daemon", "started-daemon",
// "in-process").
func Check(ctx context.Context, root string, changes []wire.Change, source string, begin time.Time, opts Options) (res wire.Result, via string) {
	res, via, _ = check(ctx, root, request{changes: changes}, source, begin, opts)
	return res, via
}

// check is Check for a request; it also returns the changes it checked
// (a shell command's files included).
func check(ctx context.Context, root string, q request, source string, begin time.Time, opts Options) (res wire.Result, via string, checked []wire.Change) {
	opts = opts.withDefaults()
	log := opts.Log
	socket := opts.Socket
	if socket == "" {
		socket = wire.SocketPath(root)
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
		res, checked = inProcess(coldCtx, root, q, source, opts, why)
		return res, "in-process", checked
	}
	res, checked = inProcess(coldCtx, root, q, source, opts, "") // --no-daemon: the user chose validators only
	return res, "in-process", checked
}

// viaDaemon asks the workspace's daemon, starting it when absent. Its
// first request goes to a daemon already running together with hello, in
// one round trip (wire.ConnectWith): a shell command's changed_files, else
// the notify_change under the warm budget; a daemon just started gets it
// afterwards, under the cold budget.
func viaDaemon(ctx context.Context, root, socket string, q request, source string, begin time.Time, opts Options) (wire.Result, bool, []wire.Change, error) {
	var (
		res   wire.Result
		cf    wire.ChangedFilesResult
		first *wire.Call
	)
	switch {
	case q.shell:
		first = &wire.Call{Method: wire.MethodChangedFiles, Params: q.changedParams(), Result: &cf}
	case len(q.changes) > 0:
		p, err := q.notifyParams(q.changes, nil, source, begin, false, opts)
		if err != nil {
			return wire.Result{}, false, nil, err
		}
		first = &wire.Call{Method: wire.MethodNotifyChange, Params: p, Result: &res}
	}
	c, started, err := wire.ConnectWith(ctx, opts.Version, wire.StartOptions{
		Executable: opts.Executable, Root: root, Socket: socket,
		Wait: max(time.Until(begin.Add(opts.ColdBudget))/2, 100*time.Millisecond),
	}, first)
	if err != nil {
		return wire.Result{}, false, nil, err
	}
	defer c.Close()
	if first == nil {
		return wire.Result{}, started, nil, nil
	}
	if !first.Sent {
		if q.shell {
			first.Err = c.Call(ctx, first.Method, first.Params, first.Result)
		} else {
			p, err := q.notifyParams(q.changes, nil, source, begin, started, opts)
			if err != nil {
				return wire.Result{}, started, nil, err
			}
			first.Err = c.Call(ctx, wire.MethodNotifyChange, p, &res)
		}
	}
	if q.shell {
		return shellViaDaemon(ctx, c, q, cf, first.Err, source, begin, started, opts)
	}
	if first.Err != nil {
		return wire.Result{}, started, nil, fmt.Errorf("notify_change: %w", first.Err)
	}
	return res, started, q.changes, nil
}

// shellViaDaemon is viaDaemon's rest for a shell command, once the daemon
// answered changed_files with cf (or err): a notify_change of the files
// the command changed, with the event's own.
func shellViaDaemon(ctx context.Context, c *wire.Client, q request, cf wire.ChangedFilesResult, err error,
	source string, begin time.Time, started bool, opts Options) (wire.Result, bool, []wire.Change, error) {
	if err != nil {
		return wire.Result{}, started, nil, fmt.Errorf("changed_files: %w", err)
	}
	opts.Log.Debug("files changed by the shell command", "span", cf.Span, "source", cf.Source,
		"uncovered", cf.Uncovered, "files", len(cf.Paths), "truncated", cf.Truncated)
	changes, notes := q.withShellFiles(cf, opts.Log)
	if len(changes) == 0 {
		if len(notes) > 0 {
			return wire.NotesResult(notes), started, nil, nil
		}
		return wire.Result{}, started, nil, nil
	}
	p, err := q.notifyParams(changes, notes, source, begin, started, opts)
	if err != nil {
		return wire.Result{}, started, nil, err
	}
	var res wire.Result
	if err := c.Call(ctx, wire.MethodNotifyChange, p, &res); err != nil {
		return wire.Result{}, started, nil, fmt.Errorf("notify_change: %w", err)
	}
	return res, started, changes, nil
}

// notifyParams is the notify_change for changes, with notes on what was
// left out, under the warm budget counted from begin, or the cold one for
// a daemon just started. It fails when the budget is already spent.
func (q request) notifyParams(changes []wire.Change, notes []string, source string, begin time.Time, started bool, opts Options) (wire.NotifyChangeParams, error) {
	warm := time.Until(begin.Add(opts.Budget))
	if started {
		warm = time.Until(begin.Add(opts.ColdBudget))
	}
	p := wire.NotifyChangeParams{
		Changes: changes, Source: source, Publish: opts.Publish,
		BudgetMS:     int(max(warm, 0) / time.Millisecond),
		ColdBudgetMS: int(max(time.Until(begin.Add(opts.ColdBudget)), 0) / time.Millisecond),
		Skipped:      notes,
		Session:      q.session, Agent: q.agent,
	}
	if p.BudgetMS <= 0 {
		return p, fmt.Errorf("budget spent before asking the daemon")
	}
	if !q.shell {
		// The session's next shell hook looks back to this one (a shell
		// hook's changed_files already marked it); the daemon marks it
		// once the check is over (NotifyChangeParams.Chain;
		// TestAgentClaudeBashLateHook).
		p.Chain = q.chain
	}
	return p, nil
}

// Local checks without a daemon, in-process: the hook's fallback when no
// daemon can be had, and its whole answer with NoDaemon. cmd passes the
// engine's (sidecar.Local); hooks does not import the engine.
type Local interface {
	// ChangedOnDisk answers p by modification time, remembering no
	// session; uncovered says why no watcher was asked (for the notes).
	ChangedOnDisk(ctx context.Context, root string, p wire.ChangedFilesParams, uncovered string) (wire.ChangedFilesResult, error)
	// Check checks p's changes in the workspace root with the built-in
	// validators only. fallback, when not "", is why no language server
	// checked: the lint block names the servers that would have.
	Check(ctx context.Context, root string, p wire.NotifyChangeParams, fallback string, log *slog.Logger) wire.Result
}

// inProcess runs opts.Local: the built-in validators only, on the
// request's changes and, for a shell command, the files whose
// modification time falls in its window. When a changed file is one a
// language server would have checked, the block says so (why is the
// reason), so the agent never takes silence for a clean file. Without a
// Local the answer is a note that nothing was checked.
func inProcess(ctx context.Context, root string, q request, source string, opts Options, why string) (wire.Result, []wire.Change) {
	log := opts.Log
	if opts.Local == nil {
		if why == "" {
			why = "lsp-hook runs without its daemon"
		}
		return wire.NotesResult([]string{why + " and has no in-process checker; the changes are not checked"}), nil
	}
	changes, notes := q.changes, []string(nil)
	if q.shell {
		uncovered := "no lsp-hook daemon answered, so no file watcher"
		if why == "" {
			uncovered = "lsp-hook runs without its daemon and its file watcher"
		}
		cf, err := opts.Local.ChangedOnDisk(ctx, root, q.changedParams(), uncovered)
		if err != nil {
			log.Warn("listing files the shell command changed", "err", err)
			cf.Notes = []string{"the files the shell command changed could not be listed (" + err.Error() + "); they are not checked"}
		}
		changes, notes = q.withShellFiles(cf, log)
	}
	if len(changes) == 0 {
		if len(notes) > 0 {
			return wire.NotesResult(notes), nil
		}
		return wire.Result{}, nil
	}
	res := opts.Local.Check(ctx, root, wire.NotifyChangeParams{Changes: changes, Source: source, Skipped: notes}, why, log)
	return res, changes
}
