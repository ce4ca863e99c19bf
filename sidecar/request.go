package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// request serves MethodRequest: the method is checked against
// RequestMethods, the file resolved inside the workspace
// (workspace.ErrOutside otherwise) and refused unless it is a regular file
// notify_change would read (engine.CheckRegular: a FIFO would block the server's
// document sync for good), and the request sent through the Manager.
func (s *Server) request(ctx context.Context, p wire.RequestParams) (wire.RequestResult, error) {
	if !slices.Contains(wire.RequestMethods, p.Method) {
		return wire.RequestResult{}, invalidParams(fmt.Sprintf("request: method %q is not passed on (one of %s)",
			p.Method, strings.Join(wire.RequestMethods, ", ")))
	}
	path, err := workspace.Resolve(s.Engine.Root, p.Path)
	if err == nil {
		err = engine.CheckRegular(path)
	}
	if err != nil {
		return wire.RequestResult{}, invalidParams(fmt.Sprintf("request: %s: %v", p.Path, err))
	}
	if s.Engine.Manager == nil {
		return wire.RequestResult{}, errors.New("request: language servers are off (lsp: false)")
	}
	var params any = p.Params
	if len(p.Params) == 0 {
		params = nil
	}
	resp, err := s.Engine.Manager.Request(ctx, path, p.Method, params)
	var u *lsp.UnsupportedError
	if errors.As(err, &u) {
		data := json.RawMessage(fmt.Sprintf("%q", u.Capability))
		return wire.RequestResult{}, &jsonrpc2.Error{Code: wire.CodeUnsupported, Message: u.Error(), Data: &data}
	}
	if err != nil {
		return wire.RequestResult{}, fmt.Errorf("request %s for %s: %w", p.Method, workspace.Display(s.Engine.Root, path), err)
	}
	s.Log.Info("request", "method", p.Method, "path", path, "server", resp.Server)
	return wire.RequestResult{Server: resp.Server, Root: resp.Root, Encoding: resp.Encoding, Result: resp.Result}, nil
}
