package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// This file sends navigation requests (definition, references, hover,
// symbols) to the server that handles a file, on behalf of the daemon's
// `request` method. Nothing is converted here: params go to the server as
// given and its result comes back raw, with the position encoding the
// server negotiated, so the caller can count columns itself (Character,
// Column).

// ErrNoServer is returned by Request for a file no enabled server handles.
var ErrNoServer = errors.New("no language server handles this file")

// UnsupportedError is returned by Request when no server for the file
// supports the method: neither its initialize capabilities nor a dynamic
// registration name it.
type UnsupportedError struct {
	Servers    []string // the servers asked, by catalogue name
	Method     string   // the LSP method, such as "textDocument/hover"
	Capability string   // the server capability it needs, such as "hoverProvider"
}

// Error names the servers and the missing capability.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s does not support %s (no %s in its capabilities)",
		strings.Join(e.Servers, ", "), e.Method, e.Capability)
}

// Response is a server's answer to Request: the server's catalogue name and
// root, the position encoding it negotiated (EncodingUTF8, EncodingUTF16
// or EncodingUTF32: what every Position in params and Result counts), and
// its raw result ("null" when it found nothing).
type Response struct {
	Server   string
	Root     string
	Encoding string
	Result   json.RawMessage
}

// capabilityFor maps a request method to the ServerCapabilities field that
// announces it (LSP 3.17 "ServerCapabilities"); "" for a method not listed,
// which is sent without a check.
var capabilityFor = map[string]string{
	"textDocument/definition":     "definitionProvider",
	"textDocument/declaration":    "declarationProvider",
	"textDocument/typeDefinition": "typeDefinitionProvider",
	"textDocument/implementation": "implementationProvider",
	"textDocument/references":     "referencesProvider",
	"textDocument/hover":          "hoverProvider",
	"textDocument/documentSymbol": "documentSymbolProvider",
	"workspace/symbol":            "workspaceSymbolProvider",
	"textDocument/signatureHelp":  "signatureHelpProvider",
	// Refactoring for `lsp-hook mcp` (edits.go, commands.go): requests
	// that return edits and change nothing themselves. A dotted name is
	// an option inside a capability.
	"textDocument/prepareCallHierarchy": "callHierarchyProvider",
	"callHierarchy/incomingCalls":       "callHierarchyProvider",
	"callHierarchy/outgoingCalls":       "callHierarchyProvider",
	"textDocument/rename":               "renameProvider",
	"textDocument/prepareRename":        "renameProvider.prepareProvider",
	"textDocument/codeAction":           "codeActionProvider",
	"codeAction/resolve":                "codeActionProvider.resolveProvider",
	"workspace/willRenameFiles":         "workspace.fileOperations.willRename",
	"workspace/executeCommand":          "executeCommandProvider",
}

// Capability returns the ServerCapabilities field that announces method
// ("hoverProvider" for "textDocument/hover"), or "" when there is none
// known.
func Capability(method string) string { return capabilityFor[method] }

// capabilitiesOf splits an initialize result's capabilities by name; a
// result without an object there gives none.
func capabilitiesOf(initResult json.RawMessage) map[string]json.RawMessage {
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(initResult, &r) // the strict decode of initializeResult already passed
	return r.Capabilities
}

// Supports reports whether the server announced method: its capability is
// in the initialize result and neither false nor null (a boolean or an
// options object, LSP 3.17; for a dotted name, the option inside it), or
// the server registered the method dynamically. A method with no known capability counts as supported.
func (c *Client) Supports(method string) bool {
	name := capabilityFor[method]
	if name == "" {
		return true
	}
	if v, ok := capabilityValue(c.caps, name); ok {
		s := string(bytes.TrimSpace(v))
		if s != "false" && s != "null" && s != "" {
			return true
		}
	}
	return c.regs.registered(method)
}

// registered reports whether a dynamic registration for method is in
// force.
func (r *registrations) registered(method string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, reg := range r.byID {
		if reg.method == method {
			return true
		}
	}
	return false
}

// Request sends method with params to the first server for path (absolute)
// that supports it, after starting the server if needed (waiting within
// ctx for it to be ready) and opening path in it, or re-sending it when
// the file on disk no longer holds the text last sent. params and the
// result are passed through unconverted; see Response. It fails with
// ErrNoServer when no server handles path, *UnsupportedError when none of
// them supports method, and otherwise with the last server's error
// (ErrUnavailable when it is not installed, ErrBroken, the server's own
// error). A textDocument/codeAction without context.diagnostics gets the
// server's own current diagnostics that overlap its range
// (withContextDiagnostics).
func (m *Manager) Request(ctx context.Context, path, method string, params any) (Response, error) {
	return m.requestVia(ctx, path, method, func(ctx context.Context, c *Client) (json.RawMessage, error) {
		if method == "textDocument/codeAction" {
			params = c.withContextDiagnostics(params)
		}
		var raw json.RawMessage
		err := c.call(ctx, method, params, &raw)
		return raw, err
	})
}

// requestVia is Request with the exchange itself left to send: it is
// called with the ready client of the first server for path that supports
// method, the document open in it, and returns the raw result.
func (m *Manager) requestVia(ctx context.Context, path, method string, send func(context.Context, *Client) (json.RawMessage, error)) (Response, error) {
	servers := m.cfg.ServersForPath(path)
	if len(servers) == 0 {
		return Response{}, fmt.Errorf("%w: %s", ErrNoServer, path)
	}
	var (
		lacking []string
		lastErr error
	)
	for _, s := range servers {
		resp, err := m.requestOne(ctx, entryKey{s.Name, FindRoot(path, s.RootMarkers, m.workspace)}, path, method, send)
		var u *UnsupportedError
		switch {
		case errors.As(err, &u):
			lacking = append(lacking, s.Name)
		case errors.Is(err, ErrUnavailable) && ctx.Err() == nil:
			lastErr = err // another server for the file may serve
		default:
			return resp, err
		}
	}
	if lastErr != nil && len(lacking) == 0 {
		return Response{}, lastErr
	}
	return Response{}, &UnsupportedError{Servers: lacking, Method: method, Capability: capabilityFor[method]}
}

// requestOne sends the request to the server of k, starting it if needed.
func (m *Manager) requestOne(ctx context.Context, k entryKey, path, method string, send func(context.Context, *Client) (json.RawMessage, error)) (Response, error) {
	e, _, err := m.acquire(k, []Doc{{Path: path}})
	if err != nil {
		return Response{}, err
	}
	defer m.release(e)
	select {
	case <-e.ready:
	case <-ctx.Done():
		return Response{}, fmt.Errorf("%s for %s: %w", k.server, k.root, ErrStarting)
	}
	if e.err != nil {
		return Response{}, e.err
	}
	c := e.client
	if !c.Supports(method) {
		return Response{}, &UnsupportedError{Servers: []string{k.server}, Method: method, Capability: capabilityFor[method]}
	}
	e.docs.RLock()
	err = c.openForRequest(ctx, path)
	e.docs.RUnlock()
	if err != nil {
		return Response{}, fmt.Errorf("opening %s in %s: %w", path, k.server, err)
	}
	raw, err := send(ctx, c)
	if err != nil {
		return Response{}, fmt.Errorf("asking %s: %w", k.server, err)
	}
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	return Response{Server: k.server, Root: k.root, Encoding: c.encoding, Result: raw}, nil
}

// openForRequest makes sure the server has path open with the text on
// disk: didOpen when it is not open, didChange when the text last sent
// differs from the file. Out-of-band changes the watcher saw are sent
// first, so the server answers about the files as they are.
func (c *Client) openForRequest(ctx context.Context, path string) error {
	c.syncWatched(ctx)
	docs := []Doc{{Path: path}}
	c.markUpdating(docs, +1)
	defer c.markUpdating(docs, -1)
	disk, err := readBounded(path, maxConvertRead)
	if err != nil {
		return err
	}
	uri := pathToURI(path)
	c.mu.Lock()
	doc, open := c.docs[uri]
	same := open && bytes.Equal(doc.text, disk)
	c.mu.Unlock()
	if same {
		return nil
	}
	_, _, err = c.sync(Doc{Path: path, Text: disk})
	return err
}
