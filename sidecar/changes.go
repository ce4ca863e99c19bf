package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// This file is the changed_files method: which workspace files changed on
// disk since a moment. Claude Code's Bash hook uses it to check the files a
// shell command wrote (a sed, a formatter, a code generator), which no
// tool input names.

// MethodChangedFiles names the changed_files method (protocol 4).
const MethodChangedFiles = "changed_files"

// ChangedFilesParams asks for the files changed on disk at or after
// SinceMS, a Unix time in milliseconds.
type ChangedFilesParams struct {
	SinceMS int64 `json:"since_ms"` // Unix time, milliseconds; must be positive
}

// ChangedFilesResult lists the workspace's regular files changed at or
// after the asked time that exist now: absolute paths, sorted, at most
// MaxChanges (Truncated then says more were found). Source says how they
// were found: "watcher" when the daemon's workspace watcher covered the
// whole window, else "mtime" (a walk of the files git or .gitignore do not
// ignore, comparing modification times).
type ChangedFilesResult struct {
	Paths     []string `json:"paths"`               // absolute, sorted
	Source    string   `json:"source"`              // ChangedByWatcher or ChangedByMtime
	Truncated bool     `json:"truncated,omitempty"` // more than MaxChanges were found
}

// Sources of a ChangedFilesResult.
const (
	ChangedByWatcher = "watcher"
	ChangedByMtime   = "mtime"
)

// changedFilesTimeout bounds one changed_files answer (a walk of a very
// large workspace): the hook asking has a budget of seconds.
const changedFilesTimeout = 10 * time.Second

// changedFiles serves changed_files: from the language-server manager's
// watcher when it covers the window, else by modification time.
func (s *Server) changedFiles(ctx context.Context, raw json.RawMessage) (ChangedFilesResult, error) {
	ctx, cancel := context.WithTimeout(ctx, changedFilesTimeout)
	defer cancel()
	var p ChangedFilesParams
	if err := decodeParams(raw, &p); err != nil {
		return ChangedFilesResult{}, err
	}
	if p.SinceMS <= 0 {
		return ChangedFilesResult{}, invalidParams("changed_files: since_ms must be a positive Unix time in milliseconds")
	}
	since := time.UnixMilli(p.SinceMS)
	res := ChangedFilesResult{Paths: []string{}, Source: ChangedByMtime}
	if m := s.Engine.Manager; m != nil {
		paths, complete, err := m.ChangedSince(ctx, since)
		if err != nil && ctx.Err() != nil {
			return res, fmt.Errorf("changed_files: %w", err)
		}
		if err == nil && complete {
			res.Source, res.Paths = ChangedByWatcher, inRoot(s.Engine.Root, paths)
		}
	}
	if res.Source == ChangedByMtime {
		paths, err := ChangedSince(ctx, s.Engine.Root, since)
		if err != nil {
			return res, fmt.Errorf("changed_files: %w", err)
		}
		res.Paths = paths
	}
	if len(res.Paths) > MaxChanges {
		res.Paths, res.Truncated = res.Paths[:MaxChanges], true
	}
	s.Log.Info("changed_files", "since", since.Format(time.RFC3339Nano), "source", res.Source, "files", len(res.Paths))
	return res, nil
}

// inRoot keeps the paths inside root, skipping its .git directory (the
// watcher also reports files outside any server's interest).
func inRoot(root string, paths []string) []string {
	out := []string{}
	for _, p := range paths {
		rel := relSlash(root, p)
		if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || rel == ".git" || strings.HasPrefix(rel, ".git/") {
			continue
		}
		out = append(out, p)
	}
	return out
}

// ChangedSince returns the files under root (absolute, sorted) whose
// modification time is at or after since, among those CollectFiles lists
// for the whole root: tracked and untracked files git does not ignore, or
// outside git the files .gitignore does not ignore. It is changed_files'
// answer when no watcher covers the window, and the hook's own when no
// daemon answers. A file vanishing during the walk is skipped; the error
// is ctx's or the listing's.
func ChangedSince(ctx context.Context, root string, since time.Time) ([]string, error) {
	files, err := CollectFiles(ctx, FileQuery{Root: root})
	if errors.Is(err, ErrNoFiles) {
		return []string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing files changed since %s: %w", since.Format(time.RFC3339), err)
	}
	out := []string{}
	for i, f := range files {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fi, err := os.Lstat(f)
		if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(since) {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}
