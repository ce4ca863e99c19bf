package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/lsp-hook/lsp-hook/wire"
)

// Adapter speaks one agent's hook protocol.
type Adapter interface {
	// Name is the agent's name as given to `lsp-hook hook NAME`.
	Name() string
	// Decode reads one hook event and returns what it asks for: the
	// changes it describes (none for events about other tools), and what
	// to do with the session's spool. A malformed event is an error.
	Decode(r io.Reader) (Event, error)
	// Encode renders the agent's answer to ev carrying res.Lint: nothing
	// printed when the lint block is empty (the generic adapter aside).
	Encode(ev Event, res wire.Result) (Answer, error)
}

// Event is what an adapter took from a hook event.
type Event struct {
	// Cwd is the directory the agent ran in (absolute; "" when the event
	// has none: the hook's working directory stands in).
	Cwd string
	// Session identifies the conversation (Claude's session_id, Cursor's
	// conversation_id, Copilot's sessionId, Windsurf's trajectory_id); it
	// keys the spool and the delivered-block record.
	Session string
	// Tool and Hook are the tool's and the hook event's names as the agent
	// sent them, for the log and for answers that repeat the event name.
	Tool, Hook string
	// Agent is the agent whose hook runner sent the event: usually the
	// adapter's own, but "cursor" or "copilot" when one of them ran a hook
	// configured for Claude Code (both read .claude/settings.json).
	Agent string
	// Changes are the files the event says were changed.
	Changes []wire.Change
	// Lifecycle marks a session event instead of a change: the session's
	// start (prewarm), an end of turn (the Stop gate) or its end; "" for
	// a change.
	Lifecycle Lifecycle
	// StopActive is the agent's word that this end of turn follows one a
	// Stop hook blocked (Claude Code's, Codex's and Gemini CLI's
	// stop_hook_active; Copilot and Cursor send none, and the daemon's own
	// count of blocks in a row stands in).
	StopActive bool
	// Shell marks an event of an agent's shell tool (Claude Code's Bash,
	// Cursor's Shell): the workspace files the command changed on disk are
	// checked too, as writes, found by the daemon's changed_files over the
	// span since the session's previous hook or since the command started,
	// whichever is earlier (see check.go).
	Shell bool
	// ShellRan is how long the shell command ran by the event
	// (duration_ms); 0 when the event does not say.
	ShellRan time.Duration
	// Spool says what the event does with the files recorded for the
	// session: nothing, record Changes for a later event (and answer
	// nothing now), or take them and check them with Changes.
	Spool SpoolOp
	// Once marks an answer the agent may receive twice for one change
	// (its runner also runs the Claude Code hook): it is delivered once
	// per session, file and content (see DeliveredTTL).
	Once bool
	// NoteDelivered records, per session, file and content, the files of
	// a delivered lint block, and SkipDelivered leaves such files out:
	// Claude Code's PostToolBatch repeats the files its PostToolUse hooks
	// already reported, and reports only the others.
	NoteDelivered, SkipDelivered bool
	// Shown are the files (absolute paths) whose diagnostics the tool's
	// output already holds (OpenCode's own LSP): they are checked like
	// any change — what they broke elsewhere is found — but their own
	// sections are left out of the answer (diag.WithoutFiles).
	Shown []string
	// Calls holds, by file path, the IDs of the tool calls that changed
	// it (Claude Code's tool_use_id): a PostToolUse event's one call, or
	// each call of a PostToolBatch. With them, NoteDelivered records, and
	// SkipDelivered asks, that a block was delivered for these calls —
	// not only for the file's content, which an earlier call may have
	// written too (the same text again after other edits, reported long
	// before: skipping it would leave the batch's change unchecked). Nil
	// when the event names no calls.
	Calls map[string][]string
	// Raw is the event as read, for answers that echo it (generic
	// --inject).
	Raw []byte
}

// SpoolOp is what an event does with its session's spool.
type SpoolOp int

// Spool operations.
const (
	SpoolNone   SpoolOp = iota
	SpoolRecord         // record Changes for a later event; answer nothing
	SpoolTake           // check the recorded changes along with Changes
)

// Answer is what a hook run prints and the exit status it ends with.
type Answer struct {
	Stdout, Stderr []byte // printed as they are; either may be empty
	// Exit is 0, or 2 in the exit2 mode when there is a lint block: the
	// only non-zero status a hook ends with, by the user's choice.
	Exit int
}

// Mode is how an answer reaches the agent, chosen with `--mode`. It
// implements flag.Value.
type Mode string

// Lifecycle is a session event (Event.Lifecycle).
type Lifecycle string

// Session events: the agents' names for them are in each adapter.
const (
	LifecycleStart Lifecycle = "start" // Claude Code SessionStart, Copilot sessionStart, OpenCode session.created, …: prewarm, answer nothing
	LifecycleStop  Lifecycle = "stop"  // Claude Code Stop, Gemini CLI AfterAgent, Copilot agentStop, Cursor stop, …: the Stop gate
	LifecycleEnd   Lifecycle = "end"   // Claude Code SessionEnd, OpenCode session.deleted, …: forget the session
)

// StopEncoder is implemented by the adapters of agents whose end-of-turn
// event can be blocked: it renders the Stop gate's answer (res.Decision
// wire.StopBlock: keep the turn going with res.Lint as the reason;
// wire.StopWarn: report it without blocking; wire.StopAllow: nothing).
type StopEncoder interface {
	EncodeStop(ev Event, res wire.SessionStopResult) (Answer, error)
}

// Modes. Every adapter answers in ModeContext, its agent's channel for
// context the model reads (or, for Windsurf, the user); see each adapter's
// doc for the others it takes.
const (
	ModeContext Mode = "additionalContext" // the default: context added next to the tool result
	ModeBlock   Mode = "block"             // decision "block" with the lint block as reason
	ModeExit2   Mode = "exit2"             // the lint block on stderr, exit status 2
)

var modes = []Mode{ModeContext, ModeBlock, ModeExit2}

// String returns the mode's flag spelling.
func (m *Mode) String() string {
	if m == nil || *m == "" {
		return string(ModeContext)
	}
	return string(*m)
}

// Set parses a flag value: additionalContext (or context), block or exit2.
func (m *Mode) Set(s string) error {
	if s == "context" {
		s = string(ModeContext)
	}
	if !slices.Contains(modes, Mode(s)) {
		return fmt.Errorf("unknown mode %q (want additionalContext, block or exit2)", s)
	}
	*m = Mode(s)
	return nil
}

// Settings are the `lsp-hook hook` flags an adapter takes.
type Settings struct {
	// Mode is the answer's mode; "" means ModeContext.
	Mode Mode
	// PathField and ContentField are gjson paths (github.com/tidwall/gjson
	// syntax) to the changed file's path and, optionally, its new text in
	// a generic event. Inject echoes the event with a "lint" field instead
	// of printing the Result.
	PathField, ContentField string
	Inject                  bool // echo the event with "lint" merged (generic)
}

// Agents lists the agent names New knows, in the order `lsp-hook hook`
// shows them.
var Agents = []string{"claude", "cursor", "gemini", "codex", "copilot", "windsurf", "opencode", "generic"}

// New returns the adapter for an agent name configured by s, or an error
// naming the known agents, or the setting the agent does not take.
func New(name string, s Settings) (Adapter, error) {
	if s.Mode == "" {
		s.Mode = ModeContext
	}
	var a Adapter
	allowed := []Mode{ModeContext}
	switch name {
	case "claude", "claude-code":
		a, allowed = Claude{Mode: s.Mode}, modes
	case "codex":
		a, allowed = Codex{Mode: s.Mode}, modes
	case "cursor":
		a = Cursor{}
	case "gemini":
		a = Gemini{}
	case "copilot":
		a = Copilot{}
	case "opencode":
		a = OpenCode{}
	case "windsurf":
		a = Windsurf{}
	case "generic":
		if s.PathField == "" {
			return nil, errors.New("hook generic needs --path-field (a gjson path to the changed file's path)")
		}
		a = Generic{PathField: s.PathField, ContentField: s.ContentField, Inject: s.Inject}
	default:
		return nil, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(Agents, ", "))
	}
	if !slices.Contains(allowed, s.Mode) {
		return nil, fmt.Errorf("hook %s does not take --mode %s", name, s.Mode)
	}
	if name != "generic" && (s.PathField != "" || s.ContentField != "" || s.Inject) {
		return nil, fmt.Errorf("--path-field, --content-field and --inject are for hook generic, not %s", name)
	}
	return a, nil
}

// Lookup returns the adapter for an agent name with default settings.
func Lookup(name string) (Adapter, error) {
	return New(name, Settings{})
}

// MaxEventSize bounds the hook event read from stdin (64 MiB): a Write of a
// file over the daemon's 16 MiB limit still decodes, and is skipped with a
// note later.
const MaxEventSize = 64 << 20

// readEvent reads the whole event, refusing oversized or empty input.
func readEvent(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxEventSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if len(data) > MaxEventSize {
		return nil, fmt.Errorf("event larger than %d MiB", MaxEventSize>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty input: want one JSON object on stdin")
	}
	return data, nil
}

// decodeStrict decodes exactly one JSON value from r into v, refusing
// oversized input and trailing data.
func decodeStrict(r io.Reader, v any) error {
	data, err := readEvent(r)
	if err != nil {
		return err
	}
	return unmarshalOne(data, v)
}

// unmarshalOne decodes exactly one JSON value from data into v.
func unmarshalOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// jsonAnswer is an Answer printing v as one line of JSON, with <, > and &
// left readable (the lint block escapes its own).
func jsonAnswer(v any) (Answer, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return Answer{}, fmt.Errorf("encoding the hook answer: %w", err)
	}
	return Answer{Stdout: b.Bytes()}, nil
}

// exit2Answer is the exit2 mode's answer: the lint block on stderr, exit 2.
func exit2Answer(lint string) Answer {
	return Answer{Stderr: []byte(lint + "\n"), Exit: 2}
}

// mergeChanges merges changes of the same path (absolute paths compared
// as given): write mode wins over edit, and the content is kept only when
// one change names the file (otherwise the disk has the latest). The
// order is that of first appearance.
func mergeChanges(lists ...[]wire.Change) []wire.Change {
	var out []wire.Change
	index := make(map[string]int)
	for _, list := range lists {
		for _, c := range list {
			i, ok := index[c.Path]
			if !ok {
				index[c.Path] = len(out)
				out = append(out, c)
				continue
			}
			if c.Mode == wire.ModeWrite {
				out[i].Mode = wire.ModeWrite
			}
			out[i].Content = nil
		}
	}
	return out
}
