package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Rename and code actions: the server proposes a WorkspaceEdit, which is
// previewed as a unified diff unless the call says write: true
// (apply.go).

// Tool names.
const (
	ToolRename      = "lsp_rename"
	ToolCodeActions = "lsp_code_actions"
)

// maxActions caps the code actions listed.
const maxActions = 50

// RenameInput names a symbol to rename (path, line, symbol or column, and
// new_name), or a file to move (path and new_path), and whether to write.
type RenameInput struct {
	Path    string `json:"path" jsonschema:"the file: absolute, or relative to the workspace root"`
	Line    int    `json:"line,omitempty" jsonschema:"1-based line of the symbol to rename (not with new_path)"`
	Symbol  string `json:"symbol,omitempty" jsonschema:"the symbol on that line (name#2 for its second occurrence)"`
	Column  int    `json:"column,omitempty" jsonschema:"1-based column in characters, instead of symbol"`
	NewName string `json:"new_name,omitempty" jsonschema:"the symbol's new name"`
	NewPath string `json:"new_path,omitempty" jsonschema:"instead of new_name: move the file here (absolute or relative to the workspace root) and let the server update what refers to it (workspace/willRenameFiles)"`
	Write   bool   `json:"write,omitempty" jsonschema:"write the files (default false: only show the unified diff)"`
}

// CodeActionsInput names a position (or a whole line, for the quick fixes
// of its diagnostics) and, to apply one, the action.
type CodeActionsInput struct {
	Path   string `json:"path" jsonschema:"the file: absolute, or relative to the workspace root"`
	Line   int    `json:"line" jsonschema:"1-based line; without symbol or column the whole line, so the quick fixes of its diagnostics are offered"`
	Symbol string `json:"symbol,omitempty" jsonschema:"text on that line the actions are for (name#2 for its second occurrence)"`
	Column int    `json:"column,omitempty" jsonschema:"1-based column in characters, instead of symbol"`
	Only   string `json:"only,omitempty" jsonschema:"list only actions of this kind or its sub-kinds: quickfix, refactor, refactor.extract, source, source.organizeImports, …"`
	Apply  string `json:"apply,omitempty" jsonschema:"the action to apply: its 1-based number in the list, or its title; empty: list the actions"`
	Write  bool   `json:"write,omitempty" jsonschema:"with apply: write the files (default false: only show the unified diff)"`
}

// unsupported reports whether err is the daemon's "no server supports
// this" (wire.CodeUnsupported).
func unsupported(err error) bool {
	var je *jsonrpc2.Error
	return errors.As(err, &je) && je.Code == wire.CodeUnsupported
}

// rawRequest is request keeping the daemon's JSON-RPC error (request
// turns it into its message), for callers that branch on its code.
func (t *tools) rawRequest(ctx context.Context, path, method string, params any) (wire.RequestResult, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return wire.RequestResult{}, err
	}
	var res wire.RequestResult
	err = t.daemon.call(ctx, wire.MethodRequest, wire.RequestParams{Path: path, Method: method, Params: raw}, &res)
	return res, err
}

// jsonrpcMessage is err's JSON-RPC message when it has one.
func jsonrpcMessage(err error) error {
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return errors.New(je.Message)
	}
	return err
}

func (t *tools) rename(ctx context.Context, _ *sdk.CallToolRequest, in RenameInput) (*sdk.CallToolResult, any, error) {
	switch {
	case in.NewPath != "" && in.NewName != "":
		return nil, nil, errors.New("give new_name (rename a symbol) or new_path (move the file), not both")
	case in.NewPath != "":
		return t.renameFile(ctx, in)
	case in.NewName == "":
		return nil, nil, errors.New("give new_name (with line and symbol or column), or new_path")
	}
	pin := PositionInput{Path: in.Path, Line: in.Line, Symbol: in.Symbol, Column: in.Column}
	prep, pos, err := t.atPosition(ctx, pin, "textDocument/prepareRename", nil)
	if err != nil && !strings.Contains(err.Error(), "does not support textDocument/prepareRename") {
		return nil, nil, fmt.Errorf("%s cannot be renamed: %w", t.subject(pin, pos), err)
	}
	if err == nil && strings.TrimSpace(string(prep.Result)) == "null" {
		return nil, nil, fmt.Errorf("%s cannot be renamed (%s found nothing to rename there)", t.subject(pin, pos), prep.Server)
	}
	res, pos, err := t.atPosition(ctx, pin, "textDocument/rename", map[string]any{"newName": in.NewName})
	if err != nil {
		return nil, nil, err
	}
	changes, err := lsp.DecodeWorkspaceEdit(res.Result)
	if err != nil {
		return nil, nil, err
	}
	if len(changes) == 0 {
		return text(fmt.Sprintf("%s found nothing to rename at %s.", res.Server, t.subject(pin, pos))), nil, nil
	}
	o := newOverlay(t.root, res.Encoding)
	if err := o.apply(changes); err != nil {
		return nil, nil, err
	}
	what := fmt.Sprintf("renaming %s to %s (%s)", t.subject(pin, pos), in.NewName, res.Server)
	s, err := t.finish(ctx, o, what, in.Write)
	if err != nil {
		return nil, nil, err
	}
	return text(s), nil, nil
}

// renameFile moves a file, with the edits the server makes to what refers
// to it (workspace/willRenameFiles, LSP 3.17 "WillRenameFiles Request"),
// previewed unless in.Write.
func (t *tools) renameFile(ctx context.Context, in RenameInput) (*sdk.CallToolResult, any, error) {
	if in.Line != 0 || in.Symbol != "" || in.Column != 0 {
		return nil, nil, errors.New("new_path moves the whole file: give no line, symbol or column")
	}
	from, err := t.resolve(in.Path)
	if err != nil {
		return nil, nil, err
	}
	np := t.respell(in.NewPath)
	if !filepath.IsAbs(np) {
		np = filepath.Join(t.root, np)
	}
	dir, err := resolvePath(t.root, filepath.Dir(np))
	if err != nil {
		return nil, nil, fmt.Errorf("new_path %s: %w", in.NewPath, err)
	}
	to := filepath.Join(dir, filepath.Base(np))
	if _, err := os.Lstat(to); err == nil {
		return nil, nil, fmt.Errorf("new_path %s exists", in.NewPath)
	}
	params := map[string]any{"files": []map[string]string{{"oldUri": fileURI(from), "newUri": fileURI(to)}}}
	res, err := t.rawRequest(ctx, from, "workspace/willRenameFiles", params)
	if err != nil {
		if unsupported(err) {
			return nil, nil, fmt.Errorf("%v: lsp-hook cannot tell which references to update; move the file yourself and fix what breaks", jsonrpcMessage(err))
		}
		return nil, nil, jsonrpcMessage(err)
	}
	changes, err := lsp.DecodeWorkspaceEdit(res.Result)
	if err != nil {
		return nil, nil, err
	}
	changes = append(changes, lsp.FileChange{Kind: lsp.ChangeRename, URI: fileURI(from), NewURI: fileURI(to)})
	o := newOverlay(t.root, res.Encoding)
	if err := o.apply(changes); err != nil {
		return nil, nil, err
	}
	what := fmt.Sprintf("moving %s to %s (%s)", o.rel(from), o.rel(to), res.Server)
	s, err := t.finish(ctx, o, what, in.Write)
	if err != nil {
		return nil, nil, err
	}
	return text(s), nil, nil
}

// action is LSP 3.17 "CodeAction", or a bare "Command" (Command set,
// Title its title), with Raw the item as the server sent it.
type action struct {
	Title       string                   `json:"title"`
	Kind        string                   `json:"kind"`
	IsPreferred bool                     `json:"isPreferred"`
	Disabled    *struct{ Reason string } `json:"disabled"`
	Edit        json.RawMessage          `json:"edit"`
	Data        json.RawMessage          `json:"data"`
	Cmd         *command                 `json:"-"`
	Raw         json.RawMessage          `json:"-"`
}

// command is LSP 3.17 "Command".
type command struct {
	Title     string            `json:"title"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

// decodeActions decodes (Command | CodeAction)[] | null: an item whose
// "command" is a string is a Command; any item without a title is an
// error.
func decodeActions(raw json.RawMessage) ([]action, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return nil, nil
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("decoding code actions %.200s: %w", raw, err)
	}
	out := make([]action, 0, len(items))
	for _, it := range items {
		b, _ := json.Marshal(it)
		var a action
		if c := it["command"]; len(c) > 0 && c[0] == '"' {
			var cmd command
			if err := json.Unmarshal(b, &cmd); err != nil {
				return nil, fmt.Errorf("decoding Command %.200s: %w", b, err)
			}
			a = action{Title: cmd.Title, Cmd: &cmd}
		} else {
			if err := json.Unmarshal(b, &a); err != nil {
				return nil, fmt.Errorf("decoding CodeAction %.200s: %w", b, err)
			}
			if c := it["command"]; len(c) > 0 && string(c) != "null" {
				a.Cmd = &command{}
				if err := json.Unmarshal(c, a.Cmd); err != nil || a.Cmd.Command == "" {
					return nil, fmt.Errorf("decoding the command of CodeAction %.200s: not a Command", b)
				}
			}
		}
		if a.Title == "" {
			return nil, fmt.Errorf("code action %.200s has no title", b)
		}
		a.Raw = b
		out = append(out, a)
	}
	return out, nil
}

// line renders one listed action: "n. [kind] title (preferred)".
func (a action) line(n int) string {
	s := fmt.Sprintf("%d. ", n)
	if a.Kind != "" {
		s += "[" + a.Kind + "] "
	}
	s += a.Title
	if a.IsPreferred {
		s += " (preferred)"
	}
	if a.Disabled != nil {
		s += " (disabled: " + a.Disabled.Reason + ")"
	}
	if a.Cmd != nil && a.Edit == nil && a.Data == nil {
		s += " (runs " + a.Cmd.Command + ")"
	}
	return s
}

// actionRange is the range code actions are asked for: the symbol's
// extent, the column, or the whole line, in the server's encoding enc.
func actionRange(pos position, in CodeActionsInput, enc string) lsp.Range {
	line := []byte(pos.lines[pos.line-1])
	l := uint32(pos.line - 1)
	switch {
	case in.Symbol != "":
		name, _ := parseSymbol(in.Symbol)
		end := pos.col + utf8.RuneCountInString(name)
		return lsp.Range{Start: lsp.Position{Line: l, Character: lsp.Character(line, pos.col, enc)},
			End: lsp.Position{Line: l, Character: lsp.Character(line, end, enc)}}
	case in.Column != 0:
		p := lsp.Position{Line: l, Character: lsp.Character(line, pos.col, enc)}
		return lsp.Range{Start: p, End: p}
	}
	return lsp.Range{Start: lsp.Position{Line: l}, End: lsp.Position{Line: l, Character: lsp.Character(line, utf8.RuneCount(line)+1, enc)}}
}

func (t *tools) codeActions(ctx context.Context, _ *sdk.CallToolRequest, in CodeActionsInput) (*sdk.CallToolResult, any, error) {
	col := in.Column
	if in.Symbol == "" && in.Column == 0 {
		col = 1 // the whole line: locate needs a column
	}
	pos, err := t.locate(in.Path, in.Line, in.Symbol, col)
	if err != nil {
		return nil, nil, err
	}
	if in.Write && in.Apply == "" {
		return nil, nil, errors.New("write needs apply: the number or title of the action to apply")
	}
	// A fresh check first, so that the server's diagnostics of the file,
	// which the daemon sends in the request's context, are current.
	var checked wire.Result
	if err := t.daemon.call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: pos.path, Mode: wire.ModeEdit}}, Source: "mcp"}, &checked); err != nil {
		return nil, nil, err
	}
	acts, res, err := t.listActions(ctx, pos, in)
	if err != nil {
		return nil, nil, err
	}
	subject := t.subject(PositionInput{Path: in.Path, Line: in.Line, Symbol: in.Symbol, Column: in.Column}, pos)
	if in.Symbol == "" && in.Column == 0 {
		subject = fmt.Sprintf("line %d of %s", pos.line, newRenderer(t.root, "").rel(pos.path))
	}
	if len(acts) == 0 {
		return text(fmt.Sprintf("No code actions for %s (%s).", subject, res.Server)), nil, nil
	}
	if in.Apply == "" {
		lines := []string{fmt.Sprintf("%d code action(s) for %s (%s); apply one with apply: its number or title:", len(acts), subject, res.Server)}
		for i, a := range acts {
			if i == maxActions {
				lines = append(lines, fmt.Sprintf("... and %d more (%d in all)", len(acts)-maxActions, len(acts)))
				break
			}
			lines = append(lines, a.line(i+1))
		}
		return text(strings.Join(lines, "\n")), nil, nil
	}
	a, err := pick(acts, in.Apply)
	if err != nil {
		return nil, nil, err
	}
	s, err := t.applyAction(ctx, pos.path, res, a, in.Write)
	if err != nil {
		return nil, nil, err
	}
	return text(s), nil, nil
}

// listActions asks for the code actions at pos (textDocument/codeAction;
// the daemon adds the diagnostics of the range to its context).
func (t *tools) listActions(ctx context.Context, pos position, in CodeActionsInput) ([]action, wire.RequestResult, error) {
	send := func(enc string) (wire.RequestResult, error) {
		actx := map[string]any{"triggerKind": 1}
		if in.Only != "" {
			actx["only"] = []string{in.Only}
		}
		return t.request(ctx, pos.path, "textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": fileURI(pos.path)},
			"range":        actionRange(pos, in, enc),
			"context":      actx,
		})
	}
	res, err := send(t.encoding(pos.path))
	if err == nil && res.Encoding != t.encoding(pos.path) {
		res, err = send(res.Encoding)
	}
	if err != nil {
		return nil, res, err
	}
	acts, err := decodeActions(res.Result)
	return acts, res, err
}

// encoding is the position encoding last seen for path's server (UTF-16,
// the LSP default, before the first answer).
func (t *tools) encoding(path string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if enc, ok := t.encodings[filepath.Ext(path)]; ok {
		return enc
	}
	return lsp.EncodingUTF16
}

// pick finds the action apply names: a 1-based number, else an exact
// title, else the one title containing it.
func pick(acts []action, apply string) (action, error) {
	if n, err := strconv.Atoi(apply); err == nil {
		if n < 1 || n > len(acts) {
			return action{}, fmt.Errorf("apply %d: there are %d code action(s) here", n, len(acts))
		}
		return acts[n-1], nil
	}
	var found []action
	for _, a := range acts {
		if a.Title == apply {
			return a, nil
		}
		if strings.Contains(strings.ToLower(a.Title), strings.ToLower(apply)) {
			found = append(found, a)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return action{}, fmt.Errorf("no code action here is titled %q", apply)
	}
	return action{}, fmt.Errorf("%d code actions here match %q: give its number", len(found), apply)
}

// applyAction previews or writes an action: its edit (resolved with
// codeAction/resolve when the server left it out), then its command, run
// only on write (its edits exist only once it runs).
func (t *tools) applyAction(ctx context.Context, path string, res wire.RequestResult, a action, write bool) (string, error) {
	if a.Disabled != nil {
		return "", fmt.Errorf("code action %q is disabled: %s", a.Title, a.Disabled.Reason)
	}
	if a.Edit == nil && a.Data != nil {
		rr, err := t.rawRequest(ctx, path, "codeAction/resolve", json.RawMessage(a.Raw))
		switch {
		case err == nil:
			r, err := decodeActions(json.RawMessage("[" + string(rr.Result) + "]"))
			if err != nil {
				return "", err
			}
			a.Edit, a.Cmd = r[0].Edit, r[0].Cmd
		case !unsupported(err):
			return "", fmt.Errorf("resolving code action %q: %w", a.Title, jsonrpcMessage(err))
		}
	}
	what := fmt.Sprintf("code action %q (%s)", a.Title, res.Server)
	o := newOverlay(t.root, res.Encoding)
	if a.Edit != nil {
		changes, err := lsp.DecodeWorkspaceEdit(a.Edit)
		if err != nil {
			return "", err
		}
		if err := o.apply(changes); err != nil {
			return "", err
		}
	}
	if a.Cmd == nil {
		return t.finish(ctx, o, what, write)
	}
	if !write {
		s, err := t.finish(ctx, o, what, false)
		return s + fmt.Sprintf("\nThe action then runs the server command %s, whose edits are known only when it runs (write: true).", a.Cmd.Command), err
	}
	s, err := t.finish(ctx, o, what, true)
	if err != nil {
		return "", err
	}
	var cr wire.ExecuteCommandResult
	err = t.daemon.call(ctx, wire.MethodExecuteCommand, wire.ExecuteCommandParams{Path: path, Command: a.Cmd.Command, Arguments: a.Cmd.Arguments}, &cr)
	if err != nil {
		return "", fmt.Errorf("running the command of code action %q: %w", a.Title, jsonrpcMessage(err))
	}
	o2 := newOverlay(t.root, cr.Encoding)
	for _, e := range cr.Edits {
		changes, err := lsp.DecodeWorkspaceEdit(e)
		if err != nil {
			return "", err
		}
		if err := o2.apply(changes); err != nil {
			return "", err
		}
	}
	if len(o2.changed()) == 0 {
		return s + fmt.Sprintf("\nRan the server command %s; it asked for no further edit.", a.Cmd.Command), nil
	}
	s2, err := t.finish(ctx, o2, fmt.Sprintf("the edits of command %s", a.Cmd.Command), true)
	if err != nil {
		return "", err
	}
	return s + "\n" + s2, nil
}
