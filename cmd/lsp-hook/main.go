// Command lsp-hook gives AI coding agents the diagnostics an IDE shows a
// person: a post-write hook hands each change to a per-workspace daemon that
// runs real language servers and built-in validators and answers with a
// compact lint block. See README.md and DESIGN.md.
//
// This file wires flags to the packages; it holds no logic a test would want.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/urfave/cli/v2"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// it comes from the module's build info (versionOf).
var version = ""

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes (DESIGN.md "Commands").
const (
	exitOK       = 0 // clean / success
	exitFindings = 1 // diagnostics at or above the threshold
	exitError    = 2 // usage or internal error
)

// run executes one command line and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if code, ok := hookFast(ctx, args[min(len(args), 1):], stdin, stdout, stderr); ok {
		return code
	}
	app := &cli.App{
		Name:           "lsp-hook",
		Usage:          "language-server diagnostics for AI coding agents' post-write hooks",
		Version:        buildVersion(),
		Reader:         stdin,
		Writer:         stdout,
		ErrWriter:      stderr,
		Commands:       commands(),
		HideVersion:    true,
		ExitErrHandler: func(*cli.Context, error) {},
	}
	err := app.RunContext(ctx, args)
	if err == nil {
		return exitOK
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "lsp-hook:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "lsp-hook:", err)
	return exitError
}

// commands are lsp-hook's commands, in the order help lists them.
func commands() []*cli.Command {
	return []*cli.Command{
		serveCommand(), hookCommand(), notifyCommand(), diagnoseCommand(), parseCommand(), statusCommand(),
		restartCommand(), stopCommand(), configCommand(), trustCommand(), versionCommand(),
		serversCommand(),
		installCommand(), uninstallCommand(),
		hooksCommand(), subscribeCommand(),
		mcpCommand(), superviseCommand(),
	}
}

// buildVersion is this binary's version: the link-time version, else
// versionOf its build info. It is worked out once: debug.ReadBuildInfo
// parses the whole module list (every dependency's line) on each call,
// and a hook asks for the version twice (the app's and the daemon's
// hello).
var buildVersion = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(bi)
})

// versionOf is the version build info gives: the module version of a
// `go install …@v1.2.3` build, else, for a build from a source tree,
// "devel+" and the VCS revision the go command stamped (vcs.revision, its
// first 12 characters), with "-dirty" when the tree had uncommitted
// changes (vcs.modified); "devel" when there is neither.
func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel+" + rev[:min(len(rev), 12)]
	if dirty {
		v += "-dirty"
	}
	return v
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version",
		Action: func(c *cli.Context) error {
			fmt.Fprintln(c.App.Writer, "lsp-hook", buildVersion())
			return nil
		},
	}
}
