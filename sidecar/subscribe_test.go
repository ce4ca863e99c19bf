package sidecar

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// subscribeOver runs Subscribe against the daemon at socket in the
// background, and returns the notifications channel and a func that ends
// the subscription and returns Subscribe's error. It returns once the
// subscription is in place.
func subscribeOver(t *testing.T, socket, root string) (<-chan wire.Published, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan wire.Published, 100)
	ready := make(chan wire.HelloResult, 1)
	done := make(chan error, 1)
	go func() {
		done <- wire.Subscribe(ctx, "test", wire.StartOptions{Socket: socket, Root: root, Executable: "/nonexistent/lsp-hook"},
			func(h wire.HelloResult) { ready <- h },
			func(m wire.Published) bool { got <- m; return true })
	}()
	select {
	case h := <-ready:
		if h.Root != root {
			t.Errorf("hello root = %s, want %s", h.Root, root)
		}
	case err := <-done:
		t.Fatalf("Subscribe: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no subscription within 10s")
	}
	var once sync.Once
	var err error
	stop := func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { stop() })
	return got, stop
}

func next(t *testing.T, ch <-chan wire.Published) wire.Published {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no published notification within 10s")
	}
	return wire.Published{}
}

// TestSubscribe: a subscriber gets one notification per file of each
// check (clean ones too), in order, with the check's source and block;
// it is unregistered when it disconnects.
func TestSubscribe(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	cfg := config.Default()
	cfg.LSP.Enabled = false
	e := engine.NewEngine(root, cfg, nil, testdaemon.Discard())
	socket := serve(t, e)
	got, stop := subscribeOver(t, socket, root)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	bad, good := "[1,,]", "{}"
	var res wire.Result
	err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Source: "test-src", Publish: true, Changes: []wire.Change{
		{Path: "bad.json", Content: &bad}, {Path: filepath.Join(root, "good.json"), Content: &good},
	}}, &res)
	if err != nil {
		t.Fatal(err)
	}
	m1, m2 := next(t, got), next(t, got)
	if m1.Path != filepath.Join(root, "bad.json") || m1.Rel != "bad.json" || len(m1.Diagnostics) == 0 ||
		m1.Source != "test-src" || m1.Lint != res.Lint || !strings.Contains(m1.Lint, "bad.json") || m1.Dropped != 0 {
		t.Errorf("first notification = %+v", m1)
	}
	if m2.Rel != "good.json" || m2.Diagnostics == nil || len(m2.Diagnostics) != 0 || m2.Lint != res.Lint {
		t.Errorf("second notification = %+v", m2)
	}
	_ = c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Publish: true, Changes: []wire.Change{{Path: "good.json", Content: &good}}}, &res)
	if m := next(t, got); m.Rel != "good.json" || m.Lint != "" || m.Source != "" {
		t.Errorf("third notification = %+v", m)
	}

	var st StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil || st.Counters["subscriptions"] != 1 {
		t.Errorf("status counters = %v, %v", st.Counters, err)
	}
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Subscribe after cancel = %v, want context.Canceled", err)
	}
	if !waitUntil(5*time.Second, func() bool { return e.Subscribers() == 0 }) {
		t.Errorf("subscriber still registered after disconnecting")
	}
}

// TestSubscribeDaemonGone: Subscribe ends with ErrDaemonClosed when the
// daemon shuts down.
func TestSubscribeDaemonGone(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	socket := startServer(t, root)
	_, stop := subscribeOver(t, socket, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	_ = c.Call(ctx, wire.MethodShutdown, struct{}{}, nil)
	done := make(chan error, 1)
	go func() { done <- stop() }()
	select {
	case err := <-done:
		if !errors.Is(err, wire.ErrDaemonClosed) && !errors.Is(err, context.Canceled) {
			t.Errorf("Subscribe = %v, want ErrDaemonClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Subscribe still running 10s after shutdown")
	}
}

// TestSlowSubscriberNeverBlocksChecks: a subscriber that never reads
// fills its socket, then its queue; checks go on at full speed and the
// oldest notifications are dropped and counted.
func TestSlowSubscriberNeverBlocksChecks(t *testing.T) {
	root, _ := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	socket := startServer(t, root)
	nc, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	req := `{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{}}`
	if _, err := fmt.Fprintf(nc, "Content-Length: %d\r\n\r\n%s", len(req), req); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	var st StatusResult
	if !waitUntil(5*time.Second, func() bool {
		_ = c.Call(ctx, wire.MethodStatus, struct{}{}, &st)
		return st.Counters["subscriptions"] == 1
	}) {
		t.Fatalf("the raw subscriber was not registered: %v", st.Counters)
	}
	// Long paths make big notifications, which fill the socket buffer
	// quickly.
	text, dir := "[1,,]", strings.Repeat("d/", 1000)
	begin := time.Now()
	for i := range 2 * wire.SubscriberQueue {
		var res wire.Result
		if err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Publish: true, Changes: []wire.Change{{Path: fmt.Sprintf("%sf%d.json", dir, i), Content: &text}}}, &res); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(begin); d > 30*time.Second {
		t.Errorf("%d checks took %v with a stuck subscriber", 2*wire.SubscriberQueue, d)
	}
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
		t.Fatal(err)
	}
	if st.Counters["published_dropped"] == 0 {
		t.Errorf("nothing dropped for a subscriber that never reads: %v", st.Counters)
	}
}

// blockingConn is a notifier whose Notify waits for release.
type blockingConn struct {
	release chan struct{}
	mu      sync.Mutex
	sent    []wire.Published
}

func (b *blockingConn) Notify(_ context.Context, _ string, params any, _ ...jsonrpc2.CallOption) error {
	<-b.release
	b.mu.Lock()
	b.sent = append(b.sent, params.(wire.Published))
	b.mu.Unlock()
	return nil
}

func (b *blockingConn) Close() error { return nil }

// TestSubscriberQueueDropsOldest: push never blocks; past the queue's
// size the oldest go, and the next notification sent says how many.
func TestSubscriberQueueDropsOldest(t *testing.T) {
	bc := &blockingConn{release: make(chan struct{})}
	var drops int
	s := &subscriber{conn: bc, log: testdaemon.Discard(), wake: make(chan struct{}, 1), done: make(chan struct{}), onDrop: func() { drops++ }}
	var msgs []wire.Published
	for i := range wire.SubscriberQueue + 50 {
		msgs = append(msgs, wire.Published{Rel: fmt.Sprint(i)})
	}
	s.Push(msgs[:10])
	s.Push(msgs[10:])
	if drops != 50 || len(s.queue) != wire.SubscriberQueue || s.queue[0].Rel != "50" {
		t.Fatalf("drops %d, queue %d starting at %s", drops, len(s.queue), s.queue[0].Rel)
	}
	go s.run()
	close(bc.release)
	if !waitUntil(5*time.Second, func() bool {
		bc.mu.Lock()
		defer bc.mu.Unlock()
		return len(bc.sent) == wire.SubscriberQueue
	}) {
		t.Fatal("queue not drained")
	}
	close(s.done)
	if bc.sent[0].Rel != "50" || bc.sent[0].Dropped != 50 || bc.sent[1].Dropped != 0 || bc.sent[wire.SubscriberQueue-1].Rel != fmt.Sprint(wire.SubscriberQueue+49) {
		t.Errorf("sent %+v … %+v", bc.sent[0], bc.sent[wire.SubscriberQueue-1])
	}
}

// waitUntil polls cond until it holds or d passes.
func waitUntil(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}
