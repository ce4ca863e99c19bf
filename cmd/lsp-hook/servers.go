package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/lsp"
)

func serversCommand() *cli.Command {
	list := serversListCommand()
	return &cli.Command{
		Name:        "servers",
		Usage:       "list the language servers lsp-hook knows (the default), or install them",
		Flags:       list.Flags,
		Action:      list.Action,
		Subcommands: []*cli.Command{list, serversInstallCommand()},
	}
}

func serversListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "each server: languages, enabled, where its program is (or how to install it), whether this workspace uses it",
		Flags: []cli.Flag{rootFlag, &cli.BoolFlag{Name: "json", Usage: "print the list as JSON"}},
		Action: func(c *cli.Context) error {
			root, err := workspaceRoot(c)
			if err != nil {
				return cli.Exit(err.Error(), exitError)
			}
			cfg, problems := config.Load(root)
			for _, p := range problems {
				fmt.Fprintln(c.App.ErrWriter, "lsp-hook: config:", p.Error())
			}
			list, err := lsp.ListServers(c.Context, cfg, root)
			if err != nil {
				return cli.Exit(err.Error(), exitError)
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, list)
			}
			return lsp.WriteServerTable(c.App.Writer, list)
		},
	}
}

func serversInstallCommand() *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "install servers distributed with go or npm at their pinned versions; print the command for the others",
		ArgsUsage: "NAME...",
		Flags: []cli.Flag{
			rootFlag,
			&cli.StringFlag{Name: "dir", Usage: "servers `DIR` (default $XDG_DATA_HOME/lsp-hook/servers)"},
		},
		Action: func(c *cli.Context) error {
			names := c.Args().Slice()
			if len(names) == 0 {
				return cli.Exit("servers install: name the servers to install (lsp-hook servers list shows them)", exitError)
			}
			servers, err := installTargets(c, names)
			if err != nil {
				return cli.Exit(err.Error(), exitError)
			}
			opts := lsp.InstallOptions{Dir: c.String("dir"), Progress: c.App.ErrWriter}
			if f, ok := c.App.ErrWriter.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				opts.Output = f
			}
			failed := false
			for _, s := range servers {
				if !installOne(c, s, opts) {
					failed = true
				}
			}
			if failed {
				return cli.Exit("", exitError)
			}
			return nil
		},
	}
}

// installTargets looks every name up in the workspace's config (the
// catalogue plus config's servers); an unknown name fails them all.
func installTargets(c *cli.Context, names []string) ([]config.Server, error) {
	cfg := config.Default()
	if root, err := workspaceRoot(c); err == nil {
		cfg, _ = config.Load(root) // problems are reported by servers list and config check
	}
	known := slices.Sorted(maps.Keys(cfg.LSP.Servers))
	var out []config.Server
	for _, n := range names {
		s, ok := cfg.LSP.Servers[n]
		if !ok {
			return nil, fmt.Errorf("servers install: no language server named %q%s", n, config.Suggest(n, known))
		}
		out = append(out, s)
	}
	return out, nil
}

// installOne installs s and reports how it went on stderr; false when it
// is not installed (a failed step, or a server to install by hand).
func installOne(c *cli.Context, s config.Server, opts lsp.InstallOptions) bool {
	stderr := c.App.ErrWriter
	begin := time.Now()
	if m := s.Install.Method; m == config.InstallGo || m == config.InstallNPM {
		fmt.Fprintf(stderr, "%s: installing %s with %s\n", s.Name, strings.Join(s.Install.Packages, " "), m)
	}
	exe, err := lsp.Install(c.Context, s, opts)
	var manual *lsp.ManualInstallError
	var step *lsp.StepError
	switch {
	case errors.As(err, &manual):
		fmt.Fprintf(stderr, "%s: lsp-hook does not install it; run:\n    %s\n", s.Name, manual.Command)
		return false
	case errors.As(err, &step):
		if step.Output != "" {
			fmt.Fprintf(stderr, "%s: output of %s:\n", s.Name, step.Step)
			io.WriteString(stderr, step.Output)
			if !strings.HasSuffix(step.Output, "\n") {
				fmt.Fprintln(stderr)
			}
		}
		fmt.Fprintln(stderr, "lsp-hook:", err)
		return false
	case err != nil:
		fmt.Fprintf(stderr, "lsp-hook: installing %s: %v\n", s.Name, err)
		return false
	}
	fmt.Fprintf(stderr, "%s: installed %s (%s)\n", s.Name, exe, time.Since(begin).Round(100*time.Millisecond))
	if found, err := lsp.LookPath(s.Command[0]); err == nil && found != exe && filepath.Clean(found) != exe {
		fmt.Fprintf(stderr, "%s: note: %s comes first on PATH and is the one lsp-hook runs\n", s.Name, found)
	}
	return true
}
