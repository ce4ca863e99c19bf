package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// This file holds the steps every install and uninstall takes around its
// edit, written once for every config file (Add, Remove, AddMCP,
// RemoveMCP): read the file (following a symlink), parse it, let the edit
// change the syntax tree, diff the old bytes against the new, and unless
// it is a dry run back the old bytes up and write the new ones atomically
// (or restore the backup, or delete a file that only install's skeleton is
// left of).

// A fileEdit is one change of lsp-hook's entries in one config file.
type fileEdit struct {
	target *Target // the agent, for Result.Target
	path   string  // the config file, as configured
	// skeleton is the object a new file starts from ({} when nil); an
	// uninstall that leaves only it deletes the file install created.
	skeleton []Field
	// edit adds or removes lsp-hook's entries in d and reports whether it
	// changed anything; an error leaves the file alone.
	edit func(d *jsonDoc) (bool, error)
	// notes tells the user what is left to do after an install changed
	// the file; nil for none.
	notes func() []string
}

// load reads the file and parses it. d is nil when the file is missing
// or blank; a file that does not parse is an error.
func (e *fileEdit) load() (old []byte, exists bool, d *jsonDoc, err error) {
	old, exists, err = readConfig(e.path)
	if err != nil || len(bytes.TrimSpace(old)) == 0 {
		return old, exists, nil, err
	}
	d, err = parseJSONDoc(e.path, old)
	return old, exists, d, err
}

// add installs: a missing or blank file starts from the skeleton; a file
// whose bytes the edit leaves as they were is Unchanged and not written.
func (e *fileEdit) add(dryRun bool) (*Result, error) {
	old, exists, d, err := e.load()
	if err != nil {
		return nil, err
	}
	if d == nil {
		d = newJSONDoc(e.path, e.skeleton)
	}
	if _, err := e.edit(d); err != nil {
		return nil, err
	}
	res := &Result{Target: e.target, Path: e.path, Action: Updated}
	out := d.bytes()
	if exists && bytes.Equal(out, old) {
		res.Action = Unchanged
		return res, nil
	}
	oldName := e.path
	if !exists {
		res.Action, oldName = Created, "/dev/null"
	}
	res.Diff = unifiedDiff(oldName, e.path, old, out)
	if e.notes != nil {
		res.Notes = e.notes()
	}
	if dryRun {
		return res, nil
	}
	return save(res, old, out, exists)
}

// remove uninstalls: a missing or blank file, or one the edit does not
// change, is Unchanged. Otherwise the file gets the backup's bytes when
// they hold the same JSON up to empty containers (the backup is then
// removed), is deleted when there is no backup and only the skeleton is
// left, and else gets the edited bytes after its old ones are backed up.
func (e *fileEdit) remove(dryRun bool) (*Result, error) {
	res := &Result{Target: e.target, Path: e.path, Action: Unchanged}
	old, _, d, err := e.load()
	if err != nil || d == nil {
		return res, err
	}
	if changed, err := e.edit(d); err != nil || !changed {
		return res, err
	}
	path := res.Path
	out, newName := d.bytes(), path
	res.Action = Updated
	bakPath := path + BackupSuffix
	switch bak, err := os.ReadFile(bakPath); {
	case err == nil:
		if bd, perr := parseJSONDoc(bakPath, bak); perr == nil && sameJSONIgnoringEmpty(d, bd) {
			out, res.Restored = bak, true
		}
	case errors.Is(err, fs.ErrNotExist):
		if !isSymlinkPath(path) && sameJSONIgnoringEmpty(d, newJSONDoc(path, e.skeleton)) {
			out, newName, res.Action = nil, "/dev/null", Removed
		}
	default:
		return nil, fmt.Errorf("reading the backup: %w", err)
	}
	res.Diff = unifiedDiff(path, newName, old, out)
	if dryRun {
		return res, nil
	}
	switch {
	case res.Action == Removed:
		return res, removeConfig(path)
	case res.Restored:
		if err := writeConfig(path, out); err != nil {
			return nil, err
		}
		return res, os.Remove(bakPath)
	}
	return save(res, old, out, true)
}

// save backs up old, the file's content when it exists, and writes out.
func save(res *Result, old, out []byte, exists bool) (*Result, error) {
	if exists {
		var err error
		if res.Backup, err = backupConfig(res.Path, old); err != nil {
			return nil, err
		}
	}
	return res, writeConfig(res.Path, out)
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
