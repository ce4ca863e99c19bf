package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/diag"
)

// The publish channel's wire side (served by sidecar/subscribe.go) and
// its client, Subscribe.

// Method names of the publish channel.
const (
	MethodSubscribe = "subscribe" // request: SubscribeParams → SubscribeResult
	MethodPublished = "published" // notification, daemon → subscriber: Published
)

// SubscriberQueue is how many notifications the daemon holds for one
// subscriber that has not read them yet; past it the oldest are dropped.
const SubscriberQueue = 256

// SubscribeParams is subscribe's params: none yet.
type SubscribeParams struct{}

// SubscribeResult answers subscribe: Queue is SubscriberQueue.
type SubscribeResult struct {
	Queue int `json:"queue"`
}

// Published is one `published` notification: a file's diagnostics from one
// check. Path is absolute, Rel root-relative (slash-separated);
// Diagnostics are those shown at the configured severity ([] when the file
// is clean); Lint is the whole check's lint block (the same for every file
// of the check; "" when clean); Source names who asked for the check
// ("claude", "notify", "hooks:ID"); Dropped counts notifications this
// subscriber lost just before this one because it read too slowly.
type Published struct {
	Path        string            `json:"path"`
	Rel         string            `json:"rel"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Lint        string            `json:"lint"`
	Source      string            `json:"source,omitempty"`
	Dropped     int64             `json:"dropped,omitempty"`
}

// ErrDaemonClosed is returned by Subscribe when the daemon closes the
// connection (it stopped, or idled out with no subscriber).
var ErrDaemonClosed = errors.New("the daemon closed the connection")

// Subscribe subscribes to the publish channel of the daemon on opts.Socket
// (started when none answers, as Connect does) and calls fn with each
// notification, in order, until fn returns false (then nil), ctx ends
// (ctx.Err()) or the daemon closes the connection (ErrDaemonClosed).
// ready, when not nil, is called once with the daemon's hello when the
// subscription is in place; notifications may come before it.
func Subscribe(ctx context.Context, version string, opts StartOptions, ready func(HelloResult), fn func(Published) bool) error {
	c, _, err := Connect(ctx, version, opts) // start a daemon of our protocol if needed
	if err != nil {
		return err
	}
	hello := c.Hello
	c.Close()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", opts.Socket)
	if err != nil {
		return fmt.Errorf("connecting to daemon at %s: %w", opts.Socket, err)
	}
	stop := make(chan struct{})
	defer close(stop)
	ch := make(chan Published)
	h := publishedHandler{ch: ch, stop: stop}
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(nc, jsonrpc2.VSCodeObjectCodec{}), h)
	defer conn.Close()
	subscribed := make(chan error, 1)
	go func() {
		if err := conn.Call(ctx, MethodHello, HelloParams{ClientVersion: version, Protocol: ProtocolVersion}, &hello); err != nil {
			subscribed <- fmt.Errorf("greeting daemon at %s: %w", opts.Socket, err)
			return
		}
		var res SubscribeResult
		subscribed <- conn.Call(ctx, MethodSubscribe, SubscribeParams{}, &res)
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-conn.DisconnectNotify():
			return ErrDaemonClosed
		case err := <-subscribed:
			if err != nil {
				return fmt.Errorf("subscribing: %w", err)
			}
			if ready != nil {
				ready(hello)
			}
		case m := <-ch:
			if !fn(m) {
				return nil
			}
		}
	}
}

// publishedHandler hands `published` notifications to ch, in the order
// they arrive (jsonrpc2 calls it from the connection's read loop), until
// stop closes; any request gets MethodNotFound.
type publishedHandler struct {
	ch   chan<- Published
	stop <-chan struct{}
}

// Handle decodes a published notification and waits for the subscriber to
// take it.
func (h publishedHandler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if !req.Notif {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "subscriber handles no requests"})
		return
	}
	if req.Method != MethodPublished || req.Params == nil {
		return
	}
	var m Published
	if err := json.Unmarshal(*req.Params, &m); err != nil {
		return
	}
	select {
	case h.ch <- m:
	case <-h.stop:
	}
}
