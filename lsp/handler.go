package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// clientCapabilities declares what this client really does (LSP 3.17
// "ClientCapabilities"): versioned push diagnostics with tags and related
// information (rendered into the message, see relatedSuffix); pull
// diagnostics with dynamic registration and workspace/diagnostic/refresh
// (pull.go); didSave; workspace/configuration; workspace folders; watched
// files with dynamic registration and relative patterns (registrations.go,
// watch.go); work-done progress; and every position encoding position.go
// converts; hierarchical document symbols, which the MCP navigation tools
// render (mcp/format.go); rename, code actions (literals, resolved
// lazily), call hierarchy and workspace edits with resource operations
// for the MCP refactoring tools, which apply the edits themselves
// (edits.go), and workspace/applyEdit, accepted only while such a tool
// runs a command (commands.go). Pulling tsserver's diagnostics where the server passes its
// requests through (tsserver.go) needs no capability: it is
// workspace/executeCommand, which a client may always send. Nothing is declared that the client does not implement.
// relatedDocumentSupport stays false: related documents in a pull answer are
// still recorded when a server sends them anyway.
var clientCapabilities = map[string]any{
	"general": map[string]any{
		"positionEncodings": []string{EncodingUTF8, EncodingUTF32, EncodingUTF16},
	},
	"textDocument": map[string]any{
		"synchronization": map[string]any{"didSave": true},
		// Answered for `lsp-hook mcp` (request.go passes results on raw).
		"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
		// Refactoring for `lsp-hook mcp`: edits come back as
		// WorkspaceEdits that the MCP tool shows or writes (edits.go), a
		// command's through workspace/applyEdit while it runs
		// (commands.go).
		"rename": map[string]any{"prepareSupport": true},
		"codeAction": map[string]any{
			"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{
				"", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite",
				"source", "source.organizeImports", "source.fixAll"}}},
			"isPreferredSupport": true,
			"dataSupport":        true,
			"resolveSupport":     map[string]any{"properties": []string{"edit"}},
		},
		"callHierarchy":  map[string]any{},
		"typeDefinition": map[string]any{"linkSupport": true},
		"implementation": map[string]any{"linkSupport": true},
		"publishDiagnostics": map[string]any{
			"versionSupport":     true,
			"relatedInformation": true,
			"tagSupport":         map[string]any{"valueSet": []int{1, 2}},
		},
		"diagnostic": map[string]any{
			"dynamicRegistration":    true,
			"relatedDocumentSupport": false,
		},
	},
	"workspace": map[string]any{
		"configuration":    true,
		"workspaceFolders": true,
		"didChangeWatchedFiles": map[string]any{
			"dynamicRegistration":    true,
			"relativePatternSupport": true,
		},
		"diagnostics": map[string]any{"refreshSupport": true},
		"applyEdit":   true,
		"workspaceEdit": map[string]any{
			"documentChanges":    true,
			"resourceOperations": []string{"create", "rename", "delete"},
		},
		"fileOperations": map[string]any{"willRename": true},
		"executeCommand": map[string]any{},
	},
	"window": map[string]any{
		"workDoneProgress": true,
	},
}

// initialize performs the initialize request and initialized notification.
func (c *Client) initialize(ctx context.Context) error {
	params := map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]any{"name": "lsp-hook"},
		"rootUri":          pathToURI(c.root),
		"rootPath":         c.root,
		"workspaceFolders": c.folders(),
		"capabilities":     clientCapabilities,
	}
	if c.server.InitializationOptions != nil {
		params["initializationOptions"] = c.server.InitializationOptions
	}
	var raw json.RawMessage
	if err := c.call(ctx, "initialize", params, &raw); err != nil {
		return err
	}
	var res initializeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("decoding initialize result: %w", err)
	}
	c.caps = capabilitiesOf(raw)
	c.encoding = res.Capabilities.PositionEncoding
	switch c.encoding {
	case EncodingUTF8, EncodingUTF16, EncodingUTF32:
	case "":
		c.encoding = EncodingUTF16 // LSP 3.17: the default when the server names none
	default:
		return fmt.Errorf("server chose position encoding %q, which was not offered", c.encoding)
	}
	var err error
	c.openClose, c.change, c.save, c.saveTx, err = res.Capabilities.syncOptions()
	if err != nil {
		return err
	}
	if dp := res.Capabilities.DiagnosticProvider; len(dp) > 0 && string(dp) != "null" && string(dp) != "false" {
		src := &pullRegistration{}
		if string(dp) != "true" { // not in 3.17, but harmless to accept: pull, with defaults
			if src, err = decodeDiagnosticOptions(dp); err != nil {
				return fmt.Errorf("decoding diagnosticProvider: %w", err)
			}
		}
		c.regs.setStatic(src)
	}
	if ec := res.Capabilities.ExecuteCommandProvider; ec != nil && slices.Contains(ec.Commands, tsserverRequestCommand) {
		c.ts.on.Store(true)
	}
	if res.ServerInfo != nil {
		c.serverName = res.ServerInfo.Name
		if v := res.ServerInfo.Version; v != "" && len(v) <= 40 { // gopls puts its whole build info here
			c.serverName += " " + v
		}
	}
	return c.notify("initialized", struct{}{})
}

func (c *Client) folders() []WorkspaceFolder {
	return []WorkspaceFolder{{URI: pathToURI(c.root), Name: filepath.Base(c.root)}}
}

// handle answers every server-to-client message. Requests always get a
// result or an error: unknown methods get MethodNotFound, never silence.
// It runs on the connection's read loop, so it never blocks.
func (c *Client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.noteHeard()
	params := rawParams(req)
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p PublishDiagnosticsParams
		if err := json.Unmarshal(params, &p); err != nil {
			c.log.Warn("dropping malformed publishDiagnostics", "err", err)
			return nil, nil
		}
		if c.log.Enabled(context.Background(), slog.LevelDebug) {
			v := "none"
			if p.Version != nil {
				v = fmt.Sprint(*p.Version)
			}
			c.log.Debug("publishDiagnostics", "uri", p.URI, "version", v, "diagnostics", len(p.Diagnostics))
		}
		if c.ts.inUse() {
			// Diagnostics are pulled from tsserver (tsserver.go); an
			// unversioned push can neither be told fresh nor stale.
			c.ts.dropped.Add(1)
			return nil, nil
		}
		p.URI = canonicalURI(p.URI) // the server's spelling of a Windows drive or an '@' may not be ours
		c.store.publish(p)
		return nil, nil
	case "$/progress":
		c.progress.update(params)
		return nil, nil
	case clangdFileStatus:
		c.fileStatus(params)
		return nil, nil
	case "window/logMessage", "window/showMessage":
		var m struct {
			Type    int    `json:"type"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(params, &m)
		c.log.Debug("server message", "method", req.Method, "type", m.Type, "message", lastLine(m.Message))
		if req.Method == "window/showMessage" {
			c.noteMessage(m.Type, m.Message)
		}
		return nil, nil
	case "telemetry/event", "$/logTrace", "$/setTrace":
		return nil, nil
	case "client/registerCapability":
		return c.register(params)
	case "client/unregisterCapability":
		return c.unregister(params)
	case "workspace/configuration":
		return c.configuration(params)
	case "workspace/workspaceFolders":
		return c.folders(), nil
	case "window/workDoneProgress/create":
		return nil, nil
	case "window/showMessageRequest":
		return nil, nil // no action chosen: there is no user to ask
	case "workspace/applyEdit", "window/showDocument":
		if r, ok := c.captureApplyEdit(req.Method, params); ok { // a command run for `lsp-hook mcp` (commands.go)
			return r, nil
		}
		return c.refuse(req.Method, params), nil
	case "workspace/diagnostic/refresh":
		// Reply at once (this runs on the read loop); pull on the side.
		c.log.Debug("server asked to re-pull diagnostics")
		go c.repullOpen(true)
		return nil, nil
	case "workspace/semanticTokens/refresh",
		"workspace/inlayHint/refresh", "workspace/inlineValue/refresh", "workspace/codeLens/refresh":
		return nil, nil
	}
	if req.Notif {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "lsp-hook does not handle " + req.Method}
}

// ApplyEditRefusal is the failureReason lsp-hook answers every
// workspace/applyEdit with.
const ApplyEditRefusal = "lsp-hook never edits files on a server's behalf"

// refuse answers the server requests that would act on the user's machine
// beyond reporting diagnostics, and logs each: workspace/applyEdit gets
// {applied: false, failureReason: ApplyEditRefusal} (LSP 3.17
// "ApplyWorkspaceEditResult"): lsp-hook only reports, the agent edits; and
// window/showDocument gets {success: false} (LSP 3.17
// "ShowDocumentResult"): there is no editor to show a document in, and an
// external URI would open a browser. The client declares
// workspace.applyEdit for the commands `lsp-hook mcp` runs, whose edits it
// captures (commands.go); at any other time a server that sends one
// learns it failed rather than waiting. window.showDocument is not
// declared.
func (c *Client) refuse(method string, params json.RawMessage) any {
	switch method {
	case "workspace/applyEdit":
		var p struct {
			Label string `json:"label"`
		}
		_ = json.Unmarshal(params, &p)
		c.log.Warn("refused a server's workspace/applyEdit", "label", p.Label)
		return map[string]any{"applied": false, "failureReason": ApplyEditRefusal}
	default: // window/showDocument
		var p struct {
			URI      string `json:"uri"`
			External bool   `json:"external"`
		}
		_ = json.Unmarshal(params, &p)
		c.log.Warn("refused a server's window/showDocument", "uri", p.URI, "external", p.External)
		return map[string]any{"success": false}
	}
}

// configuration answers workspace/configuration with one item per requested
// section, from the server's configured settings: section "a.b" is
// Settings["a"]["b"], an empty section the whole of Settings, and an unknown
// section null (LSP 3.17 "Configuration Request").
func (c *Client) configuration(params json.RawMessage) (any, error) {
	var p struct {
		Items []struct {
			Section string `json:"section"`
		} `json:"items"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "decoding configuration params: " + err.Error()}
	}
	out := make([]any, len(p.Items))
	for i, item := range p.Items {
		out[i] = lookupSection(c.server.Settings, item.Section)
	}
	return out, nil
}

func lookupSection(settings map[string]any, section string) any {
	if section == "" {
		if settings == nil {
			return nil
		}
		return settings
	}
	var cur any = settings
	for _, part := range strings.Split(section, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

// progress tracks $/progress work-done tokens (LSP 3.17 "Work Done
// Progress"): which are between "begin" and "end", their titles and when
// they began, so a check can wait for work a change set off (rust-analyzer's
// cargo check after didSave) instead of answering before it ends.
type progress struct {
	mu      sync.Mutex // guards active, changed and begun
	active  map[string]progressItem
	changed chan struct{} // closed and replaced on every begin and end
	begun   bool          // some work has begun since the server started
}

type progressItem struct {
	title   string
	message string // the latest begin or report message
	begun   time.Time
}

func (p *progress) update(params json.RawMessage) {
	var m struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind    string `json:"kind"`
			Title   string `json:"title"`
			Message string `json:"message"`
		} `json:"value"`
	}
	if json.Unmarshal(params, &m) != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active == nil {
		p.active = make(map[string]progressItem)
	}
	switch m.Value.Kind {
	case "begin":
		p.active[string(m.Token)] = progressItem{title: m.Value.Title, message: m.Value.Message, begun: time.Now()}
		p.begun = true
	case "end":
		delete(p.active, string(m.Token))
	case "report":
		if it, ok := p.active[string(m.Token)]; ok && m.Value.Message != "" {
			it.message = m.Value.Message
			p.active[string(m.Token)] = it
		}
		return
	default:
		return
	}
	if p.changed != nil {
		close(p.changed)
		p.changed = nil
	}
}

// reported reports whether the server has begun any work-done progress
// since it started.
func (p *progress) reported() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.begun
}

// pendingSince returns the titles of work begun at or after t and not yet
// ended, other than the titles in skip (a load error, which is not work
// that will end), and a channel closed at the next begin or end.
func (p *progress) pendingSince(t time.Time, skip []string) ([]string, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var titles []string
	for _, it := range p.active {
		if !it.begun.Before(t) && !slices.Contains(skip, it.title) {
			titles = append(titles, it.title)
		}
	}
	sort.Strings(titles)
	if p.changed == nil {
		p.changed = make(chan struct{})
	}
	return titles, p.changed
}

// loadError returns the message (else the title) of the first open
// progress, by message, whose title is one of titles; "" when none is open.
func (p *progress) loadError(titles []string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, it := range p.active {
		if slices.Contains(titles, it.title) {
			out = append(out, cmp.Or(strings.TrimSpace(it.message), it.title))
		}
	}
	slices.Sort(out)
	if len(out) == 0 {
		return ""
	}
	return out[0]
}

// Busy returns the titles of the work-done progress the server reported as
// begun and not yet ended ("Loading packages…").
func (c *Client) Busy() []string {
	c.progress.mu.Lock()
	defer c.progress.mu.Unlock()
	var out []string
	for _, it := range c.progress.active {
		out = append(out, it.title)
	}
	return out
}
