package sidecar

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The publish channel (DESIGN.md "Socket and wire protocol", `subscribe`):
// a connection that sends `subscribe` gets a `published` notification
// (JSON-RPC 2.0, no id) for every file of every check the daemon's engine
// makes from then on — hooks, notify, `hooks run`, diagnose — until it
// disconnects. Each check yields one notification per changed file, clean
// ones included (diagnostics []), then one per other file in its result.
// A subscriber that reads too slowly loses the oldest notifications beyond
// SubscriberQueue (the next one it gets says how many in Dropped); checks
// never wait for subscribers. A subscriber keeps the daemon from idling
// out.

// subscriberWriteTimeout bounds one notification's write: a subscriber
// whose socket takes no data for this long is disconnected.
const subscriberWriteTimeout = 30 * time.Second

// subscribe serves the subscribe method on conn: it registers the
// connection (a second subscribe on it changes nothing) until it closes.
func (s *Server) subscribe(conn *jsonrpc2.Conn) (wire.SubscribeResult, error) {
	sub := &subscriber{
		conn: conn, log: s.Log, wake: make(chan struct{}, 1), done: make(chan struct{}),
		onDrop: func() { s.count("published_dropped") },
	}
	again := !s.Engine.Subscribe(conn, sub)
	if again {
		return wire.SubscribeResult{Queue: wire.SubscriberQueue}, nil
	}
	s.inflight.Add(1) // a subscriber keeps the daemon from idling out
	s.count("subscriptions")
	s.Log.Info("subscribed")
	go sub.run()
	go func() {
		<-conn.DisconnectNotify()
		s.Engine.Unsubscribe(conn)
		close(sub.done)
		s.lastUse.Store(time.Now().UnixNano())
		s.inflight.Add(-1)
		s.Log.Info("unsubscribed")
	}()
	return wire.SubscribeResult{Queue: wire.SubscriberQueue}, nil
}

// notifier sends notifications on a connection (a *jsonrpc2.Conn).
type notifier interface {
	Notify(ctx context.Context, method string, params any, opts ...jsonrpc2.CallOption) error
	Close() error
}

var _ notifier = (*jsonrpc2.Conn)(nil)

var _ engine.Subscriber = (*subscriber)(nil)

// subscriber is one subscribed connection: a bounded queue that the
// engine's publish fills and run drains onto the connection.
type subscriber struct {
	conn   notifier
	log    *slog.Logger
	onDrop func()        // called once per dropped notification
	wake   chan struct{} // 1-buffered: the queue has something
	done   chan struct{} // closed when the connection is gone

	mu      sync.Mutex       // guards queue and dropped
	queue   []wire.Published // oldest first, at most SubscriberQueue
	dropped int64            // dropped since the last notification sent
}

// Push queues msgs, dropping the oldest past SubscriberQueue; it never
// blocks on the connection.
func (s *subscriber) Push(msgs []wire.Published) {
	var drops int
	s.mu.Lock()
	for _, m := range msgs {
		if len(s.queue) == wire.SubscriberQueue {
			s.queue = s.queue[1:]
			s.dropped++
			drops++
		}
		s.queue = append(s.queue, m)
	}
	s.mu.Unlock()
	for range drops {
		s.onDrop()
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// next pops the oldest notification, stamped with the drops before it.
func (s *subscriber) next() (wire.Published, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return wire.Published{}, false
	}
	m := s.queue[0]
	s.queue[0] = wire.Published{} // let the diagnostics go
	s.queue = s.queue[1:]
	m.Dropped, s.dropped = s.dropped, 0
	return m, true
}

// run sends queued notifications until the connection is gone. A write
// stuck for subscriberWriteTimeout closes the connection.
func (s *subscriber) run() {
	for {
		select {
		case <-s.done:
			return
		case <-s.wake:
		}
		for {
			m, ok := s.next()
			if !ok {
				break
			}
			stuck := time.AfterFunc(subscriberWriteTimeout, func() {
				s.log.Warn("subscriber stopped reading; disconnecting it", "after", subscriberWriteTimeout)
				_ = s.conn.Close()
			})
			err := s.conn.Notify(context.Background(), wire.MethodPublished, m)
			stuck.Stop()
			if err != nil {
				return // closed: the disconnect watcher unregisters it
			}
		}
	}
}
