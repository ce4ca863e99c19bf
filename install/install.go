package install

import (
	"fmt"
	"os"
	"path/filepath"
)

// This file is the API for agents' hook files: Add and Remove, for the
// file an agent's Target names; mcp.go does the same for .mcp.json. The
// guarantees both keep are in the package comment (doc.go); the steps
// around the edit are file.go's.

// Scope selects the project-level or the user-level config file.
type Scope int

const (
	// ProjectScope is the file under the workspace root (.claude/settings.json, …).
	ProjectScope Scope = iota
	// UserScope is the file under the home directory (~/.claude/settings.json, …).
	UserScope
)

// BackupSuffix is appended to a config file's path to name its backup.
const BackupSuffix = ".lsp-hook.bak"

// Options are the inputs of Add and Remove (and of AddMCP and RemoveMCP).
type Options struct {
	// Scope selects the file; Root (the workspace root, absolute) is used
	// with ProjectScope, Home (the user's home directory) with UserScope.
	Scope Scope
	Root  string
	Home  string
	// Getenv reads the environment (CODEX_HOME); nil means os.Getenv.
	Getenv func(string) string
	// Command is the hook command Add writes (HookCommand's result, or
	// the user's own); it must satisfy IsHookCommand for the agent.
	Command string
	// Batch also installs the agent's batch entry (Claude Code's
	// PostToolBatch); an error for agents without one.
	Batch bool
	// NoShell leaves the agent's shell tool out: matchers name the file
	// tools only, and a handler without a matcher runs `lsp-hook hook
	// AGENT --no-shell`. By default the shell tool's hook checks the files
	// a command changed, found through the daemon's file watcher.
	NoShell bool
	// NoStopGate leaves out the end-of-turn entries (Entry.StopGate):
	// the agent's turns end without the Stop gate's check. NoSession
	// leaves out every session entry (Entry.Session): no prewarm at a
	// session's start either.
	NoStopGate, NoSession bool
	// DryRun computes the result and the diff but writes nothing.
	DryRun bool
}

// Action is what Add or Remove did, or with DryRun would do, to
// the config file.
type Action string

const (
	Unchanged Action = "unchanged" // nothing to do
	Created   Action = "created"   // a new file
	Updated   Action = "updated"   // entries added, replaced or removed
	Removed   Action = "removed"   // only lsp-hook's entries were left: file deleted
)

// Result describes one Add or Remove.
type Result struct {
	Target *Target
	// Path is the config file (as configured; a symlink is followed for
	// reading and writing).
	Path   string
	Action Action
	// Backup is the backup file this run wrote, "" when none.
	Backup string
	// Restored is set when Remove wrote the backup's bytes back (the
	// backup is then removed, its content being the file's).
	Restored bool
	// Diff is the unified diff of the change, "" for Unchanged.
	Diff string
	// Notes tell the user what is left to do after a change.
	Notes []string
}

// Add adds agent's lsp-hook entries to its config file; see Options and
// the package comment for the guarantees.
func Add(agent string, opts Options) (*Result, error) {
	t, path, err := prepare(agent, opts)
	if err != nil {
		return nil, err
	}
	if !IsHookCommand(opts.Command, t.Agent) {
		return nil, fmt.Errorf("the hook command %q does not run `lsp-hook hook %s`, so uninstall could not find it", opts.Command, t.Agent)
	}
	if opts.Batch && !t.HasBatch() {
		return nil, fmt.Errorf("%s has no batch hook (--batch is for claude's PostToolBatch)", t.Title)
	}
	if t.Plugin {
		return addOpenCode(t, path, opts)
	}
	e := &fileEdit{target: t, path: path, skeleton: t.Skeleton,
		edit:  func(d *jsonDoc) (bool, error) { return d.install(t, opts) },
		notes: func() []string { return t.notes(path) },
	}
	return e.add(opts.DryRun)
}

// Remove removes agent's lsp-hook entries (every handler whose command
// runs `lsp-hook hook <agent>`, in any event) and the containers that left
// empty. When the result equals the backup up to empty containers the
// backup's bytes are written back and the backup removed; when no backup
// exists and only the skeleton of a new file is left, the file (which
// Add created) is deleted.
func Remove(agent string, opts Options) (*Result, error) {
	t, path, err := prepare(agent, opts)
	if err != nil {
		return nil, err
	}
	if t.Plugin {
		return removeOpenCode(t, path, opts)
	}
	e := &fileEdit{target: t, path: path, skeleton: t.Skeleton,
		edit: func(d *jsonDoc) (bool, error) {
			n, err := d.uninstall(t.Agent)
			return n > 0, err
		},
	}
	return e.remove(opts.DryRun)
}

// prepare looks up the agent's target and its file for opts.
func prepare(agent string, opts Options) (*Target, string, error) {
	t, err := Lookup(agent)
	if err != nil {
		return nil, "", err
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	path, err := t.Path(opts.Scope, opts.Root, opts.Home, getenv)
	return t, path, err
}

// notes returns the target's notes plus those about this file.
func (t *Target) notes(path string) []string {
	notes := append([]string(nil), t.Notes...)
	if t.Agent == "codex" {
		toml := filepath.Join(filepath.Dir(path), "config.toml")
		if b, err := os.ReadFile(toml); err == nil && codexInlineHooks().Match(b) {
			notes = append(notes, toml+" also has [hooks] tables: Codex merges them with hooks.json and warns at start-up; keep one of the two.")
		}
	}
	return notes
}
