package hooks

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

// Options configure one hook run.
type Options struct {
	// Budget is the hook's total time when the daemon and its servers are
	// warm (default 5 s); ColdBudget when it had to start the daemon or a
	// server (default 12 s). The hook prints what it has and exits by then.
	Budget, ColdBudget time.Duration
	// Socket overrides the daemon socket; "" means sidecar.SocketPath(root).
	Socket string
	// Executable is the lsp-hook binary to start a daemon with; "" means
	// this process's own.
	Executable string
	// Version is this binary's version, sent in hello.
	Version string
	// Log receives one line per run and every error; nil discards.
	Log *slog.Logger
	// NoDaemon skips the daemon and runs the validators in-process.
	NoDaemon bool
}

func (o Options) withDefaults() Options {
	if o.Budget <= 0 {
		o.Budget = sidecar.DefaultBudget
	}
	if o.ColdBudget <= 0 {
		o.ColdBudget = sidecar.DefaultColdBudget
	}
	if o.ColdBudget < o.Budget {
		o.ColdBudget = o.Budget
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Run is one hook invocation: decode the agent's event from stdin, get
// diagnostics from the workspace daemon (starting it when absent), and write
// the agent's answer to stdout. It never returns an error for the agent to
// see: a bad event, a dead daemon, a timeout are logged, and the hook falls
// back to the in-process validators or says nothing. Without opts.Log it
// logs beside the workspace's socket, where the daemon logs. The returned
// Result is what was rendered (for tests).
func Run(ctx context.Context, a Adapter, stdin io.Reader, stdout io.Writer, opts Options) sidecar.Result {
	begin := time.Now()
	ev, decodeErr := a.Decode(stdin)
	cwd := ev.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	root, rootErr := sidecar.FindWorkspace(cwd)
	if opts.Socket == "" && rootErr == nil {
		opts.Socket = sidecar.SocketPath(root)
	}
	if opts.Log == nil && opts.Socket != "" {
		l, closeLog := sidecar.OpenSocketLog(opts.Socket)
		defer closeLog()
		opts.Log = l
	}
	opts = opts.withDefaults()
	log := opts.Log.With("component", "hook", "agent", a.Name())
	switch {
	case decodeErr != nil:
		log.Warn("ignoring hook event", "err", decodeErr)
		return sidecar.Result{}
	case len(ev.Changes) == 0:
		log.Debug("event has no file changes", "tool", ev.Tool)
		return sidecar.Result{}
	case rootErr != nil:
		log.Warn("ignoring hook event", "err", rootErr)
		return sidecar.Result{}
	}
	res, via := Check(ctx, root, ev.Changes, a.Name(), begin, opts)
	if err := a.Encode(stdout, res.Lint); err != nil {
		log.Warn("writing hook answer", "err", err)
	}
	log.Info("hook answered", "session", ev.Session, "tool", ev.Tool, "via", via, "files", len(res.Files),
		"notes", res.Notes, "elapsed_ms", time.Since(begin).Milliseconds())
	return res
}

// Check gets a Result for changes in the workspace root: from the daemon
// (started when absent) within the budget counted from begin, else from
// the validators in-process. via says which ("daemon", "started-daemon",
// "in-process").
func Check(ctx context.Context, root string, changes []sidecar.Change, source string, begin time.Time, opts Options) (res sidecar.Result, via string) {
	opts = opts.withDefaults()
	log := opts.Log
	socket := opts.Socket
	if socket == "" {
		socket = sidecar.SocketPath(root)
	}
	coldCtx, cancel := context.WithDeadline(ctx, begin.Add(opts.ColdBudget))
	defer cancel()
	if !opts.NoDaemon {
		res, started, err := viaDaemon(coldCtx, root, socket, changes, source, begin, opts)
		if err == nil {
			if started {
				return res, "started-daemon"
			}
			return res, "daemon"
		}
		log.Warn("daemon unavailable; running validators in-process", "socket", socket, "err", err)
		return inProcess(coldCtx, root, changes, source, log, "the lsp-hook daemon is unavailable"), "in-process"
	}
	return inProcess(coldCtx, root, changes, source, log, ""), "in-process" // --no-daemon: the user chose validators only
}

func viaDaemon(ctx context.Context, root, socket string, changes []sidecar.Change, source string, begin time.Time, opts Options) (sidecar.Result, bool, error) {
	c, started, err := sidecar.Connect(ctx, opts.Version, sidecar.StartOptions{
		Executable: opts.Executable, Root: root, Socket: socket,
		Wait: max(time.Until(begin.Add(opts.ColdBudget))/2, 100*time.Millisecond),
	})
	if err != nil {
		return sidecar.Result{}, false, err
	}
	defer c.Close()
	warm := time.Until(begin.Add(opts.Budget))
	if started {
		warm = time.Until(begin.Add(opts.ColdBudget))
	}
	p := sidecar.NotifyChangeParams{
		Changes: changes, Source: source,
		BudgetMS:     int(max(warm, 0) / time.Millisecond),
		ColdBudgetMS: int(max(time.Until(begin.Add(opts.ColdBudget)), 0) / time.Millisecond),
	}
	if p.BudgetMS <= 0 {
		return sidecar.Result{}, started, fmt.Errorf("budget spent before asking the daemon")
	}
	var res sidecar.Result
	if err := c.Call(ctx, sidecar.MethodNotifyChange, p, &res); err != nil {
		return sidecar.Result{}, started, fmt.Errorf("notify_change: %w", err)
	}
	return res, started, nil
}

// inProcess runs the engine without language servers: the built-in
// validators only. When a changed file is one a language server would have
// checked, the block says so (why is the reason), so the agent never takes
// silence for a clean file.
func inProcess(ctx context.Context, root string, changes []sidecar.Change, source string, log *slog.Logger, why string) sidecar.Result {
	cfg, problems := sidecar.LoadConfig(root)
	for _, p := range problems {
		log.Warn("config problem; using defaults for it", "problem", p.Error())
	}
	e := sidecar.NewEngine(root, cfg, nil, log)
	res := e.Check(ctx, sidecar.NotifyChangeParams{Changes: changes, Source: source})
	var missed []string
	for _, c := range changes {
		for _, s := range cfg.ServersForPath(c.Path) {
			if !sidecar.Installed(s) {
				continue // not installed: it would not have checked either
			}
			if !slices.Contains(missed, s.Name) {
				missed = append(missed, s.Name)
			}
		}
	}
	if len(missed) > 0 && why != "" {
		note := fmt.Sprintf("lsp-hook: %s, so %s did not check this change; errors it would report are unknown, not absent.",
			why, strings.Join(missed, ", "))
		if res.Lint != "" {
			res.Lint += "\n"
		}
		res.Lint += note
	}
	return res
}
