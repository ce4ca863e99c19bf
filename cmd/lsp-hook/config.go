package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/hooks"
	"github.com/lsp-hook/lsp-hook/wire"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "show the effective configuration, or check the config files",
		Subcommands: []*cli.Command{{
			Name:  "show",
			Usage: "print every effective setting with where it came from (file:line, catalogue, built-in, default)",
			Flags: []cli.Flag{rootFlag, &cli.BoolFlag{Name: "json", Usage: "print JSON"}},
			Action: func(c *cli.Context) error {
				root, err := workspaceRoot(c)
				if err != nil {
					return cli.Exit(err.Error(), exitError)
				}
				cfg, problems := engine.LoadConfig(root)
				for _, p := range problems {
					fmt.Fprintln(c.App.ErrWriter, "lsp-hook: config:", p.Error())
				}
				if c.Bool("json") {
					return printJSON(c.App.Writer, cfg.Settings())
				}
				// The value comes last: a catalogue server's language_ids run
				// to 200 characters, and a middle column that wide pads every
				// other line with as many spaces.
				tw := tabwriter.NewWriter(c.App.Writer, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "KEY\tSOURCE\tVALUE")
				for _, s := range cfg.Settings() {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, s.Source, s.Value)
				}
				return tw.Flush()
			},
		}, {
			Name:  "check",
			Usage: "report every problem in the config files with file, line and key; exit 1 when there is one",
			Flags: []cli.Flag{rootFlag},
			Action: func(c *cli.Context) error {
				root, err := workspaceRoot(c)
				if err != nil {
					return cli.Exit(err.Error(), exitError)
				}
				cfg, problems := engine.LoadConfig(root)
				problems = hooks.CheckConfig(cfg, problems)
				for _, p := range problems {
					fmt.Fprintln(c.App.Writer, p.Error())
				}
				if len(problems) > 0 {
					return cli.Exit(fmt.Sprintf("%d problems", len(problems)), exitFindings)
				}
				if len(cfg.Files) == 0 {
					fmt.Fprintln(c.App.Writer, "no config file; the defaults apply")
					return nil
				}
				for _, f := range cfg.Files {
					fmt.Fprintln(c.App.Writer, "ok:", f)
				}
				return nil
			},
		}},
	}
}

func trustCommand() *cli.Command {
	return &cli.Command{
		Name: "trust",
		Usage: "allow this workspace's own programs (node_modules/.bin/eslint), what its config file sets that runs or " +
			"installs programs (servers' command, env, settings, initialization_options; linters' command; auto_install), " +
			"and the go command's GOTOOLCHAIN and GOFLAGS from your environment (untrusted: GOTOOLCHAIN=local, no GOFLAGS); " +
			"a changed config file needs trust again",
		Flags: []cli.Flag{rootFlag, socketFlag},
		Action: func(c *cli.Context) error {
			root, err := workspaceRoot(c)
			if err != nil {
				return cli.Exit(err.Error(), exitError)
			}
			files, err := config.Trust(root)
			if err != nil {
				return cli.Exit("trust: "+err.Error(), exitError)
			}
			fmt.Fprintf(c.App.Writer, "trusted workspace %s (its own programs, such as node_modules/.bin/eslint, may run, "+
				"and servers and linters get your GOTOOLCHAIN and GOFLAGS)\n", root)
			for _, f := range files {
				fmt.Fprintf(c.App.Writer, "trusted %s\n", f)
			}
			// A running daemon read the config and the workspace's trust
			// before: stop it, and wait until it is gone, so that the next
			// hook starts one that runs the trusted commands and programs
			// instead of reaching the old one on its way out.
			ctx, cancel := context.WithTimeout(c.Context, 10*time.Second)
			defer cancel()
			cl, err := wire.Dial(ctx, socketFor(c, root), buildVersion())
			if err != nil {
				return nil
			}
			defer cl.Close()
			if err := cl.Call(ctx, wire.MethodShutdown, struct{}{}, nil); err != nil {
				return cli.Exit("trust: stopping the workspace daemon: "+err.Error(), exitError)
			}
			if err := wire.WaitExit(ctx, cl.Hello.Pid); err != nil {
				return cli.Exit("trust: stopping the workspace daemon: "+err.Error(), exitError)
			}
			fmt.Fprintln(c.App.Writer, "stopped the workspace daemon; the next change starts it with the trusted config")
			return nil
		},
	}
}
