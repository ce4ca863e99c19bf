package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	default:
		answerScripted(ctx, conn, req)
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
	go serveOn(l, d)
	return socket
}

// serveOn serves h (under jsonrpc2.AsyncHandler) on each connection l
// accepts, until l is closed.
func serveOn(l net.Listener, h jsonrpc2.Handler) {
	for {
		nc, err := l.Accept()
		if err != nil {
			return
		}
		jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(nc, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(h))
	}
}

// answerScripted answers a scripted daemon's requests other than hello:
// notify_change of one change with a block naming its file, anything else
// with MethodNotFound.
func answerScripted(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Method != MethodNotifyChange {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: req.Method})
		return
	}
	var p NotifyChangeParams
	if err := json.Unmarshal(*req.Params, &p); err != nil || len(p.Changes) != 1 {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "want one change"})
		return
	}
	_ = conn.Reply(ctx, req.ID, Result{Lint: "checked " + p.Changes[0].Path})
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

// helloDaemon answers hello at once with its protocol and notify_change
// with a block naming the file; it records the methods it was asked.
type helloDaemon struct {
	protocol int
	delay    time.Duration // before answering a notify_change
	mu       sync.Mutex
	methods  []string
}

// Handle implements jsonrpc2.Handler.
func (d *helloDaemon) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	d.mu.Lock()
	d.methods = append(d.methods, req.Method)
	d.mu.Unlock()
	switch req.Method {
	case MethodHello:
		_ = conn.Reply(ctx, req.ID, HelloResult{Version: "scripted", Protocol: d.protocol, Pid: 1, Root: "/w"})
	default:
		time.Sleep(d.delay)
		answerScripted(ctx, conn, req)
	}
}

// TestConnectWhileAnotherStarts plays hooks that find no daemon while
// another hook starts one and holds the start lock all along: once the
// daemon answers, each connects on its own and its first call is made
// (the lock's holder is not waited for); a daemon of an older protocol,
// which the holder is replacing, gets no call and no connection is kept.
// The hooks once took the lock in turn to dial: on two loaded cores the
// last of 200 waited past their 20 s and answered in-process.
func TestConnectWhileAnotherStarts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		protocol int
		connects bool
	}{
		{"our protocol", ProtocolVersion, true},
		{"an older protocol being replaced", ProtocolVersion - 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Chmod(dir, 0o700); err != nil { // as the runtime dir is (CheckSocketPath)
				t.Fatal(err)
			}
			socket := filepath.Join(dir, "d.sock")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			unlock, err := lockStart(ctx, socket, nil) // the hook starting the daemon
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			d := &helloDaemon{protocol: tc.protocol}
			go func() { // the daemon listens a moment later; the lock stays held
				time.Sleep(200 * time.Millisecond)
				l, err := net.Listen("unix", socket)
				if err != nil {
					t.Errorf("listening: %v", err)
					return
				}
				t.Cleanup(func() { l.Close() })
				serveOn(l, d)
			}()
			const hooks = 20
			var wg sync.WaitGroup
			errs := make([]error, hooks)
			for i := range hooks {
				wg.Go(func() {
					var res Result
					path := fmt.Sprintf("/w/f%d.json", i)
					first := &Call{Method: MethodNotifyChange, Result: &res,
						Params: NotifyChangeParams{Changes: []Change{{Path: path, Mode: ModeEdit}}, BudgetMS: 1000}}
					c, started, err := ConnectWith(ctx, "test", StartOptions{Socket: socket, Wait: 2 * time.Second}, first)
					switch {
					case !tc.connects && err == nil:
						c.Close()
						errs[i] = fmt.Errorf("connected to a daemon of protocol %d", c.Hello.Protocol)
					case !tc.connects:
						if first.Sent || !strings.Contains(err.Error(), "waiting for another hook to start the daemon") {
							errs[i] = fmt.Errorf("first call sent %v (%v); error %v, want the wait for the lock's holder", first.Sent, first.Err, err)
						}
					case err != nil:
						errs[i] = fmt.Errorf("connecting: %w", err)
					default:
						defer c.Close()
						if started || !first.Sent || first.Err != nil || res.Lint != "checked "+path {
							errs[i] = fmt.Errorf("started %v, first sent %v (err %v), lint %q; want the daemon's answer", started, first.Sent, first.Err, res.Lint)
						}
					}
				})
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("hook %d: %v", i, err)
				}
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			if n := slices.Index(d.methods, MethodNotifyChange); !tc.connects && n >= 0 {
				t.Errorf("the daemon being replaced was asked %v", d.methods)
			}
		})
	}
}

// TestConnectFirstCallOutlivesTheWait: a hook that found no daemon, took
// the start lock and then found one answering (another hook started it)
// makes its first call under its whole budget, not the wait for a daemon
// to answer (StartOptions.Wait, half the cold budget): a daemon just
// started may take that long to start the servers of its first check.
// The daemon here drops the hook's first connection (so the hook goes on
// to the lock), then answers notify_change after 600 ms, past a 200 ms
// wait. The call was once awaited within the wait, and the hook answered
// in-process that the daemon was unavailable.
func TestConnectFirstCallOutlivesTheWait(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil { // as the runtime dir is (CheckSocketPath)
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "d.sock")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Skipf("no unix socket here: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	d := &helloDaemon{protocol: ProtocolVersion, delay: 600 * time.Millisecond}
	go func() {
		nc, err := l.Accept()
		if err != nil {
			return
		}
		nc.Close() // the hook's first dial fails
		serveOn(l, d)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res Result
	first := &Call{Method: MethodNotifyChange, Result: &res,
		Params: NotifyChangeParams{Changes: []Change{{Path: "/w/a.json", Mode: ModeEdit}}, BudgetMS: 5000}}
	c, started, err := ConnectWith(ctx, "test", StartOptions{Socket: socket, Wait: 200 * time.Millisecond}, first)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	defer c.Close()
	if started || !first.Sent || first.Err != nil || res.Lint != "checked /w/a.json" {
		t.Errorf("started %v, first sent %v (err %v), lint %q; want the daemon's answer", started, first.Sent, first.Err, res.Lint)
	}
}
