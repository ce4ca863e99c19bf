package sidecar

import (
	"context"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/wire"
)

// lspCancelRequest is LSP's cancel notification (LSP 3.17 "Cancellation
// Support"), accepted as cancel_request is.
const lspCancelRequest = "$/cancelRequest"

// check serves MethodCheck: an edit-mode check of the file as it is on
// disk, at warning severity, counted.
func (s *Server) check(ctx context.Context, p wire.CheckParams) (wire.CheckResult, error) {
	if p.Path == "" {
		return wire.CheckResult{}, invalidParams("check: path is empty")
	}
	res := s.Engine.Check(ctx, wire.NotifyChangeParams{
		Changes:  []wire.Change{{Path: p.Path, Mode: wire.ModeEdit}},
		Source:   wire.MethodCheck,
		Severity: diag.SeverityWarning.String(),
	})
	return verdict(res), nil
}

// verdict counts a Result's diagnostics into a CheckResult.
func verdict(res wire.Result) wire.CheckResult {
	out := wire.CheckResult{Freshness: worstFreshness(res.Servers), Notes: res.Notes}
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			switch d.Severity {
			case diag.SeverityError:
				out.Errors++
			case diag.SeverityWarning:
				out.Warnings++
			}
		}
	}
	out.OK = out.Errors == 0 && len(out.Notes) == 0 && (out.Freshness == "fresh" || out.Freshness == "none" && len(res.Servers) == 0)
	return out
}

// freshnessRank orders freshness from best to worst.
var freshnessRank = map[string]int{"fresh": 0, "partial": 1, "timeout": 2, "none": 3}

// worstFreshness is the worst freshness among servers, "none" when no
// checker ran.
func worstFreshness(servers []wire.ServerResult) string {
	worst := "none"
	if len(servers) > 0 {
		worst = "fresh"
	}
	for _, s := range servers {
		if r, ok := freshnessRank[s.Freshness]; ok && r > freshnessRank[worst] {
			worst = s.Freshness
		}
	}
	return worst
}

// track registers req's cancel function on conn and returns the context
// the request runs under and a function that unregisters it, counting
// the request as cancelled_disconnect when its connection closed while it
// ran. cancel_request and the connection closing (cancelDropped) cancel
// the context.
func (s *Server) track(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (context.Context, func()) {
	if req.Notif {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	if s.cancels[conn] == nil {
		s.cancels[conn] = make(map[jsonrpc2.ID]context.CancelFunc)
	}
	s.cancels[conn][req.ID] = cancel
	s.mu.Unlock()
	return ctx, func() {
		select {
		case <-conn.DisconnectNotify():
			if ctx.Err() != nil {
				s.count("cancelled_disconnect") // its connection closed while it ran (cancelDropped)
			}
		default:
		}
		s.mu.Lock()
		delete(s.cancels[conn], req.ID)
		if len(s.cancels[conn]) == 0 {
			delete(s.cancels, conn)
		}
		s.mu.Unlock()
		cancel()
	}
}

// cancel serves MethodCancelRequest and `$/cancelRequest`: the request
// with the given id on the same connection, if still running, has its
// context cancelled and answers with what it has (notify_change: the
// servers that had not answered show "timeout"; request: an error). An id
// that is not running is not an error: it may just have finished.
func (s *Server) cancel(conn *jsonrpc2.Conn, p wire.CancelParams) (struct{}, error) {
	if p.ID == nil {
		return struct{}{}, invalidParams(fmt.Sprintf("%s: id is missing", wire.MethodCancelRequest))
	}
	s.mu.Lock()
	cancel := s.cancels[conn][*p.ID]
	s.mu.Unlock()
	if cancel != nil {
		s.count("cancelled")
		cancel()
	}
	return struct{}{}, nil
}
