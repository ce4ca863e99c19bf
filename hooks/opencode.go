package hooks

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/lazyre"
	"github.com/lsp-hook/lsp-hook/wire"
)

// OpenCode is the adapter for OpenCode, which has no shell hooks: the
// plugin `lsp-hook install opencode` writes (install/opencode.go) handles
// OpenCode's tool.execute.after plugin hook
// (https://opencode.ai/docs/plugins; @opencode-ai/plugin's Hooks: input
// {tool, sessionID, callID, args}, output {title, output, metadata}) for
// its file and shell tools, runs `lsp-hook hook opencode` with this event
// on stdin, and appends what it prints to output.output, which the model
// reads as the tool's result in the same turn:
//
//	{"hook_event_name": "tool.execute.after", "session_id": "ses_…",
//	 "call_id": "call_…", "tool": "edit", "args": {…}, "cwd": "/abs/dir",
//	 "output": "<the tool's output so far>"}
//
// The tools and their arguments are OpenCode's (packages/opencode/src/tool
// in sst/opencode): write {filePath, content} is a write; edit {filePath,
// oldString, newString, replaceAll} and multiedit {filePath, edits} are
// edits; patch and apply_patch {patchText} carry an apply_patch body
// (ParsePatch; relative paths against cwd); bash is a shell event
// (Event.Shell). Other tools yield no change.
//
// OpenCode's own LSP integration, when the project turns it on, appends
// its diagnostics to the same output as "<diagnostics file=\"PATH\">"
// sections (the format lsp-hook's block copies): its edit tool the edited
// file's alone, its write tool up to five other files' too, of those its
// servers have open (OpenCode 1.x, packages/opencode/src/tool/edit.ts and
// write.ts). A file the output already reports is still checked, so the
// files the change broke are found, but its own section is left out of
// the answer (Event.Shown), so the model never reads two blocks for one
// file; `install opencode` says so when the project's config turns that
// LSP on.
//
// The answer is the lint block as plain text on stdout (nothing when
// clean), which the plugin appends after a blank line.
//
// The plugin also forwards two of OpenCode's bus events (the plugin's
// event hook; Session.Event in packages/opencode/src/session/index.ts):
// session.created ({info: Session}, sent as {"hook_event_name":
// "session.created", "session_id": info.id, "cwd"}) prewarms, without the
// plugin waiting for it, and session.deleted lets the daemon forget the
// session. There is no Stop gate: OpenCode's end of a turn, session.idle
// ({sessionID}), is published after the turn has ended, and no plugin hook
// can hold it or answer it; keeping the agent going would mean the plugin
// sending a new user prompt (client.session.prompt), a turn the user did
// not ask for, which lsp-hook does not do.
type OpenCode struct{}

var _ Adapter = OpenCode{}

// OpenCodeEvent is the event the lsp-hook plugin for OpenCode writes to
// the hook's stdin: tool.execute.after's input and output, flattened.
type OpenCodeEvent struct {
	HookEventName string          `json:"hook_event_name"` // "tool.execute.after"
	SessionID     string          `json:"session_id"`      // input.sessionID
	CallID        string          `json:"call_id"`         // input.callID
	Tool          string          `json:"tool"`            // input.tool: "edit", "write", "apply_patch", …
	Args          json.RawMessage `json:"args"`            // input.args, the model's arguments
	Cwd           string          `json:"cwd"`             // the plugin context's directory
	Output        string          `json:"output"`          // output.output, the tool's result text
}

// openCodeArgs are the argument fields of OpenCode's file tools.
type openCodeArgs struct {
	FilePath  string `json:"filePath"`  // write, edit, multiedit
	PatchText string `json:"patchText"` // patch, apply_patch
}

// Name returns "opencode".
func (OpenCode) Name() string { return "opencode" }

// Decode reads a tool.execute.after event. A malformed event, a file tool
// without filePath, or a patch tool without a valid patch is an error.
func (OpenCode) Decode(r io.Reader) (Event, error) {
	var ev OpenCodeEvent
	if err := decodeStrict(r, &ev); err != nil {
		return Event{}, fmt.Errorf("decoding OpenCode hook event: %w", err)
	}
	out := Event{Cwd: ev.Cwd, Session: ev.SessionID, Tool: ev.Tool, Hook: ev.HookEventName, Agent: "opencode", NoteDelivered: true}
	switch ev.HookEventName {
	case "session.created":
		out.Lifecycle, out.NoteDelivered = LifecycleStart, false
		return out, nil
	case "session.deleted":
		out.Lifecycle, out.NoteDelivered = LifecycleEnd, false
		return out, nil
	case "", "tool.execute.after":
	default:
		return out, nil
	}
	var args openCodeArgs
	switch ev.Tool {
	case "write", "edit", "multiedit", "patch", "apply_patch":
		if err := decodeArgs(ev.Args, &args); err != nil {
			return out, fmt.Errorf("OpenCode %s event: %w", ev.Tool, err)
		}
	case "bash":
		out.Shell = true // the files it changed come from the daemon's watcher
		return out, nil
	default:
		return out, nil
	}
	switch ev.Tool {
	case "patch", "apply_patch":
		ops, err := ParsePatch(args.PatchText)
		if err != nil {
			return out, fmt.Errorf("OpenCode %s event: %w", ev.Tool, err)
		}
		out.Changes = PatchChanges(ops, ev.Cwd)
	default:
		if args.FilePath == "" {
			return out, fmt.Errorf("OpenCode %s event: args.filePath is missing", ev.Tool)
		}
		mode := wire.ModeEdit
		if ev.Tool == "write" {
			mode = wire.ModeWrite
		}
		out.Changes = []wire.Change{{Path: absUnder(ev.Cwd, args.FilePath), Mode: mode}}
	}
	out.Shown = reportedFiles(ev.Output, ev.Cwd)
	return out, nil
}

// openCodeDiagnostics matches a file section of OpenCode's own LSP
// diagnostics in a tool's output (packages/opencode/src/tool/edit.ts,
// write.ts: `<diagnostics file="${filePath}">`).
var openCodeDiagnostics = lazyre.New(`<diagnostics file="([^"]+)">`)

// reportedFiles returns the files (absolute, cleaned) whose diagnostics
// the tool's output already holds (OpenCode's own LSP), paths resolved
// against cwd.
func reportedFiles(output, cwd string) []string {
	var reported []string
	for _, m := range openCodeDiagnostics().FindAllStringSubmatch(output, -1) {
		reported = append(reported, filepath.Clean(absUnder(cwd, m[1])))
	}
	return reported
}

// shownAs returns how the lint block names the files of shown (absolute
// paths): the display path of each in files (Rel, else Path).
func shownAs(files []diag.FileDiagnostics, shown []string) []string {
	var out []string
	for _, f := range files {
		if slices.Contains(shown, filepath.Clean(f.Path)) {
			out = append(out, cmp.Or(f.Rel, f.Path))
		}
	}
	return out
}

// Encode prints the lint block as text for the plugin to append, without
// the sections of the files the tool's output already reports
// (Event.Shown); nothing when nothing is left.
func (OpenCode) Encode(ev Event, res wire.Result) (Answer, error) {
	res.Lint = diag.WithoutFiles(res.Lint, shownAs(res.Files, ev.Shown))
	if res.Lint == "" {
		return Answer{}, nil
	}
	return Answer{Stdout: []byte(res.Lint + "\n")}, nil
}
