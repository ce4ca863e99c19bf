package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// This file answers an agent's session events (Event.Lifecycle; DESIGN.md
// "Sessions"). A session's start asks the daemon to start the servers the
// workspace needs and prints nothing; when no daemon answers it starts one
// that prewarms as it starts (`serve --prewarm`), without waiting for it,
// so the session never waits on lsp-hook. An end of turn asks the daemon's
// Stop gate and answers in the agent's way (StopEncoder), starting a
// daemon when none answers (none runs, one was killed or is stopping as
// the hook dials) but one left its sessions' record, or replacing one of
// an older protocol; with no daemon and no record, or for a session the
// daemon has no record of, the turn may end. A gate that cannot be asked
// then (no daemon could be had, or it did not answer) is a warning that
// the turn was not checked, never a silent allow. A session's end lets
// the daemon forget it. None of them ever fails the agent.

// dialWait bounds how long a session event waits to reach a running
// daemon.
const dialWait = 500 * time.Millisecond

// lifecycle answers ev, a session event, for the workspace at root.
func lifecycle(ctx context.Context, a Adapter, ev Event, root string, stdout io.Writer, opts Options, log *slog.Logger) Outcome {
	opts = opts.withDefaults()
	deadline := time.Now().Add(opts.ColdBudget) // the whole event's: a daemon replaced for its config included
	params := wire.SessionParams{Session: ev.Session, Agent: ev.Agent}
	dctx, cancel := context.WithTimeout(ctx, dialWait)
	c, err := wire.Dial(dctx, opts.Socket, opts.Version)
	cancel()
	if err == nil && c.Hello.Protocol < wire.ProtocolVersion {
		c.Close()
		err = errOldDaemon
	}
	if err == nil && c.Hello.ConfigChanged && ev.Lifecycle != LifecycleEnd {
		c, err = replaceForConfig(ctx, c, ev, root, opts, deadline, log)
	}
	switch ev.Lifecycle {
	case LifecycleStart:
		if err != nil {
			args := []string{"--prewarm"}
			if errors.Is(err, errOldDaemon) {
				// lsp-hook was upgraded while a daemon ran: the new one
				// asks it to stop and waits for it, while the session
				// goes on (a tool hook would replace it too, but cold).
				args = append(args, "--replace-older")
			}
			if ev.Session != "" {
				// The daemon records the session's start, as session_start
				// would: its first shell hook looks back to it.
				args = append(args, "--session", ev.Session, "--agent", ev.Agent,
					"--session-start-ms", strconv.FormatInt(time.Now().UnixMilli(), 10))
			}
			if _, serr := wire.StartDaemon(wire.StartOptions{Executable: opts.Executable, Root: root, Socket: opts.Socket,
				Args: args}); serr != nil {
				log.Warn("session start: starting the daemon", "err", serr)
			}
			log.Info("session start: daemon started to prewarm", "session", ev.Session, "reason", err)
			return Outcome{}
		}
		defer c.Close()
		var res wire.SessionStartResult
		if err := c.Call(ctx, wire.MethodSessionStart, params, &res); err != nil {
			log.Warn("session start", "err", err)
		}
		log.Info("session start", "session", ev.Session)
		return Outcome{}
	case LifecycleEnd:
		if err == nil {
			defer c.Close()
			if err := c.Call(ctx, wire.MethodSessionEnd, params, &struct{}{}); err != nil {
				log.Warn("session end", "err", err)
			}
		}
		return Outcome{}
	}
	// LifecycleStop.
	se, ok := a.(StopEncoder)
	if !ok {
		if err == nil {
			c.Close()
		}
		log.Info("end of turn: this agent's answer cannot block it", "agent", a.Name())
		return Outcome{}
	}
	if err != nil && (errors.Is(err, errOldDaemon) || leftSessions(opts.Socket)) {
		why := err
		if c, err = stopGateDaemon(ctx, root, opts, deadline); err != nil {
			log.Warn("end of turn not checked: no daemon could be had", "session", ev.Session, "dial", why, "err", err)
			return writeStop(se, ev, notChecked(err), stdout, log)
		}
	}
	if err != nil {
		log.Info("end of turn allowed: no daemon has this session", "session", ev.Session, "err", err)
		return Outcome{}
	}
	defer c.Close()
	budget := time.Until(deadline) - time.Second // leave time to answer
	sctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	var res wire.SessionStopResult
	p := wire.SessionStopParams{SessionParams: params, Active: ev.StopActive, BudgetMS: int(max(budget, time.Second) / time.Millisecond)}
	if err := c.Call(sctx, wire.MethodSessionStop, p, &res); err != nil {
		log.Warn("end of turn not checked: the Stop gate did not answer", "session", ev.Session, "err", err)
		return writeStop(se, ev, notChecked(err), stdout, log)
	}
	return writeStop(se, ev, res, stdout, log)
}

// writeStop writes res, the Stop gate's answer to ev, in the agent's way.
func writeStop(se StopEncoder, ev Event, res wire.SessionStopResult, stdout io.Writer, log *slog.Logger) Outcome {
	ans, err := se.EncodeStop(ev, res)
	if err != nil {
		log.Warn("rendering the Stop gate's answer", "err", err)
		return Outcome{}
	}
	if len(ans.Stdout) > 0 {
		if _, err := stdout.Write(ans.Stdout); err != nil {
			log.Warn("writing the Stop gate's answer", "err", err)
		}
	}
	log.Info("end of turn", "session", ev.Session, "decision", res.Decision, "errors", res.Errors, "files", res.Files)
	return Outcome{Exit: ans.Exit}
}

// notChecked is the Stop gate's answer when it could not be asked (err
// says why): a warning, never a silent allow, which says the turn is
// clean.
func notChecked(err error) wire.SessionStopResult {
	return wire.SessionStopResult{Decision: wire.StopWarn,
		Lint: fmt.Sprintf("lsp-hook: this end of turn was not checked (%s); errors the session made are unknown, not absent.", strings.Join(strings.Fields(err.Error()), " "))}
}

// leftSessions reports whether a daemon of socket that stopped, or was
// killed, left its sessions' record (wire.SessionsPath) for the next one.
func leftSessions(socket string) bool {
	_, err := os.Stat(wire.SessionsPath(socket))
	return err == nil
}

// stopGateDaemon starts a daemon for an end of turn that found none
// answering while one left its sessions' record — the daemon stopped
// mid-session (its idle timeout, shorter than a session's; `lsp-hook
// stop`), was killed (a crash, SIGKILL), or is stopping or stuck as the
// hook dials — or that found one of an older protocol, which wire.Connect
// asks to stop (it writes its record as it stops): the session's turn may
// not end unchecked on the errors it made before — allowed in silence,
// they were a false allow. The new daemon reads the record as it starts;
// it is given a quarter of what is left until deadline, the event's, to
// answer. A daemon that holds the socket's lock without answering keeps
// any other from starting: the error says so.
func stopGateDaemon(ctx context.Context, root string, opts Options, deadline time.Time) (*wire.Client, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Until(deadline)/2)
	defer cancel()
	c, _, err := wire.Connect(cctx, opts.Version, wire.StartOptions{Executable: opts.Executable, Root: root, Socket: opts.Socket,
		Wait: time.Until(deadline) / 4})
	return c, err
}

// replaceForConfig replaces c's daemon, whose config changed since it
// started (wire.HelloResult.ConfigChanged), for a session's start or end
// of turn, within half of what is left until deadline, the event's. For
// an end of turn it connects again (wire.Connect stops such a daemon, its
// sessions saved, and starts one that loads the config as it is now —
// `stop_gate: off` just written must not block — and the sessions). For a
// start it stops it (wire.Retire) and returns an error: the caller starts
// one to prewarm, without waiting for it.
func replaceForConfig(ctx context.Context, c *wire.Client, ev Event, root string, opts Options, deadline time.Time, log *slog.Logger) (*wire.Client, error) {
	log.Info("the daemon's config changed since it started; replacing it", "pid", c.Hello.Pid, "event", ev.Lifecycle)
	rctx, cancel := context.WithTimeout(ctx, time.Until(deadline)/2)
	defer cancel()
	if ev.Lifecycle == LifecycleStop {
		c.Close()
		nc, _, err := wire.Connect(rctx, opts.Version, wire.StartOptions{Executable: opts.Executable, Root: root, Socket: opts.Socket,
			Wait: time.Until(deadline) / 4})
		return nc, err
	}
	if err := wire.Retire(rctx, c, opts.Socket); err != nil {
		return nil, err
	}
	return nil, errConfigChanged
}

// errConfigChanged says the daemon that answered runs with a config that
// changed since it started; it was stopped.
var errConfigChanged = errors.New("the running daemon's config changed; it was stopped")

// errOldDaemon says the daemon that answered speaks an older protocol,
// without the session methods.
var errOldDaemon = errors.New("the running daemon speaks an older protocol")
