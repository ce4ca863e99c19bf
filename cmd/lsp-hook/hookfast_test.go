package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/lsp-hook/lsp-hook/hooks"
)

// hookLineValues are the parts of a hook line the hook acts on, as one
// comparable string.
func hookLineValues(v flagValues, agent string) string {
	mode, _ := v.Generic("mode").(*hooks.Mode)
	if mode == nil {
		mode = new(hooks.Mode)
	}
	return fmt.Sprintf("agent=%s socket=%q budget=%s cold=%s no-daemon=%t mode=%s path=%q content=%q inject=%t no-shell=%t",
		agent, v.String("socket"), v.Duration("budget"), v.Duration("cold-budget"), v.Bool("no-daemon"), mode,
		v.String("path-field"), v.String("content-field"), v.Bool("inject"), v.Bool("no-shell"))
}

// TestHookFastParsesAsTheCLI holds hookFast's parse of a hook line to the
// cli's own (urfave/cli with hookAgent, the path every other line
// takes): the same values for every line it takes, and every line it
// refuses left to the cli, which answers it (help, an error naming the
// bad flag or agent).
func TestHookFastParsesAsTheCLI(t *testing.T) {
	t.Setenv("LSP_HOOK_SOCKET", "")
	tests := []struct {
		name string
		args []string
		fast bool
	}{
		{"agent alone", []string{"hook", "claude"}, true},
		{"flags after the agent", []string{"hook", "claude", "--mode", "block", "--budget", "3s"}, true},
		{"flags before the agent", []string{"hook", "--mode=exit2", "--cold-budget", "40s", "codex"}, true},
		{"flags on both sides", []string{"hook", "--socket", "/tmp/x.sock", "gemini", "--no-shell"}, true},
		{"bool with a value", []string{"hook", "copilot", "--no-daemon=true", "--no-shell=false"}, true},
		{"generic agent", []string{"hook", "generic", "--path-field", "tool_input.path", "--content-field", "c", "--inject"}, true},
		{"single dash", []string{"hook", "-budget", "2s", "cursor"}, true},
		{"no agent", []string{"hook"}, false},
		{"flags and no agent", []string{"hook", "--mode", "block"}, false},
		{"two agents", []string{"hook", "claude", "codex"}, false},
		{"help", []string{"hook", "--help"}, false},
		{"help after the agent", []string{"hook", "claude", "-h"}, false},
		{"unknown flag", []string{"hook", "claude", "--nope"}, false},
		{"bad duration", []string{"hook", "claude", "--budget", "soon"}, false},
		{"bad mode", []string{"hook", "claude", "--mode", "loud"}, false},
		{"unknown agent", []string{"hook", "notepad"}, false},
		{"generic without its path field", []string{"hook", "generic"}, false},
		{"another command", []string{"status"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, agent, ok := parseHookLine(tt.args)
			fast := ok
			if ok {
				_, err := hookAdapter(v, agent)
				fast = err == nil
			}
			if fast != tt.fast {
				t.Fatalf("hookFast takes %q: %t, want %t", tt.args, fast, tt.fast)
			}
			if !fast {
				return
			}
			var want string
			cmd := hookCommand()
			cmd.Action = func(c *cli.Context) error {
				agent, err := hookAgent(c)
				if err != nil {
					return err
				}
				want = hookLineValues(c, agent)
				return nil
			}
			app := &cli.App{Name: "lsp-hook", Commands: []*cli.Command{cmd}, Writer: new(bytes.Buffer), ErrWriter: new(bytes.Buffer),
				ExitErrHandler: func(*cli.Context, error) {}}
			if err := app.Run(append([]string{"lsp-hook"}, tt.args...)); err != nil {
				t.Fatalf("the cli refuses %q: %v", tt.args, err)
			}
			if got := hookLineValues(v, agent); got != want {
				t.Errorf("%q:\nhookFast %s\ncli      %s", tt.args, got, want)
			}
		})
	}
}

// TestHookFastLeavesRefusedLinesToTheCLI runs lines hookFast refuses
// through run: the cli answers them as before, naming what was wrong,
// with the usage-error status, and reads no event.
func TestHookFastLeavesRefusedLinesToTheCLI(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"hook"}, "name one agent"},
		{[]string{"hook", "claude", "codex"}, "name one agent, not"},
		{[]string{"hook", "notepad"}, "notepad"},
		{[]string{"hook", "claude", "--budget", "soon"}, "soon"},
	} {
		var stdout, stderr bytes.Buffer
		stdin := strings.NewReader(`{"hook_event_name":"PostToolUse"}`)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		code := run(ctx, append([]string{"lsp-hook"}, tt.args...), stdin, &stdout, &stderr)
		cancel()
		if code != exitError || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d naming %q", tt.args, code, stderr.String(), exitError, tt.want)
		}
		if stdin.Len() == 0 {
			t.Errorf("%q: the event was read", tt.args)
		}
	}
}
