package sidecar

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// This file is the changed_files method: which workspace files an agent's
// shell command changed on disk (a sed, a formatter, a code generator),
// which no tool input names. The span asked about starts where the
// session's previous hook left off, or where the command started by the
// event's own timing when that is earlier (spanStart); the daemon's file
// watcher answers when it covers the span, else modification times do, and
// the answer's notes say so.

const (
	// mtimeSlack widens a span found by modification time: file times are
	// read from a coarse clock, and some file systems keep whole seconds.
	mtimeSlack = time.Second
	// changedFilesTimeout bounds one changed_files answer (a walk of a
	// very large workspace): the hook asking has a budget of seconds.
	changedFilesTimeout = 10 * time.Second
)

// spanStart is the window rule. A shell hook's span starts where the
// session's previous hook left off (prev; zero when unknown): when that
// hook examined every change before prev (a shell hook's changed_files),
// at prev. When it only checked what a file tool changed, it vouches for
// nothing else, and the span starts at the earlier of floor and since:
// floor is when the chain's last shell hook examined the disk, or the
// session started (hookMarks.lastOrSession; zero when unknown: then the
// earlier of prev and def before now), since the
// command's start by the event's timing (zero when unknown). Neither bound
// is safe alone: a hook may arrive seconds after its command, so since is
// late, and a session's tools and hooks may run in parallel, so a file
// tool's hook may come between a command and its hook (the files that
// hook checked and that did not change since are left out:
// hookMark.checkedUnchanged). With no previous hook it starts at the
// earlier of since and def before now: the event's timing says how long
// the command ran, not how late its hook is, and a hook seconds late
// looking back only to since passed the command by (make soak, seed
// 6079122614619537867, C #207: a daemon replaced for its config knew no
// previous hook, and a sed 2.8 s before the hook went unchecked); with
// neither, def before now. It returns the start and the Span naming what
// bounded it: a known since makes it SpanCommand (the command's span lies
// within it), so that only a span nothing but def bounded has the note
// saying so.
func spanStart(prev time.Time, examined bool, floor, since time.Time, def time.Duration, now time.Time) (time.Time, string) {
	switch {
	case !prev.IsZero() && examined:
		return prev, wire.SpanSession
	case !prev.IsZero():
		start := floor
		if start.IsZero() {
			start = minTime(prev, now.Add(-def))
		}
		if !since.IsZero() && since.Before(start) {
			return since, wire.SpanCommand
		}
		return start, wire.SpanSession
	case !since.IsZero():
		return minTime(since, now.Add(-def)), wire.SpanCommand
	}
	return now.Add(-def), wire.SpanDefault
}

// minTime returns the earlier of a and b.
func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// markChain remembers a file tool's hook of chain as answered now, for
// the chain's next shell hook (changed_files' record_only,
// notify_change's chain), with the texts it checked (checkedTexts, taken
// before its check began), and starts the watcher, so that the next
// shell hook finds it running.
func (s *Server) markChain(chain string, checked map[string]checkedText) {
	s.hooks.markChecked(chain, time.Now(), checked)
	if m := s.Engine.Manager; m != nil {
		m.StartWatching()
	}
}

// checkedTexts returns, for the files of changes inside the workspace,
// the textSum of their text (the event's, else the file's now) and the
// time now; a file absent (deleted) as such (checkedText.gone). A file
// that cannot be read, or is too large to sum, is left out (a shell hook
// checks it again). Taken before the check reads the files, a sum is of
// the checked text or an older one, never a newer.
func (s *Server) checkedTexts(changes []wire.Change) map[string]checkedText {
	at := time.Now()
	out := make(map[string]checkedText, len(changes))
	for _, c := range changes {
		p, err := workspace.Resolve(s.Engine.Root, c.Path)
		if err != nil {
			continue
		}
		if c.Content != nil {
			out[p] = checkedText{sum: textSum([]byte(*c.Content)), at: at}
		} else if sum, ok := fileSum(p); ok {
			out[p] = checkedText{sum: sum, at: at}
		} else if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			out[p] = checkedText{at: at, gone: true} // checked as deleted
		}
	}
	return out
}

// spanTexts returns, for the files of a shell hook's span (res), the
// textSum of their text now — absent, for the deletions — and the time
// before it was taken: the changes the hook's session is about to be
// answered for, which the other sessions' shell hooks leave out
// (hookMarks.claim, othersChecked).
func (s *Server) spanTexts(res wire.ChangedFilesResult) map[string]checkedText {
	paths := slices.Concat(res.Paths, res.Deleted)
	changes := make([]wire.Change, 0, min(len(paths), maxCheckedFiles))
	for _, p := range paths[:min(len(paths), maxCheckedFiles)] { // what a chain claims is bounded so (addClaims)
		changes = append(changes, wire.Change{Path: p})
	}
	return s.checkedTexts(changes)
}

// changesRead has the watcher read every change made before it was
// called, in the background, and sends when it had (time zero when no
// watcher was running, or ctx ended first): a file tool's hook dates the
// texts it checked by it (checkedText.at), so that the tool's own write,
// read by the watcher after the hook began, does not count as a change
// made after the check (the file would be checked, and reported, again
// by the chain's next shell hook).
func (s *Server) changesRead(ctx context.Context) <-chan time.Time {
	out := make(chan time.Time, 1)
	m := s.Engine.Manager
	if m == nil {
		out <- time.Time{}
		return out
	}
	go func() {
		var at time.Time
		if m.ReadChanges(ctx) {
			at = time.Now()
		}
		out <- at
	}()
	return out
}

// changedFiles serves changed_files: it takes the span from the session's
// previous hook and p (spanStart), answers from the language-server
// manager's watcher when it covers the span, else by modification time,
// and remembers this hook for the session's next one.
func (s *Server) changedFiles(ctx context.Context, p wire.ChangedFilesParams) (wire.ChangedFilesResult, error) {
	ctx, cancel := context.WithTimeout(ctx, changedFilesTimeout)
	defer cancel()
	if err := p.Check(); err != nil {
		return wire.ChangedFilesResult{}, invalidParams(err.Error())
	}
	now := time.Now()
	m := s.Engine.Manager
	if p.RecordOnly {
		s.markChain(p.Session, nil)
		return wire.ChangedFilesResult{Paths: []string{}}, nil
	}
	prev, floor := s.hooks.lastOrSession(p.Session, now)
	since, span := spanStart(prev.at, prev.examined, floor, p.Since(), p.DefaultSpan(), now)
	uncovered := "the daemon runs no language servers (lsp: false)"
	var watched []string
	if m != nil {
		paths, why, err := m.ChangedSince(ctx, since)
		switch {
		case err != nil && ctx.Err() != nil:
			return wire.ChangedFilesResult{}, fmt.Errorf("changed_files: %w", err)
		case err != nil:
			uncovered = "the file watcher is closed (" + err.Error() + ")"
		default:
			watched, uncovered = paths, why
		}
	}
	// mark is where the session's next hook looks back to: this answer
	// vouches for every change before it. The watcher's answer covers the
	// changes made before the question; a walk covers those made before
	// it began, and the watcher (started meanwhile) may cover the next.
	var res wire.ChangedFilesResult
	mark := now
	if uncovered == "" {
		paths := inRoot(s.Engine.Root, watched)
		res = wire.ChangedFilesResult{Paths: s.unchecked(p.Session, prev, paths, watchedAfter(m, paths, false)), Source: wire.ChangedByWatcher}
		if gone, err := m.DeletedSince(ctx, since); err == nil && len(gone) > 0 {
			res.Deleted = goneWith(m, inRoot(s.Engine.Root, gone), workspace.DeletedFromHead(ctx, s.Engine.Root))
			res.Deleted = s.notOthers(p.Session, res.Deleted, watchedAfter(m, res.Deleted, false))
		}
		finish(&res, since, span, p.DefaultSpan())
	} else {
		var err error
		mark = time.Now()
		// What the watcher saw since it started is in the span too, and
		// modification times miss some of it: `mv` keeps a file's time
		// (make soak, seed 6715417223403443842, Python #45: a module moved
		// back went unchecked, and a server of another root went on
		// answering its importer's import as unresolved, a stale error).
		var gone []string
		if m != nil {
			gone, _ = m.DeletedSince(ctx, since)
		}
		if res, err = changedOnDisk(ctx, s.Engine.Root, m, since, span, p.DefaultSpan(), uncovered, inRoot(s.Engine.Root, watched), inRoot(s.Engine.Root, gone)); err != nil {
			return res, fmt.Errorf("changed_files: %w", err)
		}
		res.Paths = s.unchecked(p.Session, prev, res.Paths, watchedAfter(m, res.Paths, true))
		res.Deleted = s.notOthers(p.Session, res.Deleted, watchedAfter(m, res.Deleted, false)) // a deleted file has no time to go by
	}
	s.hooks.mark(p.Session, mark, true)
	s.hooks.claim(p.Session, s.spanTexts(res))
	s.Log.Info("changed_files", "since", since.Format(time.RFC3339Nano), "span", span, "source", res.Source,
		"uncovered", res.Uncovered, "files", len(res.Paths))
	return res, nil
}

// goneWith returns gone (paths the watcher saw deleted or renamed away,
// absent now) with the files a gone directory took with it: a directory
// renamed (`mv pkg pkg2`, `git mv`) is one event, for the directory, and
// without its files the servers went on resolving what they defined, a
// false clean (`mv lib lib2` left main.go's import of lib answered clean,
// while go build failed). Its files are those of head (git HEAD's files
// missing from the work tree, workspace.DeletedFromHead) below it, and
// those below it the watcher of m saw changed that are absent now.
func goneWith(m *lsp.Manager, gone, head []string) []string {
	if len(gone) == 0 {
		return gone
	}
	known := head
	if m != nil {
		known = slices.Concat(head, m.SeenPaths())
	}
	var took []string
	for _, p := range workspace.Under(gone, known) {
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			took = append(took, p)
		}
	}
	return union(gone, took)
}

// ChangedOnDisk answers p without a daemon: no session is remembered, so
// the span starts at p's since_ms, else default_ms before now; the files
// are found by modification time, uncovered saying why no watcher was
// asked (it goes into the notes).
func ChangedOnDisk(ctx context.Context, root string, p wire.ChangedFilesParams, uncovered string) (wire.ChangedFilesResult, error) {
	if err := p.Check(); err != nil {
		return wire.ChangedFilesResult{}, err
	}
	since, span := spanStart(time.Time{}, false, time.Time{}, p.Since(), p.DefaultSpan(), time.Now())
	return changedOnDisk(ctx, root, nil, since, span, p.DefaultSpan(), uncovered, nil, nil)
}

// changedOnDisk is the answer by modification time for the span from
// since (widened by mtimeSlack); m, when not nil, is the watcher that
// saw watchedGone go (goneWith).
func changedOnDisk(ctx context.Context, root string, m *lsp.Manager, since time.Time, span string, def time.Duration, uncovered string, watched, watchedGone []string) (wire.ChangedFilesResult, error) {
	paths, err := ChangedSince(ctx, root, since.Add(-mtimeSlack))
	if err != nil {
		return wire.ChangedFilesResult{}, err
	}
	res := wire.ChangedFilesResult{Paths: union(paths, watched), Source: wire.ChangedByMtime, Uncovered: uncovered}
	// A file's time tells no deletion, but its directory's does: the
	// files of git's HEAD gone from the work tree (`git mv`, `git rm`,
	// `rm`) from a directory changed in the span.
	head := workspace.DeletedFromHead(ctx, root)
	res.Deleted = union(workspace.DirChangedSince(head, since.Add(-mtimeSlack)), goneWith(m, watchedGone, head))
	finish(&res, since, span, def)
	return res, nil
}

// unchecked returns paths without those a file tool's hook checked with
// the text they have now, nothing changing them since
// (checkedText.unchanged, changedAfter): a hook of the asking chain
// (prev), whose agent had the answer; or a hook of another agent session
// than chain's, whose change it is. Two sessions at work in one checkout
// at once (two agents, or an agent's parallel sessions) each see the
// other's writes in their shell commands' spans: the command's hook
// answered for the errors the other session made, and its session's
// Stop gate blocked on them, the session told to fix what it never
// touched. A file both changed (the command rewrote what the other
// session's hook checked) has a text no hook checked: it is in the span.
func (s *Server) unchecked(chain string, prev hookMark, paths []string, changedAfter func(path string, t time.Time) bool) []string {
	paths = s.notOthers(chain, paths, changedAfter)
	if len(prev.checked) == 0 {
		return paths
	}
	return slices.DeleteFunc(paths, func(p string) bool { return prev.checkedUnchanged(p, changedAfter) })
}

// notOthers returns paths without those a hook of another agent session
// than chain's checked as they are now — with the text they have, or
// absent (a deletion) — nothing changing them since (unchecked).
func (s *Server) notOthers(chain string, paths []string, changedAfter func(path string, t time.Time) bool) []string {
	others := s.hooks.othersChecked(chain, paths, time.Now())
	if len(others) == 0 {
		return paths
	}
	return slices.DeleteFunc(paths, func(p string) bool {
		for _, c := range others[p] {
			if c.unchanged(p, changedAfter) {
				s.Log.Debug("changed_files: leaving out another session's change", "path", p, "deleted", c.gone)
				return true
			}
		}
		return false
	})
}

// watchedAfter returns checkedUnchanged's changedAfter for paths: the
// watcher of m saw the path changed after t (Manager.LastChanged, asked
// once, after changed_files' own question made it read every change
// before); and, when the watcher does not cover the span (byMtime), or a
// path is not among its changes, the file's modification time is after
// t, or it cannot be read.
func watchedAfter(m *lsp.Manager, paths []string, byMtime bool) func(path string, t time.Time) bool {
	var last map[string]time.Time
	if m != nil {
		last = m.LastChanged(paths)
	}
	return func(path string, t time.Time) bool {
		if at, ok := last[path]; ok && at.After(t) {
			return true
		}
		if !byMtime {
			return false
		}
		fi, err := os.Stat(path)
		return err != nil || fi.ModTime().After(t)
	}
}

// union returns the paths of a and b, each once, sorted; nil when both
// are empty.
func union(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// finish completes res: the span, the cap on its paths, and its notes.
func finish(res *wire.ChangedFilesResult, since time.Time, span string, def time.Duration) {
	res.SinceMS, res.Span = since.UnixMilli(), span
	if res.Paths == nil {
		res.Paths = []string{}
	}
	if len(res.Paths) > MaxChanges {
		res.Paths, res.Truncated = res.Paths[:MaxChanges], true
	}
	res.Notes = spanNotes(span, def, res.Uncovered)
}

// spanNotes are the lint block's notes on a span: how it was bounded when
// nothing but a default was known, and how its files were found when the
// watcher did not cover it. Silence must mean the command's files were
// checked.
func spanNotes(span string, def time.Duration, uncovered string) []string {
	var notes []string
	what := map[string]string{
		wire.SpanSession: "since an earlier hook of this session",
		wire.SpanCommand: "while the shell command ran",
		wire.SpanDefault: "in the last " + def.String(),
	}[span]
	if span == wire.SpanDefault {
		notes = append(notes, fmt.Sprintf("the hook event did not say how long the shell command ran and no earlier hook of this session is known: only files changed %s were checked", what))
	}
	if uncovered != "" {
		notes = append(notes, fmt.Sprintf("files changed %s were found by modification time and git (%s); a file the command gave an older time, or an untracked file it deleted, is not checked", what, uncovered))
	}
	return notes
}

// inRoot keeps the paths inside root, skipping its .git directory (the
// watcher also reports files outside any server's interest).
func inRoot(root string, paths []string) []string {
	out := []string{}
	for _, p := range paths {
		rel, ok := workspace.Rel(root, p)
		if !ok || rel == "." || rel == ".git" || strings.HasPrefix(rel, ".git/") {
			continue
		}
		out = append(out, p)
	}
	return out
}

// ChangedSince returns the files under root (absolute, sorted) whose
// modification time is at or after since, among those workspace.CollectFiles lists
// for the whole root: tracked and untracked files git does not ignore, or
// outside git the files .gitignore does not ignore. It is changed_files'
// answer when no watcher covers the span, and the hook's own when no
// daemon answers. A file vanishing during the walk is skipped; the error
// is ctx's or the listing's.
func ChangedSince(ctx context.Context, root string, since time.Time) ([]string, error) {
	files, err := workspace.CollectFiles(ctx, workspace.FileQuery{Root: root})
	if errors.Is(err, workspace.ErrNoFiles) {
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
