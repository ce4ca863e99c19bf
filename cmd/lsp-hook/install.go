package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/install"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file wires `lsp-hook install AGENT` and `lsp-hook uninstall AGENT`
// to install.Add and install.Remove, which own the config-file logic.

// installAgents is the ArgsUsage of both commands.
var installAgents = "AGENT (" + strings.Join(install.Agents(), ", ") + ")"

// installScopeFlags are the flags install and uninstall share.
func installScopeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "project", Usage: "edit the workspace's file, e.g. .claude/settings.json (the default)"},
		&cli.BoolFlag{Name: "user", Usage: "edit the user-level file, e.g. ~/.claude/settings.json"},
		rootFlag,
		&cli.BoolFlag{Name: "dry-run", Usage: "print the change as a unified diff and write nothing"},
		&cli.BoolFlag{Name: "mcp", Usage: "claude: also register (or remove) the lsp-hook mcp server in the project's .mcp.json"},
	}
}

func installCommand() *cli.Command {
	return &cli.Command{
		Name:            "install",
		Usage:           "add lsp-hook's post-write hook to an agent's config file (keeps every other setting; backup in FILE.lsp-hook.bak)",
		ArgsUsage:       installAgents,
		SkipFlagParsing: true, // parseInstallArgs: flags may follow the agent
		Flags: append(installScopeFlags(),
			&cli.StringFlag{Name: "command", Usage: "the hook `COMMAND` to write (default: lsp-hook hook AGENT, by absolute path when lsp-hook is not on PATH)"},
			&cli.BoolFlag{Name: "batch", Usage: "claude: also add the PostToolBatch hook"},
			&cli.BoolFlag{Name: "no-shell", Usage: "leave out the agent's shell tool (Bash, run_shell_command, Shell, bash): check only what its file tools write"},
			&cli.BoolFlag{Name: "no-stop-gate", Usage: "leave out the end-of-turn hook (Claude Code Stop and SubagentStop, Codex Stop, Gemini CLI AfterAgent, Copilot agentStop, Cursor stop) that blocks a turn ending on errors it introduced"},
			&cli.BoolFlag{Name: "no-session", Usage: "leave out every session hook: no prewarm at a session's start, no Stop gate (implies --no-stop-gate)"},
		),
		Action: func(c *cli.Context) error { return runInstall(c, true) },
	}
}

func uninstallCommand() *cli.Command {
	return &cli.Command{
		Name:            "uninstall",
		Usage:           "remove lsp-hook's hooks from an agent's config file, leaving every other entry",
		ArgsUsage:       installAgents,
		SkipFlagParsing: true, // parseInstallArgs: flags may follow the agent
		Flags:           installScopeFlags(),
		Action:          func(c *cli.Context) error { return runInstall(c, false) },
	}
}

// installArgs is the command line of install or uninstall: flag values
// and the positional arguments.
type installArgs struct {
	set  *flag.FlagSet
	args []string
}

// parseInstallArgs parses c's raw arguments with the command's own flag
// definitions, accepting flags before and after the agent
// (`lsp-hook install claude --user`). urfave/cli v2 stops parsing flags at
// the first argument, so install and uninstall set SkipFlagParsing and
// parse here instead, repeating the standard library's parse after each
// positional argument.
func parseInstallArgs(c *cli.Context) (*installArgs, error) {
	set := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range c.Command.Flags {
		if err := f.Apply(set); err != nil {
			return nil, err
		}
	}
	a := &installArgs{set: set}
	rest := c.Args().Slice()
	for {
		if err := set.Parse(rest); err != nil {
			return nil, err
		}
		if rest = set.Args(); len(rest) == 0 {
			return a, nil
		}
		a.args, rest = append(a.args, rest[0]), rest[1:]
	}
}

// Bool returns a boolean flag's value, false for an undefined flag.
func (a *installArgs) Bool(name string) bool {
	f := a.set.Lookup(name)
	if f == nil {
		return false
	}
	b, _ := strconv.ParseBool(f.Value.String())
	return b
}

// String returns a string flag's value.
func (a *installArgs) String(name string) string { return a.set.Lookup(name).Value.String() }

// runInstall runs install (or uninstall) from the command line and prints
// what changed.
func runInstall(c *cli.Context, adding bool) error {
	name := c.Command.Name
	a, err := parseInstallArgs(c)
	if errors.Is(err, flag.ErrHelp) || (err == nil && a.Bool("help")) {
		return cli.ShowCommandHelp(c.Lineage()[1], name)
	}
	if err != nil {
		return cli.Exit(name+": "+err.Error(), exitError)
	}
	if len(a.args) != 1 {
		return cli.Exit(fmt.Sprintf("%s: want one agent: %s", name, installAgents), exitError)
	}
	if a.Bool("user") && a.Bool("project") {
		return cli.Exit(name+": --user and --project exclude each other", exitError)
	}
	t, err := install.Lookup(a.args[0])
	if err != nil {
		return cli.Exit(name+": "+err.Error(), exitError)
	}
	opts := install.Options{Scope: install.ProjectScope, DryRun: a.Bool("dry-run")}
	if a.Bool("user") {
		opts.Scope = install.UserScope
		opts.Home, err = os.UserHomeDir()
	} else {
		// --root, else the git top level of the working directory
		opts.Root, err = workspace.Root(a.String("root"))
	}
	if err != nil {
		return cli.Exit(name+": "+err.Error(), exitError)
	}
	var notes []string
	var res, mcpRes *install.Result
	withMCP := a.Bool("mcp")
	if withMCP && t.Agent != "claude" {
		return cli.Exit(name+": --mcp is for claude (it edits the project's .mcp.json)", exitError)
	}
	if withMCP {
		if _, err := install.MCPConfigPath(opts); err != nil {
			return cli.Exit(name+": "+err.Error(), exitError)
		}
	}
	if adding {
		opts.Batch, opts.NoShell, opts.NoStopGate = a.Bool("batch"), a.Bool("no-shell"), a.Bool("no-stop-gate")
		opts.NoSession = a.Bool("no-session")
		if opts.Command = a.String("command"); opts.Command == "" {
			prog, onPath, err := install.HookProgram()
			if err != nil {
				return cli.Exit(name+": "+err.Error(), exitError)
			}
			opts.Command = install.HookCommand(prog, t.Agent)
			if !onPath {
				notes = append(notes, "lsp-hook is not on PATH, so the hook runs "+prog+" by its absolute path; "+
					"move the binary onto PATH and install again to write plain `lsp-hook`.")
			}
		}
		res, err = install.Add(t.Agent, opts)
		if err == nil && withMCP {
			mcpRes, err = installMCP(opts)
		}
	} else {
		res, err = install.Remove(t.Agent, opts)
		if err == nil && withMCP {
			mcpRes, err = install.RemoveMCP(opts)
		}
	}
	if err != nil {
		return cli.Exit(name+": "+err.Error(), exitError)
	}
	printInstallResult(c.App.Writer, res, opts.DryRun, append(notes, res.Notes...))
	if mcpRes != nil {
		printInstallResult(c.App.Writer, mcpRes, opts.DryRun, mcpRes.Notes)
	}
	return nil
}

// installMCP registers `lsp-hook mcp` in the project's .mcp.json, running
// the same program a hook command would: "lsp-hook" when it is on PATH,
// else this binary's absolute path (install.HookProgram).
func installMCP(opts install.Options) (*install.Result, error) {
	prog, _, err := install.HookProgram()
	if err != nil {
		return nil, err
	}
	return install.AddMCP(prog, opts)
}

// printInstallResult reports res: the diff for a dry run, else one line
// saying what happened to which file, then the notes of a change.
func printInstallResult(w io.Writer, res *install.Result, dryRun bool, notes []string) {
	if dryRun {
		if res.Diff == "" {
			fmt.Fprintf(w, "%s: nothing to change\n", res.Path)
		} else {
			fmt.Fprint(w, res.Diff)
		}
		return
	}
	switch {
	case res.Action == install.Unchanged:
		fmt.Fprintf(w, "%s: nothing to change\n", res.Path)
		return
	case res.Restored:
		fmt.Fprintf(w, "restored %s from %s\n", res.Path, res.Path+install.BackupSuffix)
	case res.Backup != "":
		fmt.Fprintf(w, "%s %s (the original is in %s)\n", res.Action, res.Path, res.Backup)
	default:
		fmt.Fprintf(w, "%s %s\n", res.Action, res.Path)
	}
	if res.Action == install.Removed {
		return
	}
	for _, n := range notes {
		fmt.Fprintln(w, "note:", n)
	}
}
