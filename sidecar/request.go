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

// executeCommand serves MethodExecuteCommand: the file is resolved and
// checked as request's, and the command run through the Manager, which
// captures the edits the server asks for while it runs
// (lsp.Manager.ExecuteCommand); they are returned, not applied.
func (s *Server) executeCommand(ctx context.Context, p wire.ExecuteCommandParams) (wire.ExecuteCommandResult, error) {
	if p.Command == "" {
		return wire.ExecuteCommandResult{}, invalidParams("execute_command: command is empty")
	}
	path, err := workspace.Resolve(s.Engine.Root, p.Path)
	if err == nil {
		err = engine.CheckRegular(path)
	}
	if err != nil {
		return wire.ExecuteCommandResult{}, invalidParams(fmt.Sprintf("execute_command: %s: %v", p.Path, err))
	}
	if s.Engine.Manager == nil {
		return wire.ExecuteCommandResult{}, errors.New("execute_command: language servers are off (lsp: false)")
	}
	resp, err := s.Engine.Manager.ExecuteCommand(ctx, path, p.Command, p.Arguments)
	var u *lsp.UnsupportedError
	if errors.As(err, &u) {
		data := json.RawMessage(fmt.Sprintf("%q", u.Capability))
		return wire.ExecuteCommandResult{}, &jsonrpc2.Error{Code: wire.CodeUnsupported, Message: u.Error(), Data: &data}
	}
	if err != nil {
		return wire.ExecuteCommandResult{}, fmt.Errorf("running %s for %s: %w", p.Command, workspace.Display(s.Engine.Root, path), err)
	}
	s.Log.Info("execute_command", "command", p.Command, "path", path, "server", resp.Server, "edits", len(resp.Edits))
	return wire.ExecuteCommandResult{
		RequestResult: wire.RequestResult{Server: resp.Server, Root: resp.Root, Encoding: resp.Encoding, Result: resp.Result},
		Edits:         resp.Edits,
	}, nil
}

// checkEdit serves MethodCheckEdit (engine.Engine.CheckEdit); a path or
// content it refuses is an invalid-params error.
func (s *Server) checkEdit(ctx context.Context, p wire.CheckEditParams) (wire.CheckEditResult, error) {
	res, err := s.Engine.CheckEdit(ctx, p)
	if err != nil {
		return res, invalidParams(fmt.Sprintf("check_edit: %v", err))
	}
	return res, nil
}
