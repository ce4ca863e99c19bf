package hooks

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/wire"
)

// `lsp-hook hooks run` reads agent-runtime events as JSON lines and writes
// each back, in order, one line per line read. An event is matched against
// the declarations in order; the first that matches runs. Field paths are
// gjson paths (github.com/tidwall/gjson).
//
//   - Tool name: the first of ToolNameFields holding a non-empty string.
//     A tool_name condition never matches an event without one.
//   - Phase: the first of PhaseFields whose string value names a phase
//     (phaseAliases: "tool_end", "PostToolUse", "AfterTool", … compared
//     case-insensitively, ignoring `_`, `-`, `.` and spaces). The
//     declaration fires when its `on:` lists that phase; an event with no
//     such field (or only values naming no phase, such as "type":
//     "function") matches declarations of either phase.
//   - Path: action.path_field must hold a non-empty string, and
//     action.content_field a string when read_from_disk is false; an event
//     without them does not match that declaration (the next one is tried).
//     A relative path is taken from the workspace root.
//
// A matching event is checked (Runner.Diagnoser; by default the workspace
// daemon through Check, started when absent). With inject_result and a
// non-empty lint block the event is written back with the block merged
// (injectLint: `result.lint`); otherwise — no match, a clean file, no
// inject_result — the line is written back byte for byte, line ending
// included. Blank lines, lines that are not JSON (logged) and JSON values
// that are not objects pass through unchanged too. Events are handled one at
// a time: each line is written before the next is read.

// ToolNameFields are the gjson paths tried, in order, for an event's tool
// name: {"tool": {"name": …}} (agent runtimes), {"tool_name": …} (Claude
// Code, Gemini CLI, Codex), {"name": …} (a bare tool call).
var ToolNameFields = []string{"tool.name", "tool_name", "name"}

// PhaseFields are the gjson paths tried, in order, for an event's phase.
var PhaseFields = []string{"event", "phase", "hook_event_name", "type"}

// phaseAliases maps a normalized phase value (normalizePhase) to its phase.
var phaseAliases = map[string]Phase{
	"toolend": PhaseToolEnd, "posttooluse": PhaseToolEnd, "aftertool": PhaseToolEnd,
	"toolstart": PhaseToolStart, "pretooluse": PhaseToolStart, "beforetool": PhaseToolStart,
}

// normalizePhase lower-cases v and drops `_`, `-`, `.` and spaces.
func normalizePhase(v string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', ' ':
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, v)
}

// phaseOf returns the phase event names, "" when it names none.
func phaseOf(event []byte) Phase {
	for _, f := range PhaseFields {
		if r := gjson.GetBytes(event, f); r.Type == gjson.String {
			if ph, ok := phaseAliases[normalizePhase(r.Str)]; ok {
				return ph
			}
		}
	}
	return ""
}

// toolNameOf returns the tool name event carries, "" when none.
func toolNameOf(event []byte) string {
	for _, f := range ToolNameFields {
		if r := gjson.GetBytes(event, f); r.Type == gjson.String && r.Str != "" {
			return r.Str
		}
	}
	return ""
}

// Diagnoser checks one change a declaration matched, and says how ("daemon",
// "started-daemon", "in-process"; see Check).
type Diagnoser interface {
	Diagnose(ctx context.Context, d *Declaration, c wire.Change) (res wire.Result, via string)
}

// DiagnoserFunc adapts a function to Diagnoser.
type DiagnoserFunc func(ctx context.Context, d *Declaration, c wire.Change) (wire.Result, string)

// Diagnose calls f.
func (f DiagnoserFunc) Diagnose(ctx context.Context, d *Declaration, c wire.Change) (wire.Result, string) {
	return f(ctx, d, c)
}

var _ Diagnoser = DiagnoserFunc(nil)

// Runner runs hook declarations over a stream of events (see above).
type Runner struct {
	// Decls are the declarations, tried in order.
	Decls []Declaration
	// Root is the workspace root (absolute, symlink-free): relative event
	// paths and relative path globs are taken from it.
	Root string
	// Alias is Root as the runtime spells it, when that is through a
	// symlink (workspace.Alias of its working directory): absolute event
	// paths spelled through it are respelled in Root's before anything
	// else looks at them. "" when there is none.
	Alias string
	// Diagnoser checks matched events; nil means Check (the workspace
	// daemon, started when absent; in-process validators when it cannot
	// be had) with Options, each check's budget counted from its event.
	Diagnoser Diagnoser
	// Options configure Check when Diagnoser is nil.
	Options Options
	// Log receives a line per checked event and per line passed through
	// because it is not JSON; nil discards.
	Log *slog.Logger
}

// Run reads events from in until EOF and writes each to out as described
// above. It returns an error only when reading or writing fails, or a line
// is longer than MaxEventSize: the lines before it have been written.
func (r *Runner) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	if r.Log == nil {
		r.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	br := bufio.NewReaderSize(in, 64<<10)
	bw := bufio.NewWriterSize(out, 64<<10)
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) > 0 {
			if _, werr := bw.Write(r.handle(ctx, n, line)); werr != nil {
				return fmt.Errorf("writing event line %d: %w", n, werr)
			}
			// Flush whenever no more input is waiting: a live stream sees
			// each answer at once, a replayed file is written in blocks.
			if br.Buffered() == 0 {
				if werr := bw.Flush(); werr != nil {
					return fmt.Errorf("writing event line %d: %w", n, werr)
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return bw.Flush()
		}
		if err != nil {
			_ = bw.Flush()
			return fmt.Errorf("reading event line %d: %w", n, err)
		}
	}
}

// ErrLineTooLong is returned by Run for a line longer than MaxEventSize.
var ErrLineTooLong = fmt.Errorf("line longer than %d MiB", MaxEventSize>>20)

// readLine returns the next line with its '\n' (none at the end of the
// input), and io.EOF after the last one.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxEventSize+1 {
			return nil, ErrLineTooLong
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// handle returns what to write for line n (with its line ending).
func (r *Runner) handle(ctx context.Context, n int, line []byte) []byte {
	body := bytes.TrimSuffix(line, []byte("\n"))
	body = bytes.TrimSuffix(body, []byte("\r"))
	if len(bytes.TrimSpace(body)) == 0 {
		return line
	}
	if !gjson.ValidBytes(body) {
		r.Log.Warn("passing through a line that is not JSON", "line", n)
		return line
	}
	if !gjson.ParseBytes(body).IsObject() {
		r.Log.Debug("passing through a JSON value that is not an object", "line", n)
		return line
	}
	d, c, ok := r.match(body)
	if !ok {
		return line
	}
	begin := time.Now()
	res, via := r.diagnose(ctx, d, c)
	r.Log.Info("hook checked", "hook", d.ID, "line", n, "path", c.Path, "via", via, "files", len(res.Files),
		"notes", res.Notes, "elapsed_ms", time.Since(begin).Milliseconds())
	if d.Action.Publish && via == "in-process" {
		r.Log.Warn("not published: no daemon, so no subscribers", "hook", d.ID, "line", n)
	}
	if !d.Action.InjectResult || res.Lint == "" {
		return line
	}
	merged, err := injectLint(body, res.Lint)
	if err != nil {
		r.Log.Warn("passing through an event the lint block cannot be merged into", "hook", d.ID, "line", n, "err", err)
		return line
	}
	return append(merged, line[len(body):]...)
}

// match returns the first declaration event matches and the change it
// describes.
func (r *Runner) match(event []byte) (*Declaration, wire.Change, bool) {
	phase, tool := phaseOf(event), toolNameOf(event)
	for i := range r.Decls {
		d := &r.Decls[i]
		if !d.fires(phase) || d.tools != nil && (tool == "" || !d.tools.match(tool)) {
			continue
		}
		p := gjson.GetBytes(event, d.Action.PathField)
		if p.Type != gjson.String || p.Str == "" {
			continue
		}
		path := workspace.Respell(r.Root, r.Alias, p.Str)
		if d.paths != nil {
			if rel, abs := eventPaths(r.Root, path); !d.paths.match(rel, abs) {
				continue
			}
		}
		c := wire.Change{Path: path, Mode: d.Action.Mode}
		if !filepath.IsAbs(c.Path) {
			c.Path = filepath.Join(r.Root, c.Path)
		}
		if !d.Action.ReadFromDisk {
			text := gjson.GetBytes(event, d.Action.ContentField)
			if text.Type != gjson.String {
				continue
			}
			c.Content = &text.Str
		}
		return d, c, true
	}
	return nil, wire.Change{}, false
}

// diagnose checks c for d with the Diagnoser, or through Check.
func (r *Runner) diagnose(ctx context.Context, d *Declaration, c wire.Change) (wire.Result, string) {
	if r.Diagnoser != nil {
		return r.Diagnoser.Diagnose(ctx, d, c)
	}
	opts := r.Options
	if opts.Log == nil {
		opts.Log = r.Log
	}
	opts.Publish = d.Action.Publish
	return Check(ctx, r.Root, []wire.Change{c}, "hooks:"+d.ID, time.Now(), opts)
}
