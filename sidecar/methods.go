package sidecar

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The daemon's method table: every method it serves is one row of
// methods, with how its params are decoded, how it is answered, and
// whether it can be cancelled. Adding a method is adding a row (and its
// wire types, in package wire).

// call is one request as a method sees it: its connection and the request
// itself (id, notification or not).
type call struct {
	conn *jsonrpc2.Conn
	req  *jsonrpc2.Request
}

// method is one row of the table. serve decodes the raw params (see
// decoded and ignoringParams) and answers; an error is a JSON-RPC error
// naming the problem. A cancellable request is tracked by its id while it
// runs (track): cancel_request and `$/cancelRequest` cancel its context,
// and so does its connection closing.
//
// A method that answers by the config (notify_change, a check, a Stop
// gate, a server's request: everything but the rows marked anyConfig) is
// refused with wire.CodeConfigChanged once a file the config was loaded
// from has changed (Server.configChanged): its answer would follow a
// config that is no longer the user's. The client replaces the daemon.
type method struct {
	serve       func(s *Server, ctx context.Context, c call, raw json.RawMessage) (any, error)
	cancellable bool
	anyConfig   bool
}

// decoded makes a method's serve from fn, which takes the params decoded
// into P (decodeParams: absent or null params leave P zero; params that
// do not decode are an invalid-params error).
func decoded[P any](fn func(s *Server, ctx context.Context, c call, p P) (any, error)) func(*Server, context.Context, call, json.RawMessage) (any, error) {
	return func(s *Server, ctx context.Context, c call, raw json.RawMessage) (any, error) {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			return nil, err
		}
		return fn(s, ctx, c, p)
	}
}

// ignoringParams makes a method's serve from fn, for a method whose
// params, if any, are not read (hello, status, subscribe, shutdown).
func ignoringParams(fn func(s *Server, ctx context.Context, c call) (any, error)) func(*Server, context.Context, call, json.RawMessage) (any, error) {
	return func(s *Server, ctx context.Context, c call, _ json.RawMessage) (any, error) { return fn(s, ctx, c) }
}

// methods is the table, by method name (DESIGN.md "Socket and wire
// protocol"). A method not in it is method-not-found (a notification is
// dropped), counted under counterUnknown.
var methods = map[string]method{
	wire.MethodHello: {serve: ignoringParams(func(s *Server, _ context.Context, _ call) (any, error) {
		return wire.HelloResult{Version: s.Version, Protocol: wire.ProtocolVersion, Pid: os.Getpid(), Root: s.Engine.Root,
			ConfigChanged: s.configChanged()}, nil
	}), anyConfig: true},
	wire.MethodNotifyChange: {serve: decoded((*Server).notifyChange), cancellable: true},
	wire.MethodDiagnostics: {serve: decoded(func(s *Server, _ context.Context, _ call, p wire.DiagnosticsParams) (any, error) {
		return s.Engine.Current(p.Paths), nil
	})},
	wire.MethodStatus: {serve: ignoringParams(func(s *Server, _ context.Context, _ call) (any, error) {
		return s.status(), nil
	}), anyConfig: true},
	wire.MethodSubscribe: {serve: ignoringParams(func(s *Server, _ context.Context, c call) (any, error) {
		return s.subscribe(c.conn)
	}), anyConfig: true},
	wire.MethodRestart: {serve: decoded(func(s *Server, _ context.Context, _ call, p wire.RestartParams) (any, error) {
		return s.restart(p)
	})},
	wire.MethodChangedFiles: {serve: decoded(func(s *Server, ctx context.Context, _ call, p wire.ChangedFilesParams) (any, error) {
		return s.changedFiles(ctx, p)
	})},
	wire.MethodRequest: {serve: decoded(func(s *Server, ctx context.Context, _ call, p wire.RequestParams) (any, error) {
		return s.request(ctx, p)
	}), cancellable: true},
	wire.MethodExecuteCommand: {serve: decoded(func(s *Server, ctx context.Context, _ call, p wire.ExecuteCommandParams) (any, error) {
		return s.executeCommand(ctx, p)
	}), cancellable: true},
	wire.MethodCheckEdit: {serve: decoded(func(s *Server, ctx context.Context, _ call, p wire.CheckEditParams) (any, error) {
		return s.checkEdit(ctx, p)
	}), cancellable: true},
	wire.MethodCheck: {serve: decoded(func(s *Server, ctx context.Context, _ call, p wire.CheckParams) (any, error) {
		return s.check(ctx, p)
	}), cancellable: true},
	wire.MethodSessionStart:  {serve: decoded((*Server).sessionStart)},
	wire.MethodSessionStop:   {serve: decoded((*Server).sessionStop), cancellable: true},
	wire.MethodSessionEnd:    {serve: decoded((*Server).sessionEnd), anyConfig: true},
	wire.MethodCancelRequest: cancelMethod,
	lspCancelRequest:         cancelMethod,
	wire.MethodShutdown:      {serve: ignoringParams((*Server).shutdownRequested), anyConfig: true},
}

// cancelMethod serves cancel_request and LSP's `$/cancelRequest` alike.
var cancelMethod = method{serve: decoded(func(s *Server, _ context.Context, c call, p wire.CancelParams) (any, error) {
	return s.cancel(c.conn, p)
}), anyConfig: true}

// counterUnknown counts requests for methods the daemon does not serve,
// so that made-up method names cannot grow the counters (and status)
// without bound; each served method counts under its own name.
const counterUnknown = "unknown_method"

// counterOf is the counter a request for method counts under.
func counterOf(method string) string {
	if _, ok := methods[method]; ok {
		return method
	}
	return counterUnknown
}

// handle serves one request through the method table. Errors are JSON-RPC
// errors naming the problem.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	s.inflight.Add(1)
	long := time.AfterFunc(checkpointEvery, s.records.touched) // a check of seconds is recorded while it runs
	defer func() {
		s.lastUse.Store(time.Now().UnixNano())
		s.inflight.Add(-1)
		long.Stop()
		s.records.touched()
	}()
	s.count("requests")
	s.count(counterOf(req.Method))
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	if err := checkDepth(params, MaxParamsDepth); err != nil {
		return nil, err
	}
	m, ok := methods[req.Method]
	if !ok {
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "unknown method " + req.Method}
	}
	if !m.anyConfig && s.configChanged() {
		return nil, &jsonrpc2.Error{Code: wire.CodeConfigChanged,
			Message: "the lsp-hook config changed since this daemon started; connect again to get a daemon with it"}
	}
	if m.cancellable {
		var done func()
		ctx, done = s.track(ctx, conn, req)
		defer done()
	}
	return m.serve(s, ctx, call{conn: conn, req: req}, params)
}

// notifyChange serves notify_change: at least one change and at most
// MaxChanges, checked by the engine.
func (s *Server) notifyChange(ctx context.Context, _ call, p wire.NotifyChangeParams) (any, error) {
	if len(p.Changes) == 0 {
		return nil, invalidParams("notify_change: changes is empty")
	}
	if len(p.Changes) > MaxChanges {
		return nil, invalidParams(fmt.Sprintf("notify_change: %d changes, at most %d", len(p.Changes), MaxChanges))
	}
	if len(p.Chain) > wire.MaxSessionLen {
		return nil, invalidParams(fmt.Sprintf("notify_change: chain longer than %d bytes", wire.MaxSessionLen))
	}
	revisited := s.touchSession(p)
	var checked map[string]checkedText
	var read <-chan time.Time
	if p.Chain != "" {
		checked = s.checkedTexts(p.Changes)
		defer s.hooks.checking(p.Chain, maps.Clone(checked))() // marked below, once the check is over
		read = s.changesRead(ctx)
	}
	// Logged once the session's record and the other sessions' spans know
	// the change (tests wait for it to play what comes during the check).
	s.Log.Debug("notify_change begun", "source", p.Source, "session", p.Session, "changes", len(p.Changes))
	res, b := s.Engine.CheckBaselines(ctx, p, revisited)
	if p.Session != "" {
		s.registry().SetOthersBefore(p.Session, b.OthersBefore)
		s.registry().RecordMade(p.Session, errorKeys(b.Made), true)
		s.registry().RecordMade(p.Session, errorKeys(b.Unsure), false)
	}
	if p.Chain != "" {
		if at := <-read; !at.IsZero() {
			for path, c := range checked {
				c.at = at
				checked[path] = c
			}
		}
		s.markChain(p.Chain, checked)
	}
	s.Log.Info("notify_change", "source", p.Source, "changes", len(p.Changes), "files", len(res.Files),
		"elapsed_ms", res.ElapsedMS, "notes", res.Notes)
	return res, nil
}

// errorKeys returns the engine.ErrorKey of each diagnostic of byPath.
func errorKeys(byPath map[string][]diag.Diagnostic) []string {
	var keys []string
	for _, ds := range byPath {
		for _, d := range ds {
			keys = append(keys, engine.ErrorKey(d))
		}
	}
	return keys
}

// shutdownRequested serves shutdown: it answers before the connections
// close (the handler's own reply then fails quietly on the closed
// connection), and shuts the daemon down.
func (s *Server) shutdownRequested(ctx context.Context, c call) (any, error) {
	s.Log.Info("shutdown requested")
	if !c.req.Notif {
		_ = c.conn.Reply(ctx, c.req.ID, struct{}{})
	}
	s.Shutdown()
	return struct{}{}, nil
}
