package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/hooks"
	"github.com/lsp-hook/lsp-hook/sidecar"
)

var socketFlag = &cli.StringFlag{Name: "socket", Usage: "daemon socket `PATH` (default: per workspace)", EnvVars: []string{sidecar.SocketEnv}}
var rootFlag = &cli.StringFlag{Name: "root", Usage: "workspace root `DIR` (default: git top level of the working directory)"}

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "run the workspace daemon (hooks start it on demand)",
		Flags: []cli.Flag{
			rootFlag, socketFlag,
			&cli.StringFlag{Name: "log-file", Usage: "log `FILE` (default: beside the socket)"},
			&cli.DurationFlag{Name: "idle-timeout", Usage: "exit after this long without requests (default 30m; negative: never)"},
			&cli.BoolFlag{Name: "foreground", Usage: "stay attached and copy the log to stderr (debugging)"},
		},
		Action: func(c *cli.Context) error {
			opts := sidecar.DaemonOptions{
				Root: c.String("root"), Socket: c.String("socket"), LogFile: c.String("log-file"),
				IdleTimeout: c.Duration("idle-timeout"), Version: buildVersion(),
			}
			if c.Bool("foreground") {
				opts.Stderr = c.App.ErrWriter
			}
			err := sidecar.RunDaemon(c.Context, opts)
			if errors.Is(err, sidecar.ErrAlreadyRunning) {
				return cli.Exit(err.Error(), exitOK)
			}
			if err != nil {
				return cli.Exit(err.Error(), exitError)
			}
			return nil
		},
	}
}

func hookCommand() *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "run as an agent's post-write hook: event JSON on stdin, the agent's answer on stdout",
		ArgsUsage: "AGENT (claude)",
		Flags: []cli.Flag{
			socketFlag,
			&cli.DurationFlag{Name: "budget", Value: sidecar.DefaultBudget, Usage: "total time when the daemon is warm"},
			&cli.DurationFlag{Name: "cold-budget", Value: sidecar.DefaultColdBudget, Usage: "total time when the daemon or a server has to start"},
			&cli.BoolFlag{Name: "no-daemon", Usage: "run the built-in validators in-process only"},
		},
		Action: func(c *cli.Context) error {
			begin := time.Now()
			a, err := hooks.Lookup(c.Args().First())
			if err != nil {
				return cli.Exit(err.Error(), exitError) // a misconfigured hook line: the user must see it
			}
			opts := hookOptions(c) // Run opens the log beside the event's workspace socket
			ctx, cancel := context.WithDeadline(c.Context, begin.Add(opts.ColdBudget))
			defer cancel()
			hooks.Run(ctx, a, c.App.Reader, c.App.Writer, opts)
			return nil // never fail the agent's tool
		},
	}
}

func hookOptions(c *cli.Context) hooks.Options {
	return hooks.Options{
		Budget: c.Duration("budget"), ColdBudget: c.Duration("cold-budget"),
		Socket: c.String("socket"), Version: buildVersion(), NoDaemon: c.Bool("no-daemon"),
	}
}

func notifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "notify",
		Usage:     "check files through the daemon and print the lint block (exit 1 on errors)",
		ArgsUsage: "FILE...",
		Flags: []cli.Flag{
			socketFlag, rootFlag,
			&cli.DurationFlag{Name: "budget", Value: sidecar.DefaultBudget, Usage: "total time when the daemon is warm"},
			&cli.DurationFlag{Name: "cold-budget", Value: sidecar.DefaultColdBudget, Usage: "total time when the daemon or a server has to start"},
			&cli.BoolFlag{Name: "no-daemon", Usage: "run the built-in validators in-process only"},
		},
		Action: func(c *cli.Context) error {
			begin := time.Now()
			if c.NArg() == 0 {
				return cli.Exit("notify: no files given", exitError)
			}
			root, err := workspaceRoot(c)
			if err != nil {
				return cli.Exit(err.Error(), exitError)
			}
			var changes []sidecar.Change
			for _, f := range c.Args().Slice() {
				changes = append(changes, sidecar.Change{Path: absPath(f), Mode: sidecar.ModeWrite})
			}
			opts := hookOptions(c)
			log, closeLog := sidecar.OpenSocketLog(socketFor(c, root))
			defer closeLog()
			opts.Log = log
			res, _ := hooks.Check(c.Context, root, changes, "notify", begin, opts)
			for _, n := range res.Notes {
				fmt.Fprintln(c.App.ErrWriter, "lsp-hook:", n)
			}
			if res.Lint != "" {
				fmt.Fprintln(c.App.Writer, res.Lint)
			}
			for _, f := range res.Files {
				if errs, _ := diag.Counts(f.Diagnostics); errs > 0 {
					return cli.Exit("", exitFindings)
				}
			}
			return nil
		},
	}
}

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show the workspace daemon and its language servers",
		Flags: []cli.Flag{socketFlag, rootFlag, &cli.BoolFlag{Name: "json", Usage: "print the status as JSON"}},
		Action: func(c *cli.Context) error {
			ctx, cancel := context.WithTimeout(c.Context, 5*time.Second)
			defer cancel()
			cl, root, err := dialDaemon(ctx, c)
			if err != nil {
				return err
			}
			if cl == nil {
				if c.Bool("json") {
					return printJSON(c.App.Writer, sidecar.StatusResult{Root: root, Servers: []sidecar.ServerStatus{}})
				}
				fmt.Fprintf(c.App.Writer, "no daemon running for %s\n", root)
				return nil
			}
			defer cl.Close()
			var st sidecar.StatusResult
			if err := cl.Call(ctx, sidecar.MethodStatus, struct{}{}, &st); err != nil {
				return cli.Exit("status: "+err.Error(), exitError)
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, st)
			}
			return sidecar.WriteStatus(c.App.Writer, st)
		},
	}
}

func restartCommand() *cli.Command {
	return &cli.Command{
		Name:      "restart",
		Usage:     "stop a language server (every server without SERVER) so the next change starts it afresh; clears broken",
		ArgsUsage: "[SERVER]",
		Flags:     []cli.Flag{socketFlag, rootFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cli.Exit("restart: at most one SERVER", exitError)
			}
			ctx, cancel := context.WithTimeout(c.Context, 15*time.Second)
			defer cancel()
			cl, root, err := dialDaemon(ctx, c)
			if err != nil {
				return err
			}
			if cl == nil {
				fmt.Fprintf(c.App.Writer, "no daemon running for %s; servers start fresh with the next one\n", root)
				return nil
			}
			defer cl.Close()
			var res sidecar.RestartResult
			if err := cl.Call(ctx, sidecar.MethodRestart, sidecar.RestartParams{Server: c.Args().First()}, &res); err != nil {
				return cli.Exit("restart: "+err.Error(), exitError)
			}
			return sidecar.WriteRestart(c.App.Writer, res)
		},
	}
}

func stopCommand() *cli.Command {
	return &cli.Command{
		Name:  "stop",
		Usage: "stop the workspace daemon and its language servers",
		Flags: []cli.Flag{socketFlag, rootFlag},
		Action: func(c *cli.Context) error {
			ctx, cancel := context.WithTimeout(c.Context, 10*time.Second)
			defer cancel()
			cl, root, err := dialDaemon(ctx, c)
			if err != nil {
				return err
			}
			if cl == nil {
				fmt.Fprintf(c.App.Writer, "no daemon running for %s\n", root)
				return nil
			}
			defer cl.Close()
			if err := cl.Call(ctx, sidecar.MethodShutdown, struct{}{}, nil); err != nil {
				return cli.Exit("stop: "+err.Error(), exitError)
			}
			if err := sidecar.WaitExit(ctx, cl.Hello.Pid); err != nil {
				return cli.Exit("stop: "+err.Error(), exitError)
			}
			fmt.Fprintf(c.App.Writer, "stopped daemon pid %d for %s\n", cl.Hello.Pid, root)
			return nil
		},
	}
}

// dialDaemon connects to the daemon of the command's workspace. It returns a
// nil client (and no error) when no daemon answers, and a cli exit error
// when the workspace itself is unusable.
func dialDaemon(ctx context.Context, c *cli.Context) (*sidecar.Client, string, error) {
	root, err := workspaceRoot(c)
	if err != nil {
		return nil, "", cli.Exit(err.Error(), exitError)
	}
	cl, err := sidecar.Dial(ctx, socketFor(c, root), buildVersion())
	if err != nil {
		return nil, root, nil
	}
	return cl, root, nil
}
