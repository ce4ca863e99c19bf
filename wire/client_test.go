package wire

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// pipelineDaemon is a scripted daemon for ConnectWith: it answers hello
// with protocol only once the request after it has arrived on the same
// connection, so a client that waits for hello before sending its first
// call gets an error instead of an answer. It answers notify_change with
// a block naming the file.
type pipelineDaemon struct {
	protocol int
	mu       sync.Mutex
	methods  []string // requests, in the order their handlers ran
	second   chan struct{}
}

// Handle implements jsonrpc2.Handler (run under AsyncHandler, so hello
// can wait for the next request).
func (d *pipelineDaemon) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	d.mu.Lock()
	d.methods = append(d.methods, req.Method)
	if len(d.methods) == 2 {
		close(d.second)
	}
	d.mu.Unlock()
	switch req.Method {
	case MethodHello:
		select {
		case <-d.second:
			_ = conn.Reply(ctx, req.ID, HelloResult{Version: "scripted", Protocol: d.protocol, Pid: 1, Root: "/w"})
		case <-time.After(5 * time.Second): // the call never came: the client waited for hello
			_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "no request came after hello"})
		}
	case MethodNotifyChange:
		var p NotifyChangeParams
		if err := json.Unmarshal(*req.Params, &p); err != nil || len(p.Changes) != 1 {
			_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "want one change"})
			return
		}
		_ = conn.Reply(ctx, req.ID, Result{Lint: "checked " + p.Changes[0].Path})
	default:
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: req.Method})
	}
}

// listen serves d on a socket in a new directory and returns its path.
func (d *pipelineDaemon) listen(t *testing.T) string {
	t.Helper()
	socket := filepath.Join(t.TempDir(), "d.sock")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Skipf("no unix socket here: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			nc, err := l.Accept()
			if err != nil {
				return
			}
			jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(nc, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(d))
		}
	}()
	return socket
}

// TestConnectWithPipelines: the hook's first request goes out with hello,
// before hello's answer (one round trip to a running daemon, issue 18),
// and is answered; to a daemon of an older protocol it is sent but its
// answer is not taken (Sent false: Connect replaces that daemon, and the
// caller asks the new one).
func TestConnectWithPipelines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		protocol int
		wantSent bool
	}{
		{"our protocol", ProtocolVersion, true},
		{"a newer protocol", ProtocolVersion + 1, true},
		{"an older protocol", ProtocolVersion - 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &pipelineDaemon{protocol: tc.protocol, second: make(chan struct{})}
			socket := d.listen(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var res Result
			first := &Call{Method: MethodNotifyChange, Result: &res,
				Params: NotifyChangeParams{Changes: []Change{{Path: "/w/a.json", Mode: ModeEdit}}, BudgetMS: 1000}}
			var c *Client
			var err error
			if tc.wantSent {
				c, _, err = ConnectWith(ctx, "test", StartOptions{Socket: socket}, first)
			} else { // Connect would ask this daemon to shut down and start a real one
				c, err = dial(ctx, socket, "test", first)
			}
			if err != nil {
				t.Fatalf("connecting: %v (requests the daemon saw: %v)", err, d.methods)
			}
			defer c.Close()
			if c.Hello.Protocol != tc.protocol {
				t.Errorf("hello protocol = %d, want %d", c.Hello.Protocol, tc.protocol)
			}
			if first.Sent != tc.wantSent {
				t.Fatalf("first.Sent = %v, want %v", first.Sent, tc.wantSent)
			}
			if tc.wantSent && (first.Err != nil || res.Lint != "checked /w/a.json") {
				t.Errorf("first call: err %v, lint %q; want the daemon's answer", first.Err, res.Lint)
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			if got := slices.Sorted(slices.Values(d.methods)); !slices.Equal(got, []string{MethodHello, MethodNotifyChange}) {
				t.Errorf("the daemon saw %v, want hello and notify_change", d.methods)
			}
		})
	}
}
