package wire

import (
	"errors"
	"fmt"
	"time"
)

// changed_files: which workspace files an agent's shell command changed
// on disk (sidecar/changes.go serves it).

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
	// Deleted lists the workspace files deleted or renamed away in the
	// span that do not exist now (absolute, sorted): those the watcher saw
	// go, or in an answer by modification time the files of git's HEAD
	// missing from a directory changed in the span. Their users may be
	// broken.
	Deleted []string `json:"deleted,omitempty"`
}

// Sources of a ChangedFilesResult.
const (
	ChangedByWatcher = "watcher"
	ChangedByMtime   = "mtime"
)

// Spans of a ChangedFilesResult: what bounded its start.
const (
	SpanSession = "session" // when an earlier hook of the session asked: its last shell hook, else its start, else its previous hook
	SpanCommand = "command" // since_ms: the command's start, by the event's timing
	SpanDefault = "default" // default_ms before the question: nothing else was known
)

const (
	// DefaultShellSpan is the span looked back over when nothing else
	// bounds it (changed_files' default_ms 0).
	DefaultShellSpan = time.Minute
	// MaxSessionLen bounds changed_files' session.
	MaxSessionLen = 1024
)

// Check validates p.
func (p ChangedFilesParams) Check() error {
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

// Since is p's SinceMS as a time, zero when unset.
func (p ChangedFilesParams) Since() time.Time {
	if p.SinceMS <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(p.SinceMS)
}

// DefaultSpan is p's DefaultMS as a duration, DefaultShellSpan when unset.
func (p ChangedFilesParams) DefaultSpan() time.Duration {
	if p.DefaultMS <= 0 {
		return DefaultShellSpan
	}
	return time.Duration(p.DefaultMS) * time.Millisecond
}
