package lsp

import (
	"context"

	"github.com/lsp-hook/lsp-hook/config"
)

// inOrderMethod is the request afterInOrder sends. No server implements
// it: a "$/" request is answered with MethodNotFound (LSP 3.17 "$
// Notifications and Requests"), which is all the answer needed.
const inOrderMethod = "$/lsp-hook/inOrder"

// afterInOrder sends, when the server handles its messages in order
// (config.SignalInOrder in use: clangd --sync), a request no server
// implements, and returns a channel closed once it is answered (or the
// call failed, or ctx ended): every notification sent before it has then
// been handled to the end, its publications sent ahead of the answer.
// It returns nil for any other server. It is a check's last send, so its
// answer tells that the whole check has been answered (waitFresh's
// others): nothing more is coming, and no settle window is needed.
func (c *Client) afterInOrder(ctx context.Context) <-chan struct{} {
	if !c.inOrder() {
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := c.call(ctx, inOrderMethod, struct{}{}, nil)
		c.log.Debug("in-order request answered", "err", err)
	}()
	return done
}

// inOrder reports whether the server handles its messages in order
// (config.SignalInOrder in use: the catalogue's clangd, run with --sync).
func (c *Client) inOrder() bool {
	return c.server.DoneSignal == config.SignalInOrder && c.signalling()
}
