package main

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestHelpReadsRight guards two ways urfave/cli's help misreads a flag's
// usage: a backquoted word in a bool flag's usage becomes its value
// placeholder ("--mcp lsp-hook mcp", as if the bool took a value), and
// urfave appends "(default: …)" itself, so a usage that says its own
// default reads twice ("(default: exit 2) (default: false)").
func TestHelpReadsRight(t *testing.T) {
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(path + " " + c.Name)
			for _, f := range c.Flags {
				doc, ok := f.(cli.DocGenerationFlag)
				if !ok {
					continue
				}
				flag, usage := "--"+f.Names()[0], doc.GetUsage()
				_, isBool := f.(*cli.BoolFlag)
				if isBool && strings.Contains(usage, "`") {
					t.Errorf("%s %s: a backquote in a bool flag's usage reads as a value placeholder: %q", name, flag, usage)
				}
				// help adds "(default: …)" to a bool, and to a flag with a value
				helpAddsDefault := isBool || doc.GetValue() != "" || doc.GetDefaultText() != ""
				if helpAddsDefault && strings.Contains(usage, "(default:") {
					t.Errorf("%s %s: the usage states a default, which help adds again: %q", name, flag, usage)
				}
			}
			walk(name, c.Subcommands)
		}
	}
	walk("lsp-hook", commands())
}
