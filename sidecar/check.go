package sidecar

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/diag"
)

// Methods of DESIGN.md's table for callers that want a verdict rather than
// a lint block, and for cancelling a long request.
const (
	// MethodCheck checks one file as it is on disk: CheckParams →
	// CheckResult.
	MethodCheck = "check"
	// MethodCancelRequest cancels a request still running on the same
	// connection: CancelParams → {}. LSP's `$/cancelRequest` notification
	// (LSP 3.17 "Cancellation Support") is accepted too.
	MethodCancelRequest = "cancel_request"
	lspCancelRequest    = "$/cancelRequest"
)

// CheckParams names the file to check, absolute or root-relative.
type CheckParams struct {
	Path string `json:"path"`
}

// CheckResult is the verdict on one file: OK when it has no error, and how
// many errors and warnings it has (info and hint are not counted). Freshness
// is the worst freshness of the servers that checked it ("fresh",
// "partial", "timeout", "none"): a timeout is never reported as OK. Notes
// say why the file could not be checked (missing, binary, outside the
// workspace), in which case OK is false.
type CheckResult struct {
	OK        bool     `json:"ok"`
	Errors    int      `json:"errors"`
	Warnings  int      `json:"warnings"`
	Freshness string   `json:"freshness"`
	Notes     []string `json:"notes,omitempty"`
}

// CancelParams names the request to cancel by its JSON-RPC id (a number or
// a string, as it was sent).
type CancelParams struct {
	ID *jsonrpc2.ID `json:"id"`
}

// check serves MethodCheck: an edit-mode check of the file as it is on
// disk, at warning severity, counted.
func (s *Server) check(ctx context.Context, raw json.RawMessage) (CheckResult, error) {
	var p CheckParams
	if err := decodeParams(raw, &p); err != nil {
		return CheckResult{}, err
	}
	if p.Path == "" {
		return CheckResult{}, invalidParams("check: path is empty")
	}
	res := s.Engine.Check(ctx, NotifyChangeParams{
		Changes:  []Change{{Path: p.Path, Mode: ModeEdit}},
		Source:   MethodCheck,
		Severity: diag.SeverityWarning.String(),
	})
	return verdict(res), nil
}

// verdict counts a Result's diagnostics into a CheckResult.
func verdict(res Result) CheckResult {
	out := CheckResult{Freshness: worstFreshness(res.Servers), Notes: res.Notes}
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
func worstFreshness(servers []ServerResult) string {
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
// the request runs under and a function that unregisters it.
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
func (s *Server) cancel(conn *jsonrpc2.Conn, raw json.RawMessage) (struct{}, error) {
	var p CancelParams
	if err := decodeParams(raw, &p); err != nil {
		return struct{}{}, err
	}
	if p.ID == nil {
		return struct{}{}, invalidParams(fmt.Sprintf("%s: id is missing", MethodCancelRequest))
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
