package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// MethodRequest sends one read-only LSP request (definition, references,
// hover, symbols) to the language server that handles a file: the
// navigation half of the daemon, used by `lsp-hook mcp`.
const MethodRequest = "request"

// RequestParams names the file (absolute or root-relative; it must be in
// the workspace) whose server answers, the LSP method (one of
// RequestMethods) and its params exactly as the server takes them:
// positions 0-based, characters in the server's position encoding, which
// the result names (a client that does not know it yet may send a
// position-free method first, or count in UTF-16 and correct afterwards).
type RequestParams struct {
	Path   string          `json:"path"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// RequestResult is the server's raw LSP result ("null" when it found
// nothing), with the server's catalogue name and root and the position
// encoding ("utf-8", "utf-16", "utf-32") every position in params and
// result counts in.
type RequestResult struct {
	Server   string          `json:"server"`
	Root     string          `json:"root"`
	Encoding string          `json:"encoding"`
	Result   json.RawMessage `json:"result"`
}

// RequestMethods are the LSP methods `request` passes on: requests that
// read and never change anything.
var RequestMethods = []string{
	"textDocument/definition", "textDocument/declaration", "textDocument/typeDefinition",
	"textDocument/implementation", "textDocument/references", "textDocument/hover",
	"textDocument/documentSymbol", "workspace/symbol", "textDocument/signatureHelp",
}

// CodeUnsupported is the JSON-RPC error code of a request no server for the
// file supports (its message names the servers and the capability); the
// data is the capability's name.
const CodeUnsupported = -32001

// request serves MethodRequest: the method is checked against
// RequestMethods, the file resolved inside the workspace
// (workspace.ErrOutside otherwise) and refused unless it is a regular file
// notify_change would read (checkRegular: a FIFO would block the server's
// document sync for good), and the request sent through the Manager.
func (s *Server) request(ctx context.Context, raw json.RawMessage) (RequestResult, error) {
	var p RequestParams
	if err := decodeParams(raw, &p); err != nil {
		return RequestResult{}, err
	}
	if !slices.Contains(RequestMethods, p.Method) {
		return RequestResult{}, invalidParams(fmt.Sprintf("request: method %q is not passed on (one of %s)",
			p.Method, strings.Join(RequestMethods, ", ")))
	}
	path, err := workspace.Resolve(s.Engine.Root, p.Path)
	if err == nil {
		err = checkRegular(path)
	}
	if err != nil {
		return RequestResult{}, invalidParams(fmt.Sprintf("request: %s: %v", p.Path, err))
	}
	if s.Engine.Manager == nil {
		return RequestResult{}, errors.New("request: language servers are off (lsp: false)")
	}
	var params any = p.Params
	if len(p.Params) == 0 {
		params = nil
	}
	resp, err := s.Engine.Manager.Request(ctx, path, p.Method, params)
	var u *lsp.UnsupportedError
	if errors.As(err, &u) {
		data := json.RawMessage(fmt.Sprintf("%q", u.Capability))
		return RequestResult{}, &jsonrpc2.Error{Code: CodeUnsupported, Message: u.Error(), Data: &data}
	}
	if err != nil {
		return RequestResult{}, fmt.Errorf("request %s for %s: %w", p.Method, s.Engine.rel(path), err)
	}
	s.Log.Info("request", "method", p.Method, "path", path, "server", resp.Server)
	return RequestResult{Server: resp.Server, Root: resp.Root, Encoding: resp.Encoding, Result: resp.Result}, nil
}

// checkRegular refuses, without reading a byte, what readContent refuses
// before reading (openRegular): a path that does not exist, anything but a
// regular file (ErrNotRegular), a kernel pseudo-file (ErrPseudoFile), a
// file over MaxFileSize (ErrTooLarge). path must come from
// workspace.Resolve.
func checkRegular(path string) error {
	f, _, err := openRegular(path)
	if err != nil {
		return err
	}
	f.Close() // opened read-only, nothing read: nothing to lose
	return nil
}
