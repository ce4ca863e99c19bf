package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// This file runs a server command (workspace/executeCommand) on behalf of
// `lsp-hook mcp` applying a code action that carries one, and captures the
// edits the server asks for while it runs (workspace/applyEdit) instead of
// refusing them: they come back to the caller, which shows or writes them
// itself (edits.go). At any other time workspace/applyEdit is refused
// (handler.go, refuse).

// capabilityValue returns the capability named by name in caps: a
// top-level ServerCapabilities field ("renameProvider"), or an option
// inside one, dotted ("codeActionProvider.resolveProvider",
// "workspace.fileOperations.willRename"). A missing field, or a parent
// that is not an object (a bare true has no options), is not there.
func capabilityValue(caps map[string]json.RawMessage, name string) (json.RawMessage, bool) {
	parts := strings.Split(name, ".")
	v, ok := caps[parts[0]]
	for _, p := range parts[1:] {
		if !ok {
			return nil, false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil {
			return nil, false
		}
		v, ok = m[p]
	}
	return v, ok
}

// editCapture collects the workspace/applyEdit requests of one client
// while a command runs.
type editCapture struct {
	mu    sync.Mutex // guards edits
	edits []json.RawMessage
}

// captures holds the capture of each client running a command; commandSlot
// lets one command run at a time in the daemon (commands are rare, and a
// server's applyEdit then cannot be taken for another command's).
var (
	capturesMu  sync.Mutex // guards captures
	captures    = make(map[*Client]*editCapture)
	commandSlot = make(chan struct{}, 1)
)

// captureApplyEdit answers a workspace/applyEdit that arrives while c runs
// a command for ExecuteCommand: the edit is kept and the answer is
// {applied: true} (LSP 3.17 "ApplyWorkspaceEditResult"), as the caller
// writes it once the command has returned. It reports false when no
// command of c is running (the request is then refused).
func (c *Client) captureApplyEdit(method string, params json.RawMessage) (any, bool) {
	if method != "workspace/applyEdit" {
		return nil, false
	}
	capturesMu.Lock()
	cp := captures[c]
	capturesMu.Unlock()
	if cp == nil {
		return nil, false
	}
	var p struct {
		Edit json.RawMessage `json:"edit"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.Edit) == 0 {
		return map[string]any{"applied": false, "failureReason": "lsp-hook could not decode the edit"}, true
	}
	cp.mu.Lock()
	cp.edits = append(cp.edits, p.Edit)
	cp.mu.Unlock()
	return map[string]any{"applied": true}, true
}

// CommandResponse is ExecuteCommand's answer: the server's Response (its
// raw result) and the WorkspaceEdits it sent through workspace/applyEdit
// while the command ran, raw and in order (DecodeWorkspaceEdit), none
// applied.
type CommandResponse struct {
	Response
	Edits []json.RawMessage
}

// ExecuteCommand sends workspace/executeCommand {command, arguments} to
// the first server for path (absolute) that supports executeCommand, and
// returns its result with the edits it asked to apply while the command
// ran. A server that does not list command in its
// executeCommandProvider.commands is not asked: the error names the
// command and the server. Errors otherwise as Request's.
func (m *Manager) ExecuteCommand(ctx context.Context, path, command string, args []json.RawMessage) (CommandResponse, error) {
	select {
	case commandSlot <- struct{}{}:
	case <-ctx.Done():
		return CommandResponse{}, ctx.Err()
	}
	defer func() { <-commandSlot }()
	var cp *editCapture
	resp, err := m.requestVia(ctx, path, "workspace/executeCommand", func(ctx context.Context, c *Client) (json.RawMessage, error) {
		if !c.lists(command) {
			return nil, fmt.Errorf("%s does not list command %q in its executeCommandProvider", c.server.Name, command)
		}
		cp = &editCapture{}
		capturesMu.Lock()
		captures[c] = cp
		capturesMu.Unlock()
		defer func() {
			capturesMu.Lock()
			delete(captures, c)
			capturesMu.Unlock()
		}()
		if args == nil {
			args = []json.RawMessage{}
		}
		var raw json.RawMessage
		err := c.call(ctx, "workspace/executeCommand", map[string]any{"command": command, "arguments": args}, &raw)
		return raw, err
	})
	out := CommandResponse{Response: resp}
	if cp != nil {
		cp.mu.Lock()
		out.Edits = slices.Clone(cp.edits)
		cp.mu.Unlock()
	}
	return out, err
}

// lists reports whether the server's executeCommandProvider names command.
func (c *Client) lists(command string) bool {
	v, ok := c.caps["executeCommandProvider"]
	if !ok {
		return false
	}
	var p struct {
		Commands []string `json:"commands"`
	}
	if json.Unmarshal(bytes.TrimSpace(v), &p) != nil {
		return false
	}
	return slices.Contains(p.Commands, command)
}

// withContextDiagnostics returns textDocument/codeAction params (raw JSON
// or any value that marshals to it) with context.diagnostics filled, when
// it is absent or null, with the diagnostics the server last gave for the
// document (pushed and pulled, data included) whose range overlaps the
// request's (LSP 3.17 "CodeActionContext": servers offer quick fixes for
// the diagnostics they are sent). Params it cannot read are returned as
// they are, for the server to judge.
func (c *Client) withContextDiagnostics(params any) any {
	raw, err := json.Marshal(params)
	if err != nil {
		return params
	}
	var p struct {
		TextDocument TextDocumentIdentifier     `json:"textDocument"`
		Range        Range                      `json:"range"`
		Context      map[string]json.RawMessage `json:"context"`
	}
	if json.Unmarshal(raw, &p) != nil || p.TextDocument.URI == "" {
		return params
	}
	if d, ok := p.Context["diagnostics"]; ok && string(bytes.TrimSpace(d)) != "null" {
		return params
	}
	mark, _ := c.store.mark()
	lists, _, _ := c.store.asOf(canonicalURI(p.TextDocument.URI), mark)
	overlapping := []Diagnostic{}
	for _, l := range lists {
		for _, d := range l {
			if !before(p.Range.End, d.Range.Start) && !before(d.Range.End, p.Range.Start) {
				overlapping = append(overlapping, d)
			}
		}
	}
	var all map[string]json.RawMessage
	if json.Unmarshal(raw, &all) != nil {
		return params
	}
	if p.Context == nil {
		p.Context = make(map[string]json.RawMessage)
	}
	p.Context["diagnostics"], _ = json.Marshal(overlapping)
	all["context"], _ = json.Marshal(p.Context)
	return all
}

// before reports whether position a comes before b.
func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}
