package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file is the changed_files method: which workspace files an agent's
// shell command changed on disk (a sed, a formatter, a code generator),
// which no tool input names. The span asked about starts where the
// session's previous hook left off, or where the command started by the
// event's own timing when that is earlier (spanStart); the daemon's file
// watcher answers when it covers the span, else modification times do, and
// the answer's notes say so.

// MethodChangedFiles names the changed_files method (protocol 4; protocol
// 9 added sessions, spans and notes).
const MethodChangedFiles = "changed_files"

// ChangedFilesParams asks for the files a shell command changed. At least
// one of SinceMS, Session and DefaultMS is set.
type ChangedFilesParams struct {
	// SinceMS is the command's start by the event's own timing (its
	// duration measured back from the hook, with slack): a Unix time in
	// milliseconds, 0 when the event does not say.
	SinceMS int64 `json:"since_ms,omitempty"`
	// Session names the hook chain ("claude/PostToolUse/<session_id>"):
	// the daemon looks back to when this chain's previous hook asked
	// (see hookMarks), and remembers this question as the chain's latest
	// hook. At most MaxSessionLen bytes.
	Session string `json:"session,omitempty"`
	// DefaultMS is how far back to look, in milliseconds, when neither
	// SinceMS nor the session's previous hook bounds the span; 0 means
	// DefaultShellSpan.
	DefaultMS int64 `json:"default_ms,omitempty"`
	// RecordOnly remembers the hook of Session as answered now (a hook
	// for a file tool, whose changes were named) and lists nothing.
	RecordOnly bool `json:"record_only,omitempty"`
}

// ChangedFilesResult lists the workspace's regular files changed in the
// span that exist now: absolute paths, sorted, at most MaxChanges
// (Truncated then says more were found). Source says how they were found:
// "watcher" when the daemon's workspace watcher covered the whole span,
// else "mtime" (a walk of the files git or .gitignore do not ignore,
// comparing modification times), and Uncovered why the watcher did not.
// Span says what bounded the span's start, SinceMS where it was. Notes
// are what the lint block must say about the answer (each without its
// "lsp-hook: " prefix): a span found by modification time, a default span.
type ChangedFilesResult struct {
	Paths     []string `json:"paths"`               // absolute, sorted
	Source    string   `json:"source,omitempty"`    // ChangedByWatcher or ChangedByMtime ("" for RecordOnly)
	Truncated bool     `json:"truncated,omitempty"` // more than MaxChanges were found
	SinceMS   int64    `json:"since_ms,omitempty"`  // the span's start, Unix milliseconds
	Span      string   `json:"span,omitempty"`      // SpanSession, SpanCommand or SpanDefault
	Uncovered string   `json:"uncovered,omitempty"` // with ChangedByMtime: why the watcher did not cover the span
	Notes     []string `json:"notes,omitempty"`     // for the lint block
	// Deleted lists the workspace files the watcher saw deleted or renamed
	// away in the span that do not exist now (absolute, sorted; watcher
	// answers only): their users may be broken.
	Deleted []string `json:"deleted,omitempty"`
}

// Sources of a ChangedFilesResult.
const (
	ChangedByWatcher = "watcher"
	ChangedByMtime   = "mtime"
)

// Spans of a ChangedFilesResult: what bounded its start.
const (
	SpanSession = "session" // when the session's previous hook asked
	SpanCommand = "command" // since_ms: the command's start, by the event's timing
	SpanDefault = "default" // default_ms before the question: nothing else was known
)

const (
	// DefaultShellSpan is the span looked back over when nothing else
	// bounds it (changed_files' default_ms 0).
	DefaultShellSpan = time.Minute
	// MaxSessionLen bounds changed_files' session.
	MaxSessionLen = 1024
	// mtimeSlack widens a span found by modification time: file times are
	// read from a coarse clock, and some file systems keep whole seconds.
	mtimeSlack = time.Second
	// changedFilesTimeout bounds one changed_files answer (a walk of a
	// very large workspace): the hook asking has a budget of seconds.
	changedFilesTimeout = 10 * time.Second
)

// check validates p.
func (p ChangedFilesParams) check() error {
	switch {
	case p.SinceMS < 0 || p.DefaultMS < 0:
		return errors.New("changed_files: since_ms and default_ms must not be negative")
	case p.SinceMS == 0 && p.Session == "" && p.DefaultMS == 0:
		return errors.New("changed_files: since_ms (a positive Unix time in milliseconds), session or default_ms is needed")
	case len(p.Session) > MaxSessionLen:
		return fmt.Errorf("changed_files: session longer than %d bytes", MaxSessionLen)
	case p.RecordOnly && p.Session == "":
		return errors.New("changed_files: record_only needs a session")
	}
	return nil
}

// spanStart is the window rule. A shell hook's span starts where the
// session's previous hook left off (prev; zero when unknown): when that
// hook examined every change before prev (a shell hook's changed_files),
// at prev; when it only recorded its time (a file tool's hook), at the
// earlier of prev and since, the command's start by the event's timing
// (zero when unknown): the union of both bounds, since neither is safe
// alone (a hook may arrive seconds after its command, so since is late;
// a session's tools and hooks may run in parallel, so prev may be late).
// With neither it starts def before now. It returns the start and the
// Span naming what bounded it.
func spanStart(prev time.Time, examined bool, since time.Time, def time.Duration, now time.Time) (time.Time, string) {
	switch {
	case !prev.IsZero() && (examined || since.IsZero() || !since.Before(prev)):
		return prev, SpanSession
	case !since.IsZero():
		return since, SpanCommand
	}
	return now.Add(-def), SpanDefault
}

// changedFiles serves changed_files: it takes the span from the session's
// previous hook and p (spanStart), answers from the language-server
// manager's watcher when it covers the span, else by modification time,
// and remembers this hook for the session's next one.
func (s *Server) changedFiles(ctx context.Context, raw json.RawMessage) (ChangedFilesResult, error) {
	ctx, cancel := context.WithTimeout(ctx, changedFilesTimeout)
	defer cancel()
	var p ChangedFilesParams
	if err := decodeParams(raw, &p); err != nil {
		return ChangedFilesResult{}, err
	}
	if err := p.check(); err != nil {
		return ChangedFilesResult{}, invalidParams(err.Error())
	}
	now := time.Now()
	m := s.Engine.Manager
	if p.RecordOnly {
		s.hooks.mark(p.Session, now, false)
		if m != nil {
			m.StartWatching() // so that the session's next shell hook finds it running
		}
		return ChangedFilesResult{Paths: []string{}}, nil
	}
	prev, examined := s.hooks.last(p.Session, now)
	since, span := spanStart(prev, examined, p.since(), p.defaultSpan(), now)
	uncovered := "the daemon runs no language servers (lsp: false)"
	var watched []string
	if m != nil {
		paths, why, err := m.ChangedSince(ctx, since)
		switch {
		case err != nil && ctx.Err() != nil:
			return ChangedFilesResult{}, fmt.Errorf("changed_files: %w", err)
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
	var res ChangedFilesResult
	mark := now
	if uncovered == "" {
		res = ChangedFilesResult{Paths: inRoot(s.Engine.Root, watched), Source: ChangedByWatcher}
		if gone, err := m.DeletedSince(ctx, since); err == nil && len(gone) > 0 {
			res.Deleted = inRoot(s.Engine.Root, gone)
		}
		res.finish(since, span, p.defaultSpan())
	} else {
		var err error
		mark = time.Now()
		if res, err = changedOnDisk(ctx, s.Engine.Root, since, span, p.defaultSpan(), uncovered); err != nil {
			return res, fmt.Errorf("changed_files: %w", err)
		}
	}
	s.hooks.mark(p.Session, mark, true)
	s.Log.Info("changed_files", "since", since.Format(time.RFC3339Nano), "span", span, "source", res.Source,
		"uncovered", res.Uncovered, "files", len(res.Paths))
	return res, nil
}

// since is p's SinceMS as a time, zero when unset.
func (p ChangedFilesParams) since() time.Time {
	if p.SinceMS <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(p.SinceMS)
}

// defaultSpan is p's DefaultMS as a duration, DefaultShellSpan when unset.
func (p ChangedFilesParams) defaultSpan() time.Duration {
	if p.DefaultMS <= 0 {
		return DefaultShellSpan
	}
	return time.Duration(p.DefaultMS) * time.Millisecond
}

// ChangedOnDisk answers p without a daemon: no session is remembered, so
// the span starts at p's since_ms, else default_ms before now; the files
// are found by modification time, uncovered saying why no watcher was
// asked (it goes into the notes).
func ChangedOnDisk(ctx context.Context, root string, p ChangedFilesParams, uncovered string) (ChangedFilesResult, error) {
	if err := p.check(); err != nil {
		return ChangedFilesResult{}, err
	}
	since, span := spanStart(time.Time{}, false, p.since(), p.defaultSpan(), time.Now())
	return changedOnDisk(ctx, root, since, span, p.defaultSpan(), uncovered)
}

// changedOnDisk is the answer by modification time for the span from
// since (widened by mtimeSlack).
func changedOnDisk(ctx context.Context, root string, since time.Time, span string, def time.Duration, uncovered string) (ChangedFilesResult, error) {
	paths, err := ChangedSince(ctx, root, since.Add(-mtimeSlack))
	if err != nil {
		return ChangedFilesResult{}, err
	}
	res := ChangedFilesResult{Paths: paths, Source: ChangedByMtime, Uncovered: uncovered}
	res.finish(since, span, def)
	return res, nil
}

// finish completes res: the span, the cap on its paths, and its notes.
func (res *ChangedFilesResult) finish(since time.Time, span string, def time.Duration) {
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
		SpanSession: "since this session's previous hook",
		SpanCommand: "while the shell command ran",
		SpanDefault: "in the last " + def.String(),
	}[span]
	if span == SpanDefault {
		notes = append(notes, fmt.Sprintf("the hook event did not say how long the shell command ran and no earlier hook of this session is known: only files changed %s were checked", what))
	}
	if uncovered != "" {
		notes = append(notes, fmt.Sprintf("files changed %s were found by modification time (%s); a file the command gave an older time is not checked", what, uncovered))
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
// modification time is at or after since, among those CollectFiles lists
// for the whole root: tracked and untracked files git does not ignore, or
// outside git the files .gitignore does not ignore. It is changed_files'
// answer when no watcher covers the span, and the hook's own when no
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
