package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Tool names.
const (
	ToolDefinition       = "lsp_goto_definition"
	ToolReferences       = "lsp_find_references"
	ToolHover            = "lsp_hover"
	ToolDocumentSymbols  = "lsp_document_symbols"
	ToolWorkspaceSymbols = "lsp_workspace_symbols"
	ToolDiagnostics      = "lsp_diagnostics"
)

// maxGlobFiles caps the files one lsp_diagnostics glob checks.
const maxGlobFiles = 200

// PositionInput names a position in a file: the line, and the symbol on it
// (or the column).
type PositionInput struct {
	Path   string `json:"path" jsonschema:"the file: absolute, or relative to the workspace root"`
	Line   int    `json:"line" jsonschema:"1-based line number"`
	Symbol string `json:"symbol,omitempty" jsonschema:"text on that line where the position starts, usually the identifier (e.g. Greet); name#2 means its second occurrence on the line"`
	Column int    `json:"column,omitempty" jsonschema:"1-based column in characters, instead of symbol"`
}

// ReferencesInput is PositionInput plus whether the declaration counts.
type ReferencesInput struct {
	Path               string `json:"path" jsonschema:"the file: absolute, or relative to the workspace root"`
	Line               int    `json:"line" jsonschema:"1-based line number"`
	Symbol             string `json:"symbol,omitempty" jsonschema:"text on that line where the position starts, usually the identifier; name#2 means its second occurrence on the line"`
	Column             int    `json:"column,omitempty" jsonschema:"1-based column in characters, instead of symbol"`
	IncludeDeclaration bool   `json:"include_declaration,omitempty" jsonschema:"list the declaration too (default false)"`
}

// FileInput names one file.
type FileInput struct {
	Path string `json:"path" jsonschema:"the file: absolute, or relative to the workspace root"`
}

// WorkspaceSymbolsInput is a symbol query and a file that picks the
// language server to ask.
type WorkspaceSymbolsInput struct {
	Query string `json:"query" jsonschema:"the symbol name or a part of it (servers match fuzzily)"`
	Path  string `json:"path" jsonschema:"any file of the language to search (it picks the language server), absolute or relative to the workspace root"`
}

// DiagnosticsInput names a file, a glob, or nothing (every known file).
type DiagnosticsInput struct {
	Path string `json:"path,omitempty" jsonschema:"a file or a glob relative to the workspace root (src/**/*.ts); empty: every file the daemon has diagnostics for"`
}

// tools serves the tool calls of one MCP server.
type tools struct {
	root   string
	alias  string // root as the agent spells it, through a symlink (Options.Alias)
	daemon *daemon

	mu        sync.Mutex        // guards encodings
	encodings map[string]string // file extension → position encoding its server negotiated
}

// register adds the tools to s: the navigation and refactoring tools when
// nav is set, and lsp_diagnostics always. Every tool but lsp_rename and
// lsp_code_actions (which write when asked) is read-only.
func (t *tools) register(s *sdk.Server, nav bool) {
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	if nav {
		sdk.AddTool(s, &sdk.Tool{Name: ToolDefinition, Annotations: ro,
			Description: "Where is this symbol defined? Give the file, the 1-based line and the symbol on it; " +
				"answers path:line:col with the source line of each definition."}, t.definition)
		sdk.AddTool(s, &sdk.Tool{Name: ToolReferences, Annotations: ro,
			Description: fmt.Sprintf("Where is this symbol used, in every file of the workspace? Give the file, the 1-based "+
				"line and the symbol on it; answers path:line:col with the source line, the first %d, then a count.", maxReferences)}, t.references)
		sdk.AddTool(s, &sdk.Tool{Name: ToolHover, Annotations: ro,
			Description: "Type, signature and documentation of the symbol at a position, as an editor's hover shows them."}, t.hover)
		sdk.AddTool(s, &sdk.Tool{Name: ToolDocumentSymbols, Annotations: ro,
			Description: "Outline of a file: its types, functions, methods and fields with their positions, nested."}, t.documentSymbols)
		sdk.AddTool(s, &sdk.Tool{Name: ToolWorkspaceSymbols, Annotations: ro,
			Description: "Find symbols by name across the workspace, in the language of the file given."}, t.workspaceSymbols)
	}
	if nav {
		t.registerRefactoring(s, ro)
	}
	sdk.AddTool(s, &sdk.Tool{Name: ToolDiagnostics, Annotations: ro,
		Description: "Current errors of a file, of the files a glob matches, or of every file with diagnostics, " +
			"from the language servers, validators and linters, as a lint block."}, t.diagnostics)
}

// text is a tool answer of one text block.
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// request sends an LSP request for path through the daemon. A daemon error
// comes back as its message (naming the server and, when unsupported, the
// capability).
func (t *tools) request(ctx context.Context, path, method string, params any) (wire.RequestResult, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return wire.RequestResult{}, err
	}
	var res wire.RequestResult
	err = t.daemon.call(ctx, wire.MethodRequest, wire.RequestParams{Path: path, Method: method, Params: raw}, &res)
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return res, errors.New(je.Message)
	}
	if err == nil {
		t.mu.Lock()
		t.encodings[filepath.Ext(path)] = res.Encoding
		t.mu.Unlock()
	}
	return res, err
}

// atPosition sends method for the position in (plus extra params). The
// character is counted in the encoding the file's server negotiated last
// time (UTF-16, the LSP default, before the first answer); when the answer
// shows another encoding that counts this line differently, the request
// is sent again with the right count.
func (t *tools) atPosition(ctx context.Context, in PositionInput, method string, extra map[string]any) (wire.RequestResult, position, error) {
	pos, err := t.locate(in.Path, in.Line, in.Symbol, in.Column)
	if err != nil {
		return wire.RequestResult{}, pos, err
	}
	t.mu.Lock()
	enc, ok := t.encodings[filepath.Ext(pos.path)]
	t.mu.Unlock()
	if !ok {
		enc = lsp.EncodingUTF16
	}
	line := []byte(pos.lines[pos.line-1])
	send := func(enc string) (wire.RequestResult, error) {
		params := map[string]any{
			"textDocument": map[string]any{"uri": fileURI(pos.path)},
			"position":     lsp.Position{Line: uint32(pos.line - 1), Character: lsp.Character(line, pos.col, enc)},
		}
		for k, v := range extra {
			params[k] = v
		}
		return t.request(ctx, pos.path, method, params)
	}
	res, err := send(enc)
	if err == nil && res.Encoding != enc && lsp.Character(line, pos.col, res.Encoding) != lsp.Character(line, pos.col, enc) {
		res, err = send(res.Encoding)
	}
	return res, pos, err
}

// subject names the position asked about, for answers.
func (t *tools) subject(in PositionInput, pos position) string {
	r := newRenderer(t.root, "")
	if in.Symbol != "" {
		name, _ := parseSymbol(in.Symbol)
		return fmt.Sprintf("%s at %s:%d:%d", name, r.rel(pos.path), pos.line, pos.col)
	}
	return fmt.Sprintf("%s:%d:%d", r.rel(pos.path), pos.line, pos.col)
}

// answer is a navigation tool's result: s, the rendering of res, or when
// s is empty the sentence none names followed by the server that answered
// ("No symbols in a.go (gopls)."); an error of the request or the
// rendering, err, is the tool's error.
func answer(res wire.RequestResult, s string, err error, none func() string) (*sdk.CallToolResult, any, error) {
	if err != nil {
		return nil, nil, err
	}
	if s == "" {
		return text(fmt.Sprintf("%s (%s).", none(), res.Server)), nil, nil
	}
	return text(s), nil, nil
}

// positionTool is a position tool's steps: it sends method for the
// position in (plus extra params; atPosition), renders the answer with
// render, and answers; nothing rendered is "<none> <subject> (server).".
func (t *tools) positionTool(ctx context.Context, in PositionInput, method string, extra map[string]any,
	render func(res wire.RequestResult, pos position) (string, error), none string) (*sdk.CallToolResult, any, error) {
	res, pos, err := t.atPosition(ctx, in, method, extra)
	if err != nil {
		return nil, nil, err
	}
	s, err := render(res, pos)
	return answer(res, s, err, func() string { return none + " " + t.subject(in, pos) })
}

// fileTool is a file tool's steps: it resolves path in the workspace,
// sends method with the params made for the file's URI, renders the
// answer's symbols (the file's when ofFile, else the workspace's)
// and answers; nothing rendered is "<none> (server).".
func (t *tools) fileTool(ctx context.Context, path, method string, params func(uri string) map[string]any, ofFile bool, none string) (*sdk.CallToolResult, any, error) {
	p, err := t.resolve(path)
	if err != nil {
		return nil, nil, err
	}
	u := fileURI(p)
	res, err := t.request(ctx, p, method, params(u))
	if err != nil {
		return nil, nil, err
	}
	if !ofFile {
		u = ""
	}
	s, err := newRenderer(t.root, res.Encoding).symbols(res.Result, u)
	return answer(res, s, err, func() string { return none })
}

func (t *tools) definition(ctx context.Context, _ *sdk.CallToolRequest, in PositionInput) (*sdk.CallToolResult, any, error) {
	return t.positionTool(ctx, in, "textDocument/definition", nil, func(res wire.RequestResult, _ position) (string, error) {
		locs, err := decodeLocations(res.Result)
		if err != nil || len(locs) == 0 {
			return "", err
		}
		return newRenderer(t.root, res.Encoding).locations(locs, maxReferences), nil
	}, "No definition found for")
}

func (t *tools) references(ctx context.Context, _ *sdk.CallToolRequest, in ReferencesInput) (*sdk.CallToolResult, any, error) {
	p := PositionInput{Path: in.Path, Line: in.Line, Symbol: in.Symbol, Column: in.Column}
	extra := map[string]any{"context": map[string]any{"includeDeclaration": in.IncludeDeclaration}}
	return t.positionTool(ctx, p, "textDocument/references", extra, func(res wire.RequestResult, pos position) (string, error) {
		locs, err := decodeLocations(res.Result)
		if err != nil || len(locs) == 0 {
			return "", err
		}
		sort.SliceStable(locs, func(i, j int) bool { // this file first, then by path and position
			a, b := locs[i], locs[j]
			if (a.URI == fileURI(pos.path)) != (b.URI == fileURI(pos.path)) {
				return a.URI == fileURI(pos.path)
			}
			if a.URI != b.URI {
				return a.URI < b.URI
			}
			if a.Range.Start.Line != b.Range.Start.Line {
				return a.Range.Start.Line < b.Range.Start.Line
			}
			return a.Range.Start.Character < b.Range.Start.Character
		})
		head := fmt.Sprintf("%d reference(s) to %s:\n", len(locs), t.subject(p, pos))
		return head + newRenderer(t.root, res.Encoding).locations(locs, maxReferences), nil
	}, "No references found for")
}

func (t *tools) hover(ctx context.Context, _ *sdk.CallToolRequest, in PositionInput) (*sdk.CallToolResult, any, error) {
	return t.positionTool(ctx, in, "textDocument/hover", nil, func(res wire.RequestResult, _ position) (string, error) {
		return hoverText(res.Result)
	}, "No hover information for")
}

func (t *tools) documentSymbols(ctx context.Context, _ *sdk.CallToolRequest, in FileInput) (*sdk.CallToolResult, any, error) {
	params := func(uri string) map[string]any { return map[string]any{"textDocument": map[string]any{"uri": uri}} }
	return t.fileTool(ctx, in.Path, "textDocument/documentSymbol", params, true, "No symbols in "+in.Path)
}

func (t *tools) workspaceSymbols(ctx context.Context, _ *sdk.CallToolRequest, in WorkspaceSymbolsInput) (*sdk.CallToolResult, any, error) {
	params := func(string) map[string]any { return map[string]any{"query": in.Query} }
	return t.fileTool(ctx, in.Path, "workspace/symbol", params, false, fmt.Sprintf("No symbols match %q", in.Query))
}

// diagnostics answers lsp_diagnostics: for a file or glob, a fresh check
// of the files as they are on disk (notify_change); without one, what the
// daemon holds for every file (diagnostics).
func (t *tools) diagnostics(ctx context.Context, _ *sdk.CallToolRequest, in DiagnosticsInput) (*sdk.CallToolResult, any, error) {
	var res wire.Result
	what := "any file"
	if in.Path == "" {
		if err := t.daemon.call(ctx, wire.MethodDiagnostics, wire.DiagnosticsParams{}, &res); err != nil {
			return nil, nil, err
		}
	} else {
		paths, err := t.expand(in.Path)
		if err != nil {
			return nil, nil, err
		}
		changes := make([]wire.Change, len(paths))
		for i, p := range paths {
			changes[i] = wire.Change{Path: p, Mode: wire.ModeEdit}
		}
		if err := t.daemon.call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: changes, Source: "mcp"}, &res); err != nil {
			return nil, nil, err
		}
		what = in.Path
	}
	out := res.Lint
	if out == "" {
		out = "No diagnostics in " + what + "."
	}
	if len(res.Notes) > 0 {
		out += "\n" + strings.Join(res.Notes, "\n")
	}
	return text(out), nil, nil
}

// expand resolves a file, or the files a glob (doublestar syntax, relative
// to the root) matches, at most maxGlobFiles, skipping .git, node_modules
// and files a symlink on the way takes out of the workspace.
func (t *tools) expand(pattern string) ([]string, error) {
	pattern = t.respell(pattern)
	if !strings.ContainsAny(pattern, "*?[{") {
		p, err := resolvePath(t.root, pattern)
		if err != nil {
			return nil, err
		}
		return []string{p}, nil
	}
	if filepath.IsAbs(pattern) {
		rel, ok := workspace.Rel(t.root, pattern)
		if !ok {
			return nil, fmt.Errorf("%s is %w (%s)", pattern, workspace.ErrOutside, t.root)
		}
		pattern = rel
	}
	pattern = filepath.ToSlash(pattern)
	if strings.HasPrefix(pattern, "../") {
		return nil, fmt.Errorf("%s is %w (%s)", pattern, workspace.ErrOutside, t.root)
	}
	var out []string
	err := doublestar.GlobWalk(os.DirFS(t.root), pattern, func(p string, d fs.DirEntry) error {
		if d.IsDir() {
			return nil
		}
		if strings.HasPrefix(p, ".git/") || strings.Contains("/"+p, "/node_modules/") {
			return nil
		}
		full := filepath.Join(t.root, filepath.FromSlash(p))
		if _, err := resolvePath(t.root, full); err != nil {
			return nil // reached through a symlink that leads out of the workspace
		}
		if len(out) == maxGlobFiles {
			return fmt.Errorf("glob %s matches more than %d files: narrow it", pattern, maxGlobFiles)
		}
		out = append(out, full)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("glob %s matches no file", pattern)
	}
	return out, nil
}

// registerRefactoring adds the tools beyond the first six: type
// definition, implementation, call hierarchy, rename, code actions and the
// check of an edit before it is written. ro is the read-only annotation.
func (t *tools) registerRefactoring(s *sdk.Server, ro *sdk.ToolAnnotations) {
	writes := &sdk.ToolAnnotations{DestructiveHint: new(bool), OpenWorldHint: new(bool)}
	*writes.DestructiveHint = true
	sdk.AddTool(s, &sdk.Tool{Name: ToolTypeDefinition, Annotations: ro,
		Description: "Where is the type of this symbol defined? Give the file, the 1-based line and the symbol on it; " +
			"answers path:line:col with the source line."}, t.typeDefinition)
	sdk.AddTool(s, &sdk.Tool{Name: ToolImplementation, Annotations: ro,
		Description: fmt.Sprintf("Where is this interface (or abstract method) implemented, or which interfaces does "+
			"this type implement? Answers path:line:col with the source line, the first %d, then a count.", maxReferences)}, t.implementation)
	sdk.AddTool(s, &sdk.Tool{Name: ToolIncomingCalls, Annotations: ro,
		Description: fmt.Sprintf("Who calls this function or method? One line per call site: path:line:col, the "+
			"source line and the calling function; the first %d, then a count.", maxReferences)}, t.incomingCalls)
	sdk.AddTool(s, &sdk.Tool{Name: ToolOutgoingCalls, Annotations: ro,
		Description: "What does this function or method call? One line per callee, with where it is declared " +
			"and where in this function it is called."}, t.outgoingCalls)
	sdk.AddTool(s, &sdk.Tool{Name: ToolRename, Annotations: writes,
		Description: "Rename a symbol everywhere it is used (new_name), or move a file and update what refers " +
			"to it (new_path, where the server supports it). Shows the unified diff; writes the files only with " +
			"write: true, then answers with the diagnostics after the rename."}, t.rename)
	sdk.AddTool(s, &sdk.Tool{Name: ToolCodeActions, Annotations: writes,
		Description: "List the code actions (quick fixes, refactorings, organize imports) at a position, or for " +
			"the diagnostics of a line (give only the line); apply one with apply: its number or title. Applying " +
			"shows the unified diff; it writes only with write: true."}, t.codeActions)
	sdk.AddTool(s, &sdk.Tool{Name: ToolCheckEdit, Annotations: ro,
		Description: "Check an edit before writing it: give the file and its new content, or old_string and " +
			"new_string. The language servers check the text unsaved (nothing is written) and the answer lists " +
			"the errors it would introduce, in this file and in the files it would break (callers of a changed " +
			"signature), as a lint block."}, t.checkEdit)
}
