package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/hooks"
	"github.com/lsp-hook/lsp-hook/wire"
)

// hooksCommand is `lsp-hook hooks run|check`: YAML hook declarations for
// agent runtimes (hooks/declare.go, hooks/runner.go).
func hooksCommand() *cli.Command {
	configFlag := &cli.StringFlag{Name: "config", Usage: "read the declarations from `FILE` (a hooks: list, or a bare list) instead of the workspace config"}
	return &cli.Command{
		Name:  "hooks",
		Usage: "YAML hook declarations for agent runtimes",
		Subcommands: []*cli.Command{{
			Name:  "run",
			Usage: "read events as JSON lines on stdin, check the files the declarations match, write every event back in order",
			Flags: []cli.Flag{
				configFlag, rootFlag, socketFlag,
				&cli.DurationFlag{Name: "budget", Value: wire.DefaultBudget, Usage: "time per event when the daemon is warm"},
				&cli.DurationFlag{Name: "cold-budget", Value: wire.DefaultColdBudget, Usage: "time per event when the daemon or a server has to start"},
				&cli.BoolFlag{Name: "no-daemon", Usage: "run the built-in validators in-process only"},
				&cli.BoolFlag{Name: "verbose", Usage: "log every checked event to stderr (without it, warnings only)"},
			},
			Action: func(c *cli.Context) error {
				root, decls, err := loadDeclarations(c)
				if err != nil {
					return err
				}
				level := slog.LevelWarn
				if c.Bool("verbose") {
					level = slog.LevelInfo
				}
				log := slog.New(slog.NewTextHandler(c.App.ErrWriter, &slog.HandlerOptions{Level: level})).With("component", "hooks-run")
				opts := hookOptions(c)
				opts.Log = log
				r := &hooks.Runner{Decls: decls, Root: root, Alias: rootAlias(c, root), Options: opts, Log: log}
				if err := r.Run(c.Context, c.App.Reader, c.App.Writer); err != nil {
					return cli.Exit("hooks run: "+err.Error(), exitError)
				}
				return nil
			},
		}, {
			Name:  "check",
			Usage: "validate the declarations and list them, one per line; exit 2 on a problem",
			Flags: []cli.Flag{configFlag, rootFlag},
			Action: func(c *cli.Context) error {
				_, decls, err := loadDeclarations(c)
				if err != nil {
					return err
				}
				for _, d := range decls {
					cond := "every event"
					if d.Condition.Type != "" {
						cond = fmt.Sprintf("%s %q", d.Condition.Type, d.Condition.Match)
					}
					fmt.Fprintf(c.App.Writer, "%s:%d: %s: on %v, %s → %s %s (read_from_disk %v, inject_result %v, publish %v)\n",
						d.File, d.Line, d.ID, d.On, cond, d.Action.Type, d.Action.PathField,
						d.Action.ReadFromDisk, d.Action.InjectResult, d.Action.Publish)
				}
				return nil
			},
		}},
	}
}

// loadDeclarations returns the workspace root and the declarations of
// --config, else of the workspace config; an error is a cli exit error.
func loadDeclarations(c *cli.Context) (string, []hooks.Declaration, error) {
	root, err := workspaceRoot(c)
	if err != nil {
		return "", nil, cli.Exit(err.Error(), exitError)
	}
	var decls []hooks.Declaration
	if f := c.String("config"); f != "" {
		decls, err = hooks.LoadDeclarations(f)
	} else {
		decls, err = hooks.WorkspaceDeclarations(root)
	}
	if err != nil {
		return "", nil, cli.Exit(err.Error(), exitError)
	}
	return root, decls, nil
}

// resubscribeQuick and resubscribeTries bound `lsp-hook subscribe`'s
// subscribing again after the daemon closed the connection: it gives up
// when that happened resubscribeTries times in a row, each within
// resubscribeQuick of subscribing (or before the subscription was made).
const (
	resubscribeQuick = time.Second
	resubscribeTries = 5
)

// subscribeCommand is `lsp-hook subscribe`: the daemon's publish channel as
// JSON lines (sidecar/subscribe.go), followed across daemons: when the
// daemon closes the connection (replaced for a changed config, restarted,
// stopped), it subscribes again, to a daemon it starts if none answers.
func subscribeCommand() *cli.Command {
	return &cli.Command{
		Name:  "subscribe",
		Usage: "print the diagnostics of every check the workspace daemon makes, as JSON lines, until interrupted",
		Flags: []cli.Flag{
			rootFlag, socketFlag,
			&cli.IntFlag{Name: "count", Usage: "exit after `N` notifications (0: never)"},
		},
		Action: func(c *cli.Context) error {
			root, err := workspaceRoot(c)
			if err != nil {
				return cli.Exit(err.Error(), exitError)
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			count, seen := c.Int("count"), 0
			enc := json.NewEncoder(c.App.Writer)
			enc.SetEscapeHTML(false)
			var writeErr error
			var since time.Time // when the current subscription was made
			ready := func(h wire.HelloResult) {
				since = time.Now()
				fmt.Fprintf(c.App.ErrWriter, "lsp-hook: subscribed to daemon pid %d for %s\n", h.Pid, h.Root)
			}
			opts := wire.StartOptions{Root: root, Socket: socketFor(c, root), Wait: 10 * time.Second}
			for quick := 0; ; {
				since = time.Time{}
				err = wire.Subscribe(ctx, buildVersion(), opts, ready,
					func(m wire.Published) bool {
						if writeErr = enc.Encode(m); writeErr != nil {
							return false
						}
						seen++
						return count <= 0 || seen < count
					})
				if !errors.Is(err, wire.ErrDaemonClosed) || ctx.Err() != nil {
					break
				}
				// The daemon went away: replaced because its config
				// changed (the next hook replaces it), restarted, or
				// stopped. Subscribe again, to a daemon started if none
				// answers, as the first subscription was; a daemon that
				// closes subscriptions at once, again and again, ends it.
				if since.IsZero() || time.Since(since) < resubscribeQuick {
					quick++
				} else {
					quick = 0
				}
				if quick >= resubscribeTries {
					err = fmt.Errorf("%w %d times in a row within %v of subscribing", err, quick, resubscribeQuick)
					break
				}
				fmt.Fprintf(c.App.ErrWriter, "lsp-hook: %v; subscribing again (checks published until then are not shown)\n", err)
			}
			switch {
			case writeErr != nil:
				return cli.Exit("subscribe: writing: "+writeErr.Error(), exitError)
			case errors.Is(err, context.Canceled) && c.Context.Err() == nil:
				return nil // interrupted
			case err != nil:
				return cli.Exit("subscribe: "+err.Error(), exitError)
			}
			return nil
		},
	}
}
