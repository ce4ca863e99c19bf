package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/hooks"
	"github.com/lsp-hook/lsp-hook/internal/poll"
	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

var socketFlag = &cli.StringFlag{Name: "socket", Usage: "daemon socket `PATH` (default: per workspace)", EnvVars: []string{wire.SocketEnv}}
var rootFlag = &cli.StringFlag{Name: "root", Usage: "workspace root `DIR` (default: git top level of the working directory)"}

// superviseCommand is the hidden `lsp-hook supervise --parent=PID --
// COMMAND [ARG...]` that internal/proc starts each language server and
// linter under on macOS (and on Linux with LSP_HOOK_SUPERVISE=1): it runs
// COMMAND and kills its process group when PID exits (proc.Supervise).
func superviseCommand() *cli.Command {
	return &cli.Command{
		Name:            proc.SuperviseCommand,
		Usage:           "run a command, killing its process group when the parent process exits (internal)",
		Hidden:          true,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			if code := proc.Supervise(c.Args().Slice(), c.App.ErrWriter); code != 0 {
				return cli.Exit("", code)
			}
			return nil
		},
	}
}

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "run the workspace daemon (hooks start it on demand)",
		Flags: []cli.Flag{
			rootFlag, socketFlag,
			&cli.StringFlag{Name: "log-file", Usage: "log `FILE` (default: beside the socket)"},
			&cli.DurationFlag{Name: "idle-timeout", Usage: "exit after this long without requests (default 30m; negative: never)"},
			&cli.BoolFlag{Name: "foreground", Usage: "stay attached and copy the log to stderr (debugging)"},
			&cli.BoolFlag{Name: "prewarm", Usage: "start the language servers the workspace needs at once (a session's start)"},
			&cli.StringFlag{Name: "session", Hidden: true, Usage: "the agent session whose start starts the daemon (set by the SessionStart hook)"},
			&cli.StringFlag{Name: "agent", Hidden: true, Usage: "that session's agent"},
			&cli.Int64Flag{Name: "session-start-ms", Hidden: true, Usage: "when that session started, Unix `MILLISECONDS`"},
			&cli.BoolFlag{Name: "replace-older", Hidden: true, Usage: "replace a daemon of an older protocol serving the socket (set by the SessionStart hook that met one)"},
		},
		Action: func(c *cli.Context) error {
			opts := sidecar.DaemonOptions{
				Root: c.String("root"), Socket: c.String("socket"), LogFile: c.String("log-file"),
				IdleTimeout: c.Duration("idle-timeout"), Version: buildVersion(), ErrOut: c.App.ErrWriter,
				Prewarm: c.Bool("prewarm"), ReplaceOlder: c.Bool("replace-older"),
				Session: wire.SessionParams{Session: c.String("session"), Agent: c.String("agent")},
			}
			if ms := c.Int64("session-start-ms"); ms > 0 {
				opts.SessionAt = time.UnixMilli(ms)
			} else {
				opts.SessionAt = time.Now()
			}
			if c.Bool("foreground") {
				opts.Stderr = c.App.ErrWriter
			}
			err := sidecar.RunDaemon(c.Context, opts)
			if errors.Is(err, wire.ErrAlreadyRunning) {
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
		ArgsUsage: "AGENT (" + strings.Join(hooks.Agents, "|") + ")",
		Flags:     hookFlags(),
		Action: func(c *cli.Context) error {
			begin := time.Now()
			agent, err := hookAgent(c)
			if err != nil {
				return cli.Exit("hook: "+err.Error(), exitError) // a misconfigured hook line: the user must see it
			}
			a, err := hookAdapter(c, agent)
			if err != nil {
				return cli.Exit(err.Error(), exitError) // a misconfigured hook line: the user must see it
			}
			if code := runHook(c.Context, c, a, begin, c.App.Reader, c.App.Writer, c.App.ErrWriter); code != 0 {
				return cli.Exit("", code) // exit2 mode: the agent reads the block on stderr
			}
			return nil // never fail the agent's tool
		},
	}
}

// hookFlags are `lsp-hook hook`'s flags, for the cli command and for
// hookFast, which parses the same ones.
func hookFlags() []cli.Flag {
	return []cli.Flag{
		socketFlag,
		&cli.DurationFlag{Name: "budget", Value: wire.DefaultBudget, Usage: "total time when the daemon is warm"},
		&cli.DurationFlag{Name: "cold-budget", Value: wire.DefaultColdBudget, Usage: "total time when the daemon or a server has to start"},
		&cli.BoolFlag{Name: "no-daemon", Usage: "run the built-in validators in-process only"},
		&cli.GenericFlag{Name: "mode", Value: new(hooks.Mode),
			Usage: "how the lint block reaches the agent: additionalContext, block (decision \"block\" + reason) or exit2 (stderr, exit status 2); claude and codex take all three, the others additionalContext"},
		&cli.StringFlag{Name: "path-field", Usage: "generic: gjson `PATH` to the changed file's path (a string or an array of strings)"},
		&cli.StringFlag{Name: "content-field", Usage: "generic: gjson `PATH` to the file's new text (optional: without it the file is read from disk)"},
		&cli.BoolFlag{Name: "inject", Usage: "generic: print the event with a \"lint\" field instead of the result JSON"},
		&cli.BoolFlag{Name: "no-shell", Usage: "ignore the agent's shell tool events (check only the files its file tools name)"},
	}
}

// flagValues are a command's parsed flags by name: a *cli.Context, or a
// flag.FlagSet through setValues (hookFast).
type flagValues interface {
	String(name string) string
	Bool(name string) bool
	Duration(name string) time.Duration
	Generic(name string) any
}

// setValues reads flags a cli.Flag's Apply registered in a flag.FlagSet,
// as *cli.Context reads them; a flag not registered reads as zero.
type setValues struct{ set *flag.FlagSet }

func (v setValues) get(name string) any {
	if f := v.set.Lookup(name); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			return g.Get()
		}
		return f.Value
	}
	return nil
}

func (v setValues) String(name string) string          { s, _ := v.get(name).(string); return s }
func (v setValues) Bool(name string) bool              { b, _ := v.get(name).(bool); return b }
func (v setValues) Duration(name string) time.Duration { d, _ := v.get(name).(time.Duration); return d }
func (v setValues) Generic(name string) any            { return v.get(name) }

// hookFast runs `lsp-hook hook AGENT [FLAG...]` (flags before or after
// the agent) without building the cli app: the hook runs at every edit
// of an agent, and making the app (every command's flags, help
// templates) cost about 1 ms of its start, a tenth of a warm hook
// (issue 18, "Hook process start"). ok is false for any other command
// line — help, a flag or agent that does not parse, no agent or more
// than one — which the cli then runs, answering it as it always has;
// nothing has been read from stdin by then.
func hookFast(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, ok bool) {
	begin := time.Now()
	v, agent, ok := parseHookLine(args)
	if !ok {
		return 0, false
	}
	a, err := hookAdapter(v, agent)
	if err != nil {
		return 0, false
	}
	return runHook(ctx, v, a, begin, stdin, stdout, stderr), true
}

// parseHookLine parses `hook AGENT [FLAG...]`, flags before or after the
// agent, with hookFlags registered in a flag.FlagSet (their Apply, as the
// cli registers them, environment defaults included); ok is false when
// the line is not one such (see hookFast).
func parseHookLine(args []string) (v setValues, agent string, ok bool) {
	if len(args) < 2 || args[0] != "hook" {
		return v, "", false
	}
	set := flag.NewFlagSet("hook", flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range hookFlags() {
		if err := f.Apply(set); err != nil {
			return v, "", false
		}
	}
	if set.Parse(args[1:]) != nil || set.NArg() == 0 {
		return v, "", false
	}
	agent = set.Arg(0)
	if set.Parse(set.Args()[1:]) != nil || set.NArg() > 0 {
		return v, "", false
	}
	return setValues{set}, agent, true
}

// hookAdapter is the adapter the hook line names, with its settings
// (--mode, the generic agent's fields); an error is a misconfigured hook
// line.
func hookAdapter(v flagValues, agent string) (hooks.Adapter, error) {
	mode, _ := v.Generic("mode").(*hooks.Mode)
	if mode == nil {
		mode = new(hooks.Mode)
	}
	return hooks.New(agent, hooks.Settings{
		Mode: *mode, PathField: v.String("path-field"), ContentField: v.String("content-field"), Inject: v.Bool("inject"),
	})
}

// runHook is the hook command's body after its line has parsed: one
// hooks.Run under the cold budget from begin. It returns the exit status:
// 0, or 2 in the exit2 mode with a lint block.
func runHook(ctx context.Context, v flagValues, a hooks.Adapter, begin time.Time, stdin io.Reader, stdout, stderr io.Writer) int {
	opts := hookOptions(v) // Run opens the log beside the event's workspace socket
	opts.Stderr, opts.NoShell = stderr, v.Bool("no-shell")
	ctx, cancel := context.WithDeadline(ctx, begin.Add(opts.ColdBudget))
	defer cancel()
	return hooks.Run(ctx, a, stdin, stdout, opts).Exit
}

// hookAgent returns the agent named on the command line, after parsing
// the flags written after it (`lsp-hook hook claude --mode block`, as hook
// configurations read naturally), which urfave/cli leaves among the
// arguments, into c.
func hookAgent(c *cli.Context) (string, error) {
	if c.NArg() == 0 {
		return "", fmt.Errorf("name one agent (%s)", strings.Join(hooks.Agents, ", "))
	}
	if c.NArg() == 1 {
		return c.Args().First(), nil
	}
	set := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range c.Command.Flags {
		if err := f.Apply(set); err != nil {
			return "", err
		}
	}
	if err := set.Parse(c.Args().Tail()); err != nil {
		return "", err
	}
	if set.NArg() > 0 {
		return "", fmt.Errorf("name one agent, not %q", append([]string{c.Args().First()}, set.Args()...))
	}
	var err error
	set.Visit(func(f *flag.Flag) {
		if e := c.Set(f.Name, f.Value.String()); e != nil && err == nil {
			err = fmt.Errorf("--%s: %w", f.Name, e)
		}
	})
	return c.Args().First(), err
}

func hookOptions(c flagValues) hooks.Options {
	return hooks.Options{
		Budget: c.Duration("budget"), ColdBudget: c.Duration("cold-budget"),
		Socket: c.String("socket"), Version: buildVersion(), NoDaemon: c.Bool("no-daemon"),
		Local: sidecar.Local{},
	}
}

func notifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "notify",
		Usage:     "check files through the daemon and print the lint block (exit 1 on errors)",
		ArgsUsage: "FILE...",
		Flags: []cli.Flag{
			socketFlag, rootFlag,
			&cli.DurationFlag{Name: "budget", Value: wire.DefaultBudget, Usage: "total time when the daemon is warm"},
			&cli.DurationFlag{Name: "cold-budget", Value: wire.DefaultColdBudget, Usage: "total time when the daemon or a server has to start"},
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
			var changes []wire.Change
			alias := rootAlias(c, root)
			for _, f := range c.Args().Slice() {
				changes = append(changes, wire.Change{Path: workspace.Respell(root, alias, absPath(f)), Mode: wire.ModeWrite})
			}
			opts := hookOptions(c)
			log, closeLog := wire.OpenSocketLog(socketFor(c, root))
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
		Flags: []cli.Flag{socketFlag, rootFlag, &cli.BoolFlag{Name: "json", Usage: "print the status as JSON"},
			&cli.BoolFlag{Name: "all", Usage: "list every daemon of this user with its servers and their memory, against the memory budget"}},
		Action: func(c *cli.Context) error {
			if c.Bool("all") {
				return statusAll(c)
			}
			ctx, cancel := context.WithTimeout(c.Context, 5*time.Second)
			defer cancel()
			cl, root, err := dialDaemon(ctx, c)
			if err != nil {
				return err
			}
			if cl == nil {
				if c.Bool("json") {
					return printJSON(c.App.Writer, sidecar.StatusResult{Root: root, Socket: socketFor(c, root), Servers: []sidecar.ServerStatus{}})
				}
				fmt.Fprintf(c.App.Writer, "no daemon running for %s\n", root)
				return nil
			}
			defer cl.Close()
			var st sidecar.StatusResult
			if err := cl.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
				return cli.Exit("status: "+err.Error(), exitError)
			}
			if c.Bool("json") {
				return printJSON(c.App.Writer, st)
			}
			return sidecar.WriteStatus(c.App.Writer, st)
		},
	}
}

// statusAll prints `status --all`: every daemon's memory record.
func statusAll(c *cli.Context) error {
	st, err := sidecar.ReadAllStatus(wire.RecordsDir(), time.Now())
	if err != nil {
		return cli.Exit("status --all: "+err.Error(), exitError)
	}
	if c.Bool("json") {
		return printJSON(c.App.Writer, st)
	}
	return sidecar.WriteAllStatus(c.App.Writer, st)
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
			if cl.Hello.ConfigChanged {
				// It would restart servers with the config it loaded: stop
				// it instead, and the next change starts every server
				// with the config as it is.
				if err := wire.Retire(ctx, cl, socketFor(c, root)); err != nil {
					return cli.Exit("restart: stopping the daemon whose config changed: "+err.Error(), exitError)
				}
				fmt.Fprintf(c.App.Writer, "the config changed since the daemon for %s started: stopped it; the next change starts it and its servers with the config as it is\n", root)
				return nil
			}
			defer cl.Close()
			var res sidecar.RestartResult
			if err := cl.Call(ctx, wire.MethodRestart, wire.RestartParams{Server: c.Args().First()}, &res); err != nil {
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
				socket := socketFor(c, root)
				starting := startingDaemons(socket)
				if len(starting) == 0 {
					fmt.Fprintf(c.App.Writer, "no daemon running for %s\n", root)
					return nil
				}
				// A daemon is starting (a session's start spawned it a moment
				// ago): it answers once it listens, or it goes.
				if cl = awaitStarting(ctx, socket, starting); cl == nil {
					killed := false
					for _, pid := range starting {
						if p, err := os.FindProcess(pid); err == nil && proc.Alive(pid) && p.Kill() == nil {
							// It never listened, so it started no server either.
							fmt.Fprintf(c.App.Writer, "killed daemon pid %d for %s: it never answered\n", pid, root)
							killed = true
						}
					}
					if !killed {
						fmt.Fprintf(c.App.Writer, "no daemon running for %s\n", root)
					}
					return nil
				}
			}
			defer cl.Close()
			if err := cl.Call(ctx, wire.MethodShutdown, struct{}{}, nil); err != nil {
				return cli.Exit("stop: "+err.Error(), exitError)
			}
			if err := wire.WaitExit(ctx, cl.Hello.Pid); err != nil {
				return cli.Exit("stop: "+err.Error(), exitError)
			}
			fmt.Fprintf(c.App.Writer, "stopped daemon pid %d for %s\n", cl.Hello.Pid, root)
			return nil
		},
	}
}

// startingDaemons returns the pids of the `lsp-hook serve` processes for
// socket (--socket socket, or --socket=socket, on their command line) of
// this user, other than this process: daemons that may not listen yet. A
// hook that starts one (wire.StartDaemon) returns before it listens, so a
// stop that only dials would leave it running.
func startingDaemons(socket string) []int {
	cmdlines, err := proc.Cmdlines()
	if err != nil {
		return nil
	}
	var pids []int
	for pid, argv := range cmdlines {
		if servesSocket(argv, socket) {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids
}

// servesSocket reports whether argv is `… serve …` with socket as its
// --socket flag's value.
func servesSocket(argv []string, socket string) bool {
	if len(argv) < 2 || argv[1] != "serve" {
		return false
	}
	args := argv[2:]
	for i, a := range args {
		switch {
		case a == "--socket="+socket || a == "-socket="+socket:
			return true
		case (a == "--socket" || a == "-socket") && i+1 < len(args) && args[i+1] == socket:
			return true
		}
	}
	return false
}

// awaitStarting dials socket until one of the daemons pids answers, all
// of them are gone, or ctx ends; nil unless one answered.
func awaitStarting(ctx context.Context, socket string, pids []int) *wire.Client {
	var cl *wire.Client
	_ = poll.Until(ctx, 10*time.Millisecond, 100*time.Millisecond, func() bool {
		c, err := wire.Dial(ctx, socket, buildVersion())
		if err == nil {
			cl = c
			return true
		}
		return !slices.ContainsFunc(pids, proc.Alive)
	})
	return cl
}

// dialDaemon connects to the daemon of the command's workspace. It returns a
// nil client (and no error) when no daemon answers, and a cli exit error
// when the workspace itself is unusable.
func dialDaemon(ctx context.Context, c *cli.Context) (*wire.Client, string, error) {
	root, err := workspaceRoot(c)
	if err != nil {
		return nil, "", cli.Exit(err.Error(), exitError)
	}
	cl, err := wire.Dial(ctx, socketFor(c, root), buildVersion())
	if err != nil {
		return nil, root, nil
	}
	return cl, root, nil
}
