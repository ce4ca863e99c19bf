package sidecar

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// TestCheckMethod is check's verdict on files a validator or a language
// server (the fake one) checks: errors and warnings counted, and neither a
// file that could not be read nor a server that did not answer is OK.
func TestCheckMethod(t *testing.T) {
	e := fakeEngine(t, "normal")
	testdaemon.WriteFile(t, e.Root, "bad.json", "{\"a\": 1,}\n")
	testdaemon.WriteFile(t, e.Root, "ok.json", "{\"a\": 1}\n")
	testdaemon.WriteFile(t, e.Root, "two.fake", "ERROR(E1): one\nWARN(W1): two\nok\n")
	testdaemon.WriteFile(t, e.Root, "clean.fake", "ok\n")
	slow := fakeEngine(t, "never-publishes")
	testdaemon.WriteFile(t, slow.Root, "hung.fake", "ok\n")
	tests := []struct {
		name      string
		engine    *engine.Engine
		path      string
		want      wire.CheckResult
		wantNotes string
	}{
		{name: "json error", engine: e, path: "bad.json", want: wire.CheckResult{Errors: 1, Freshness: "fresh"}},
		{name: "json clean", engine: e, path: "ok.json", want: wire.CheckResult{OK: true, Freshness: "fresh"}},
		{name: "server error and warning", engine: e, path: "two.fake", want: wire.CheckResult{Errors: 1, Warnings: 1, Freshness: "fresh"}},
		{name: "server clean", engine: e, path: "clean.fake", want: wire.CheckResult{OK: true, Freshness: "fresh"}},
		{name: "missing file", engine: e, path: "nope.json", want: wire.CheckResult{Freshness: "none"}, wantNotes: "nope.json"},
		{name: "outside", engine: e, path: "/etc/hostname", want: wire.CheckResult{Freshness: "none"}, wantNotes: "outside the workspace"},
		{name: "server timeout is not ok", engine: slow, path: "hung.fake", want: wire.CheckResult{Freshness: "timeout"}},
	}
	sockets := map[*engine.Engine]string{e: serve(t, e), slow: serve(t, slow)}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c := testdaemon.Dial(ctx, t, sockets[tt.engine])
			var got wire.CheckResult
			if err := c.Call(ctx, wire.MethodCheck, wire.CheckParams{Path: tt.path}, &got); err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(got.Notes, "\n")
			got.Notes = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("check %s = %+v, want %+v", tt.path, got, tt.want)
			}
			if (tt.wantNotes == "") != (notes == "") || !strings.Contains(notes, tt.wantNotes) {
				t.Errorf("notes = %q, want one naming %q", notes, tt.wantNotes)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := testdaemon.Dial(ctx, t, sockets[e]).Call(ctx, wire.MethodCheck, wire.CheckParams{}, nil); err == nil || !strings.Contains(err.Error(), "path is empty") {
		t.Errorf("check without a path: err = %v", err)
	}
}

// hungDaemon serves a daemon whose one server never answers, with 30 s
// budgets, and returns it with its socket: a check of hung.fake then runs
// until cancelled. The context it returns ends after 20 s, or with the
// test.
func hungDaemon(t *testing.T) (*Server, string, context.Context) {
	t.Helper()
	e := fakeEngine(t, "never-publishes")
	e.Config.LSP.Timeout, e.Config.LSP.FirstTouchTimeout = 30*time.Second, 30*time.Second
	testdaemon.WriteFile(t, e.Root, "hung.fake", "ok\n")
	srv, socket := serveServer(t, e)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return srv, socket, ctx
}

// TestCancelRequest cancels a notify_change waiting on a server that never
// publishes (30 s deadline): with cancel_request, LSP's $/cancelRequest, or
// by the client's own context ending, the daemon stops the work at once
// and the answer says the server timed out rather than passing it off as
// clean; the daemon then has nothing in flight.
func TestCancelRequest(t *testing.T) {
	tests := []struct {
		name   string
		cancel func(ctx context.Context, c *jsonrpc2.Conn, id jsonrpc2.ID) error
	}{
		{name: "cancel_request", cancel: func(ctx context.Context, c *jsonrpc2.Conn, id jsonrpc2.ID) error {
			return c.Call(ctx, wire.MethodCancelRequest, wire.CancelParams{ID: &id}, nil)
		}},
		{name: "$/cancelRequest", cancel: func(ctx context.Context, c *jsonrpc2.Conn, id jsonrpc2.ID) error {
			return c.Notify(ctx, lspCancelRequest, wire.CancelParams{ID: &id})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, socket, ctx := hungDaemon(t)
			c := rawDial(t, socket)
			id := jsonrpc2.ID{Str: "slow", IsString: true}
			answered := make(chan error, 1)
			var res wire.Result
			begin := time.Now()
			go func() {
				answered <- c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{
					Changes: []wire.Change{{Path: "hung.fake"}}, BudgetMS: 30000, ColdBudgetMS: 30000,
				}, &res, jsonrpc2.PickID(id))
			}()
			waitInflight(t, srv, 1)
			if err := tt.cancel(ctx, c, id); err != nil {
				t.Fatal(err)
			}
			if err := <-answered; err != nil {
				t.Fatalf("cancelled notify_change: %v", err)
			}
			if took := time.Since(begin); took > 10*time.Second {
				t.Errorf("cancelled check answered after %v", took)
			}
			if len(res.Servers) != 1 || res.Servers[0].Freshness == "fresh" || !strings.Contains(res.Lint, "fake") {
				t.Errorf("cancelled check: servers %+v, lint %q: want the fake server not fresh, and said so", res.Servers, res.Lint)
			}
			waitInflight(t, srv, 0)
		})
	}
	t.Run("client context ends", func(t *testing.T) {
		srv, socket, ctx := hungDaemon(t)
		c := testdaemon.Dial(ctx, t, socket)
		short, cancelShort := context.WithTimeout(ctx, 500*time.Millisecond)
		defer cancelShort()
		var res wire.Result
		err := c.Call(short, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: "hung.fake"}}, BudgetMS: 30000, ColdBudgetMS: 30000}, &res)
		if err == nil {
			t.Fatalf("a call past its context answered: %+v", res)
		}
		waitInflight(t, srv, 0) // the client told the daemon to stop
	})
	// jsonrpc2 cancels the handlers' context when the connection closes:
	// a hook that gave up at its budget stops its check.
	t.Run("client hangs up", func(t *testing.T) {
		e := fakeEngine(t, "never-publishes")
		e.Config.LSP.Timeout, e.Config.LSP.FirstTouchTimeout = 30*time.Second, 30*time.Second
		testdaemon.WriteFile(t, e.Root, "hung.fake", "ok\n")
		srv, socket := serveServer(t, e)
		conn := rawDial(t, socket)
		if _, err := conn.DispatchCall(context.Background(), wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: "hung.fake"}}}); err != nil {
			t.Fatal(err)
		}
		waitInflight(t, srv, 1)
		conn.Close()
		waitInflight(t, srv, 0)
	})
}

// TestDisconnectCancels: a client that starts checks which would run for
// 30 s (a server that never publishes, 30 s budgets) and closes its
// connection has them cancelled at once: the daemon's work on them ends
// promptly, counted as cancelled_disconnect, while another connection's
// check runs on. Repeated, as a race.
func TestDisconnectCancels(t *testing.T) {
	srv, socket, ctx := hungDaemon(t)
	long := wire.NotifyChangeParams{Changes: []wire.Change{{Path: "hung.fake"}}, BudgetMS: 30000, ColdBudgetMS: 30000}
	other := rawDial(t, socket)
	otherDone := make(chan error, 1)
	go func() { otherDone <- other.Call(ctx, wire.MethodNotifyChange, long, new(wire.Result)) }()
	waitInflight(t, srv, 1)
	const rounds = 20
	for i := range rounds {
		c := rawDial(t, socket)
		for _, call := range []struct {
			method string
			params any
		}{{wire.MethodNotifyChange, long}, {wire.MethodCheck, wire.CheckParams{Path: "hung.fake"}}} {
			if _, err := c.DispatchCall(ctx, call.method, call.params); err != nil {
				t.Fatal(err)
			}
		}
		waitInflight(t, srv, 3)
		begin := time.Now()
		c.Close()
		waitInflight(t, srv, 1) // the other connection's check runs on
		if took := time.Since(begin); took > 2*time.Second {
			t.Errorf("round %d: checks of a closed connection ended %v after it closed", i, took)
		}
	}
	var st StatusResult
	if err := testdaemon.Dial(ctx, t, socket).Call(ctx, wire.MethodStatus, nil, &st); err != nil {
		t.Fatal(err)
	}
	if got := st.Counters["cancelled_disconnect"]; got != 2*rounds {
		t.Errorf("cancelled_disconnect = %d, want %d", got, 2*rounds)
	}
	select {
	case err := <-otherDone:
		t.Fatalf("the other connection's check ended: %v", err)
	default:
	}
	other.Close()
	waitInflight(t, srv, 0)
}

// waitInflight waits up to 10 s for srv to have n requests in flight.
func waitInflight(t *testing.T, srv *Server, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for srv.inflight.Load() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests in flight after 10s, want %d", srv.inflight.Load(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestErrorCodes: every error the daemon answers with carries a JSON-RPC
// code a client can branch on; an engine failure (here: request with the
// language servers off) is -32603 internal error, not code 0.
func TestErrorCodes(t *testing.T) {
	root := testdaemon.ShortDir(t)
	root, _ = filepath.EvalSymlinks(root)
	testdaemon.WriteFile(t, root, "a.go", "package a\n")
	socket := startServer(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	tests := []struct {
		method string
		params any
		code   int64
	}{
		{wire.MethodRequest, wire.RequestParams{Path: "a.go", Method: "textDocument/hover"}, jsonrpc2.CodeInternalError},
		{wire.MethodRequest, wire.RequestParams{Path: "a.go", Method: "workspace/executeCommand"}, jsonrpc2.CodeInvalidParams},
		{wire.MethodCheck, wire.CheckParams{}, jsonrpc2.CodeInvalidParams},
		{"no_such_method", nil, jsonrpc2.CodeMethodNotFound},
	}
	for _, tt := range tests {
		err := c.Call(ctx, tt.method, tt.params, nil)
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != tt.code || rpcErr.Message == "" {
			t.Errorf("%s %+v: err = %#v, want code %d with a message", tt.method, tt.params, err, tt.code)
		}
	}
}
