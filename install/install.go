package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
)

// Install and Uninstall edit an agent's own hook config file (an
// Target) so that the agent runs `lsp-hook hook <agent>` after its
// write tools:
//
//   - Only lsp-hook's entries change. The file is edited as a syntax tree
//     (install_json.go): other keys, their order, comments, indentation and
//     trailing commas keep their bytes.
//   - Installing twice changes nothing the second time (the bytes are
//     compared), and uninstalling after installing gives back the original
//     bytes (the edits are inverses, and a backup equal to the result up to
//     empty containers is restored verbatim).
//   - Before the first change to an existing file its content is copied to
//     <file>.lsp-hook.bak, once: an existing backup is never overwritten.
//   - A file that is not valid JSON (JWCC: comments and trailing commas are
//     accepted and kept) is an error naming the file, line and column, and
//     is never written.
//   - With DryRun nothing is written; Result.Diff shows the change.

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

// Options are the inputs of Install and Uninstall.
type Options struct {
	// Scope selects the file; Root (the workspace root, absolute) is used
	// with ProjectScope, Home (the user's home directory) with UserScope.
	Scope Scope
	Root  string
	Home  string
	// Getenv reads the environment (CODEX_HOME); nil means os.Getenv.
	Getenv func(string) string
	// Command is the hook command Install writes (HookCommand's result, or
	// the user's own); it must satisfy IsHookCommand for the agent.
	Command string
	// Batch also installs the agent's batch entry (Claude Code's
	// PostToolBatch); an error for agents without one.
	Batch bool
	// DryRun computes the result and the diff but writes nothing.
	DryRun bool
}

// Action is what Install or Uninstall did, or with DryRun would do, to
// the config file.
type Action string

const (
	Unchanged Action = "unchanged" // nothing to do
	Created   Action = "created"   // a new file
	Updated   Action = "updated"   // entries added, replaced or removed
	Removed   Action = "removed"   // only lsp-hook's entries were left: file deleted
)

// Result describes one Install or Uninstall.
type Result struct {
	Target *Target
	// Path is the config file (as configured; a symlink is followed for
	// reading and writing).
	Path   string
	Action Action
	// Backup is the backup file this run wrote, "" when none.
	Backup string
	// Restored is set when Uninstall wrote the backup's bytes back (the
	// backup is then removed, its content being the file's).
	Restored bool
	// Diff is the unified diff of the change, "" for Unchanged.
	Diff string
	// Notes tell the user what is left to do after a change.
	Notes []string
}

// Install adds agent's lsp-hook entries to its config file; see Options
// and the comment above Scope for the guarantees.
func Add(agent string, opts Options) (*Result, error) {
	t, path, err := prepareInstall(agent, opts)
	if err != nil {
		return nil, err
	}
	if !IsHookCommand(opts.Command, t.Agent) {
		return nil, fmt.Errorf("the hook command %q does not run `lsp-hook hook %s`, so uninstall could not find it", opts.Command, t.Agent)
	}
	if opts.Batch && !t.HasBatch() {
		return nil, fmt.Errorf("%s has no batch hook (--batch is for claude's PostToolBatch)", t.Title)
	}
	old, exists, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	var d *jsonDoc
	if len(bytes.TrimSpace(old)) == 0 {
		d = newJSONDoc(path, t.Skeleton)
	} else if d, err = parseJSONDoc(path, old); err != nil {
		return nil, err
	}
	if _, err := d.install(t, opts.Command, opts.Batch); err != nil {
		return nil, err
	}
	res := &Result{Target: t, Path: path, Action: Updated}
	out := d.bytes()
	if exists && bytes.Equal(out, old) {
		res.Action = Unchanged
		return res, nil
	}
	oldName := path
	if !exists {
		res.Action, oldName = Created, "/dev/null"
	}
	res.Diff = unifiedDiff(oldName, path, old, out)
	res.Notes = t.notes(path)
	if opts.DryRun {
		return res, nil
	}
	if exists {
		if res.Backup, err = backupConfig(path, old); err != nil {
			return nil, err
		}
	}
	return res, writeConfig(path, out)
}

// Uninstall removes agent's lsp-hook entries (every handler whose command
// runs `lsp-hook hook <agent>`, in any event) and the containers that left
// empty. When the result equals the backup up to empty containers the
// backup's bytes are written back and the backup removed; when no backup
// exists and only the skeleton of a new file is left, the file (which
// Install created) is deleted.
func Remove(agent string, opts Options) (*Result, error) {
	t, path, err := prepareInstall(agent, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Target: t, Path: path, Action: Unchanged}
	old, exists, err := readConfig(path)
	if err != nil || !exists || len(bytes.TrimSpace(old)) == 0 {
		return res, err
	}
	d, err := parseJSONDoc(path, old)
	if err != nil {
		return nil, err
	}
	if n, err := d.uninstall(t.Agent); err != nil || n == 0 {
		return res, err
	}
	return finishUninstall(res, d, t.Skeleton, old, opts.DryRun)
}

// prepareInstall looks up the agent's target and its file for opts.
func prepareInstall(agent string, opts Options) (*Target, string, error) {
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

// sameJSONIgnoringEmpty reports whether two documents hold the same JSON once
// empty objects and arrays are dropped from both.
func sameJSONIgnoringEmpty(a, b *jsonDoc) bool {
	return reflect.DeepEqual(jsonPruneEmpty(jsonDecode(a.root)), jsonPruneEmpty(jsonDecode(b.root)))
}

// notes returns the target's notes plus those about this file.
func (t *Target) notes(path string) []string {
	notes := append([]string(nil), t.Notes...)
	if t.Agent == "codex" {
		toml := filepath.Join(filepath.Dir(path), "config.toml")
		if b, err := os.ReadFile(toml); err == nil && codexInlineHooks.Match(b) {
			notes = append(notes, toml+" also has [hooks] tables: Codex merges them with hooks.json and warns at start-up; keep one of the two.")
		}
	}
	return notes
}

// configRealPath follows path when it is a symlink (a config file kept in a
// dotfiles repository), so that writing replaces the target, not the link.
func configRealPath(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("following the symlink %s: %w", path, err)
	}
	return real, nil
}

// isSymlinkPath reports whether path is a symbolic link.
func isSymlinkPath(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// readConfig reads the config file; a missing file is not an error.
func readConfig(path string) (data []byte, exists bool, err error) {
	real, err := configRealPath(path)
	if err != nil {
		return nil, false, err
	}
	data, err = os.ReadFile(real)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	return data, true, nil
}

// backupConfig copies old, the content of path, to
// path+BackupSuffix unless that file exists already, with the config
// file's permissions. It returns the backup's path when it wrote one.
func backupConfig(path string, old []byte) (string, error) {
	bak := path + BackupSuffix
	f, err := os.OpenFile(bak, os.O_WRONLY|os.O_CREATE|os.O_EXCL, configFileMode(path))
	if errors.Is(err, fs.ErrExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("backing up %s: %w", path, err)
	}
	_, err = f.Write(old)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(bak)
		return "", fmt.Errorf("backing up %s: %w", path, err)
	}
	return bak, nil
}

// configFileMode is the permission bits of path's target, 0644 for a new file.
func configFileMode(path string) fs.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return 0o644
}

// writeConfig replaces path's target with data atomically (a temporary
// file in the same directory, renamed over it), keeping its permissions
// and creating missing parent directories.
func writeConfig(path string, data []byte) error {
	real, err := configRealPath(path)
	if err != nil {
		return err
	}
	mode := configFileMode(real)
	dir := filepath.Dir(real)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(real)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, real)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// removeConfig deletes path's target.
func removeConfig(path string) error {
	real, err := configRealPath(path)
	if err != nil {
		return err
	}
	if err := os.Remove(real); err != nil {
		return fmt.Errorf("removing %s: %w", path, err)
	}
	return nil
}
