package hooks

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Options configure one hook run.
type Options struct {
	// Budget is the hook's total time when the daemon and its servers are
	// warm (default 5 s); ColdBudget when it had to start the daemon or a
	// server (default 12 s). The hook prints what it has and exits by then.
	Budget, ColdBudget time.Duration
	// Socket overrides the daemon socket; "" means wire.SocketPath(root).
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
	// Local checks in-process when no daemon can be had, or with NoDaemon
	// (cmd passes sidecar.Local); nil answers that nothing was checked.
	Local Local
	// Publish asks the daemon to send the result to its subscribers
	// (`lsp-hook subscribe`; a declaration's `publish: true`).
	Publish bool
	// Stderr receives the exit2 mode's lint block; nil discards it.
	Stderr io.Writer
	// NoShell ignores shell tool events (Event.Shell): `lsp-hook hook
	// AGENT --no-shell`, which `install --no-shell` writes for agents
	// whose hook sees every tool.
	NoShell bool
}

func (o Options) withDefaults() Options {
	if o.Budget <= 0 {
		o.Budget = wire.DefaultBudget
	}
	if o.ColdBudget <= 0 {
		o.ColdBudget = wire.DefaultColdBudget
	}
	if o.ColdBudget < o.Budget {
		o.ColdBudget = o.Budget
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	return o
}

// Outcome is what one hook run did: the Result it rendered (for tests and
// the log) and the exit status the process should end with.
type Outcome struct {
	Result wire.Result // what the answer carried (empty when nothing was checked)
	Exit   int         // 0, or 2 in the exit2 mode with a lint block
}

// Run is one hook invocation: read the agent's event from stdin (within
// the cold budget), decode it, take or record the session's spooled
// changes when the event says so, get diagnostics from the workspace
// daemon (starting it when absent), and write the agent's answer to
// stdout. It never fails the agent's tool: a bad event, a dead daemon, a
// timeout are logged, and the hook falls back to the in-process
// validators or says nothing; the exit status is non-zero only in the
// exit2 mode with a lint block. Without opts.Log it logs beside the
// workspace's socket, where the daemon logs.
func Run(ctx context.Context, a Adapter, stdin io.Reader, stdout io.Writer, opts Options) Outcome {
	begin := time.Now()
	ev, decodeErr := readAndDecode(ctx, a, stdin, begin.Add(opts.withDefaults().ColdBudget))
	if ev.Agent == "" {
		ev.Agent = a.Name()
	}
	if opts.NoShell {
		ev.Shell, ev.ShellRan = false, 0
	}
	root, opts, closeLog, rootErr := workspaceOf(&ev, opts)
	defer closeLog()
	log := opts.Log.With("component", "hook", "agent", a.Name())
	if ev.Agent != a.Name() {
		log = log.With("runner", ev.Agent)
	}
	switch {
	case decodeErr != nil:
		log.Warn("ignoring hook event", "err", decodeErr)
		return Outcome{}
	case rootErr != nil:
		if len(ev.Changes) > 0 || ev.Spool != SpoolNone || ev.Shell {
			log.Warn("ignoring hook event", "err", rootErr)
		}
		return Outcome{}
	}
	if ev.Lifecycle != "" && ev.Spool == SpoolNone {
		return lifecycle(ctx, a, ev, root, stdout, opts, log)
	}
	changes, sp, ok := spooled(ev, opts.Socket, log)
	if !ok {
		return Outcome{}
	}
	if ev.Lifecycle == LifecycleStop {
		return stopSpooled(ctx, a, ev, changes, sp, root, stdout, opts, log, begin)
	}
	if len(changes) == 0 && !ev.Shell {
		log.Debug("event has no file changes", "tool", ev.Tool, "event", ev.Hook)
		return write(a, ev, wire.Result{}, stdout, opts, log)
	}
	q := request{changes: changes, shell: ev.Shell, ran: ev.ShellRan, chain: chainOf(ev), at: begin,
		session: ev.Session, agent: ev.Agent}
	res, via, checked := check(ctx, root, q, a.Name(), begin, opts)
	res = deliveredOnce(ev, sp, res, checked, log)
	out := write(a, ev, res, stdout, opts, log)
	log.Info("hook answered", "session", ev.Session, "tool", ev.Tool, "event", ev.Hook, "via", via,
		"changes", len(checked), "files", len(res.Files), "notes", res.Notes, "exit", out.Exit,
		"elapsed_ms", time.Since(begin).Milliseconds())
	return out
}

// workspaceOf finds the event's workspace (from its directory, else the
// hook's), and completes opts with its socket and, without opts.Log, the
// log beside that socket; closeLog closes it. When that directory reaches
// the root through a symlink (macOS's /tmp, a linked ~/code), the paths of
// the event's changes (and the keys of its Calls), spelled as the agent
// spells its directory, are respelled in the root's (workspace.Alias), or
// they would all lie outside the workspace.
func workspaceOf(ev *Event, opts Options) (root string, _ Options, closeLog func(), err error) {
	cwd := ev.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd() // $PWD's spelling when it names the same directory
	}
	root, err = workspace.Find(cwd)
	if err == nil {
		if alias := workspace.Alias(root, cwd); alias != "" {
			for i, c := range ev.Changes {
				ev.Changes[i].Path = workspace.Respell(root, alias, c.Path)
			}
			if ev.Calls != nil { // keyed by the changes' paths
				calls := make(map[string][]string, len(ev.Calls))
				for p, ids := range ev.Calls {
					q := workspace.Respell(root, alias, p)
					calls[q] = append(calls[q], ids...)
				}
				ev.Calls = calls
			}
		}
	}
	if opts.Socket == "" && err == nil {
		opts.Socket = wire.SocketPath(root)
	}
	closeLog = func() {}
	if opts.Log == nil && opts.Socket != "" {
		opts.Log, closeLog = wire.OpenSocketLog(opts.Socket)
	}
	return root, opts.withDefaults(), closeLog, err
}

// deliveredOnce applies the event's delivered-block records to res: it
// records the files of a block delivered for a per-tool event
// (NoteDelivered), and empties a block already delivered for the same
// session, files and contents (Once). A block of notes alone (a shell
// command's span, nothing checked) has no files to key on: it is always
// delivered.
func deliveredOnce(ev Event, sp *spool, res wire.Result, checked []wire.Change, log *slog.Logger) wire.Result {
	if res.Lint == "" || sp == nil || ev.Session == "" || len(checked) == 0 {
		return res
	}
	if ev.NoteDelivered {
		if err := sp.noteFiles(ev.Agent, ev.Session, checked, ev.Calls); err != nil {
			log.Warn("recording the files reported", "err", err)
		}
	}
	if !ev.Once {
		return res
	}
	first, err := sp.claim(ev.Agent, ev.Session, checked)
	switch {
	case err != nil:
		log.Warn("checking for a block already delivered", "err", err)
	case !first:
		log.Info("lint block already delivered for this session and content; not repeating it",
			"session", ev.Session, "files", len(checked))
		res.Lint = ""
	}
	return res
}

// readAndDecode reads the event from stdin, giving up at deadline (an
// agent that never closes the pipe must not hang the hook), and decodes
// it.
func readAndDecode(ctx context.Context, a Adapter, stdin io.Reader, deadline time.Time) (Event, error) {
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		data, err := readEvent(stdin)
		done <- read{data, err}
	}()
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	select {
	case r := <-done:
		if r.err != nil {
			return Event{}, r.err
		}
		return a.Decode(bytes.NewReader(r.data))
	case <-ctx.Done():
		return Event{}, fmt.Errorf("reading the event from stdin: %w", ctx.Err())
	}
}

// spooled applies the event's spool operation and returns the changes to
// check now. ok is false when the run is over (changes were recorded for
// a later event). The spool is returned for the delivered-block record;
// it is nil when the event needs none or it cannot be opened.
func spooled(ev Event, socket string, log *slog.Logger) (changes []wire.Change, sp *spool, ok bool) {
	changes = ev.Changes
	if ev.Spool == SpoolNone && !ev.Once && (ev.Session == "" || !ev.NoteDelivered && !ev.SkipDelivered) {
		return changes, nil, true
	}
	sp, err := openSpool(socket)
	if err != nil {
		log.Warn("hook spool unavailable", "err", err)
		return changes, nil, ev.Spool != SpoolRecord
	}
	session := ev.Session
	if session == "" {
		session = "-"
	}
	switch ev.Spool {
	case SpoolRecord:
		if len(changes) > 0 {
			if err := sp.record(ev.Agent, session, changes); err != nil {
				log.Warn("recording changes for a later event", "err", err)
			} else {
				log.Info("hook recorded changes for a later event", "session", ev.Session, "event", ev.Hook, "changes", len(changes))
			}
		}
		return nil, sp, false
	case SpoolTake:
		taken, err := sp.take(ev.Agent, session)
		if err != nil {
			log.Warn("taking recorded changes", "err", err)
		}
		changes = mergeChanges(taken, changes)
	}
	if ev.SkipDelivered && len(changes) > 0 {
		left, err := sp.skipDelivered(ev.Agent, session, changes, ev.Calls)
		if err != nil {
			log.Warn("checking for files already reported", "err", err)
		} else if len(left) < len(changes) {
			log.Debug("leaving out files already reported this session", "files", len(changes)-len(left))
			changes = left
		}
	}
	return changes, sp, true
}

// write renders and prints the answer.
func write(a Adapter, ev Event, res wire.Result, stdout io.Writer, opts Options, log *slog.Logger) Outcome {
	ans, err := a.Encode(ev, res)
	if err != nil {
		log.Warn("rendering hook answer", "err", err)
		return Outcome{Result: res}
	}
	if len(ans.Stdout) > 0 {
		if _, err := stdout.Write(ans.Stdout); err != nil {
			log.Warn("writing hook answer", "err", err)
		}
	}
	if len(ans.Stderr) > 0 {
		if _, err := opts.Stderr.Write(ans.Stderr); err != nil {
			log.Warn("writing hook answer", "err", err)
		}
	}
	return Outcome{Result: res, Exit: ans.Exit}
}

// stopSpooled answers an end of turn that also takes the session's spool
// (Copilot's agentStop, which an older lsp-hook's postToolUse recorded
// for; Cursor's stop, after afterFileEdit events no postToolUse took):
// the spooled files are checked first, as the session's changes, and a
// block for them is this turn's answer (Encode, in the agent's
// end-of-turn shape); with none, or none left with errors, the Stop gate
// answers.
func stopSpooled(ctx context.Context, a Adapter, ev Event, changes []wire.Change, sp *spool, root string,
	stdout io.Writer, opts Options, log *slog.Logger, begin time.Time) Outcome {
	if len(changes) > 0 {
		q := request{changes: changes, chain: chainOf(ev), at: begin, session: ev.Session, agent: ev.Agent}
		res, via, checked := check(ctx, root, q, a.Name(), begin, opts)
		res = deliveredOnce(ev, sp, res, checked, log)
		if res.Lint != "" {
			out := write(a, ev, res, stdout, opts, log)
			log.Info("end of turn: recorded changes answered", "session", ev.Session, "event", ev.Hook, "via", via,
				"changes", len(checked), "files", len(res.Files), "elapsed_ms", time.Since(begin).Milliseconds())
			return out
		}
	}
	return lifecycle(ctx, a, ev, root, stdout, opts, log)
}
