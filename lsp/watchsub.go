package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// This file is the delivery side of the Watcher: subscriptions, each with
// its own goroutine and queue, and the barrier that lets a check skip the
// debounce for changes already made (Subscription.Sync, Watcher.Flush).

// Subscription is one subscriber of a Watcher: a function that receives
// every batch, in order, on a goroutine of its own, so a slow subscriber
// (a server whose stdin is full) delays only itself.
type Subscription struct {
	w  *Watcher
	id int
	s  *subscriber
}

// Subscribe registers fn to receive every batch of events from now on.
func (w *Watcher) Subscribe(fn func(events []FileEvent)) *Subscription {
	s := &subscriber{fn: fn, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	w.mu.Lock()
	id := w.nextSub
	w.nextSub++
	if w.closed {
		s.stopped = true
	} else {
		w.subs[id] = s
	}
	w.mu.Unlock()
	if !s.stopped {
		go s.run()
	}
	return &Subscription{w: w, id: id, s: s}
}

// Close ends the subscription: fn is not called again once a call in
// progress returns.
func (sub *Subscription) Close() {
	sub.w.mu.Lock()
	delete(sub.w.subs, sub.id)
	sub.w.mu.Unlock()
	sub.s.close()
}

// Sync returns once every change made on disk before it was called has
// been processed by this subscription's function (skipping the debounce),
// or with ctx's error. Other subscriptions are not waited for.
func (sub *Subscription) Sync(ctx context.Context) error {
	if err := sub.w.handOver(ctx); err != nil {
		return err
	}
	done := make(chan struct{})
	sub.s.enqueue(nil, done)
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Flush is Sync for every subscription at once: it returns once every
// change made on disk before it was called has been processed by every
// subscriber, or with ctx's error, or an error after Close.
func (w *Watcher) Flush(ctx context.Context) error {
	if err := w.handOver(ctx); err != nil {
		return err
	}
	w.mu.Lock()
	var dones []chan struct{}
	for _, s := range w.subs {
		done := make(chan struct{})
		dones = append(dones, done)
		s.enqueue(nil, done)
	}
	w.mu.Unlock()
	for _, d := range dones {
		select {
		case <-d:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// handOver returns once every change made on disk before it was called has
// been handed to every subscriber's queue, skipping the debounce.
//
// Ordering comes from inotify itself: handOver writes one byte to a marker
// file in a private watched directory, and the kernel queues that event
// after every event already caused, so when it comes out of the queue,
// everything before it has been read. Two marker files are written in turn
// because inotify merges an event into an identical one still queued; with
// alternating names, consecutive marker events never merge, and the n-th
// marker event read answers the n-th handOver.
func (w *Watcher) handOver(ctx context.Context) error {
	ch := make(chan struct{})
	w.markMu.Lock()
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		w.markMu.Unlock()
		return errors.New("flushing watcher: closed")
	}
	w.issued++
	ticket := w.issued
	w.barriers[ticket] = ch
	w.mu.Unlock()
	_, err := w.markers[ticket%2].WriteAt([]byte{byte(ticket)}, 0)
	if err != nil {
		w.issued--
	}
	w.markMu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.barriers, ticket)
		w.mu.Unlock()
	}()
	if err != nil {
		return fmt.Errorf("flushing watcher: writing marker: %w", err)
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-w.done:
		return errors.New("flushing watcher: closed")
	}
}

// makeMarkers creates the private barrier directory and its two marker
// files, then watches it.
func (w *Watcher) makeMarkers() error {
	dir, err := os.MkdirTemp("", "lsp-hook-watch-")
	if err != nil {
		return fmt.Errorf("creating barrier directory: %w", err)
	}
	w.barrier = dir
	for i := range w.markers {
		f, err := os.OpenFile(filepath.Join(dir, "m"+strconv.Itoa(i)), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return fmt.Errorf("creating barrier marker: %w", err)
		}
		w.markers[i] = f
	}
	if err := w.fsw.Add(dir); err != nil {
		return fmt.Errorf("watching barrier directory: %w", err)
	}
	return nil
}

// closeMarkers closes the marker files and removes the barrier directory.
func (w *Watcher) closeMarkers() error {
	var errs []error
	for _, f := range w.markers {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	if w.barrier != "" {
		errs = append(errs, os.RemoveAll(w.barrier))
	}
	return errors.Join(errs...)
}

// isBarrier handles an event in the barrier directory: a marker write
// hands everything pending to the subscribers and answers the handOver it
// belongs to.
func (w *Watcher) isBarrier(ev fsnotify.Event) bool {
	if filepath.Dir(ev.Name) != w.barrier && ev.Name != w.barrier {
		return false
	}
	if !ev.Has(fsnotify.Write) {
		return true
	}
	w.deliver()
	w.mu.Lock()
	w.seen++
	if ch, ok := w.barriers[w.seen]; ok {
		close(ch)
	}
	w.mu.Unlock()
	return true
}

// deliver hands the pending batch to every subscriber.
func (w *Watcher) deliver() {
	w.mu.Lock()
	defer w.mu.Unlock()
	var batch []FileEvent
	for _, p := range w.order {
		if t, ok := w.pending[p]; ok {
			batch = append(batch, FileEvent{Path: p, Type: t})
		}
	}
	clear(w.pending)
	w.order = w.order[:0]
	if len(batch) == 0 {
		return
	}
	for _, s := range w.subs {
		s.enqueue(batch, nil)
	}
}

// subscriber is one Subscribe call: an ordered queue of batches drained by
// its own goroutine.
type subscriber struct {
	fn   func([]FileEvent)
	wake chan struct{} // 1-slot: the queue is not empty
	stop chan struct{}
	once sync.Once

	mu      sync.Mutex // guards queue and stopped
	queue   []queued
	stopped bool
}

type queued struct {
	events []FileEvent
	done   chan struct{} // closed after events are processed; may be nil
}

// enqueue queues a batch; after close, it only closes done (nobody will
// process anything any more, and a Flush must not wait for it).
func (s *subscriber) enqueue(events []FileEvent, done chan struct{}) {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		if done != nil {
			close(done)
		}
		return
	}
	s.queue = append(s.queue, queued{events, done})
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) run() {
	for {
		select {
		case <-s.wake:
		case <-s.stop:
			s.mu.Lock()
			q := s.queue
			s.queue, s.stopped = nil, true
			s.mu.Unlock()
			for _, item := range q {
				if item.done != nil {
					close(item.done)
				}
			}
			return
		}
		s.mu.Lock()
		q := s.queue
		s.queue = nil
		s.mu.Unlock()
		for _, item := range q {
			if len(item.events) > 0 {
				s.fn(item.events)
			}
			if item.done != nil {
				close(item.done)
			}
		}
	}
}

func (s *subscriber) close() { s.once.Do(func() { close(s.stop) }) }

// FilesChanged tells the server about changes on disk: the events that
// match one of its registered FileSystemWatchers (glob and kind) go out as
// one workspace/didChangeWatchedFiles notification {changes: [{uri, type}]}
// (LSP 3.17 "DidChangeWatchedFiles Notification"); a server that registered
// no watchers hears nothing. A document the server has open is the
// exception: its content is the client's to send, so instead of a created
// or changed event it is re-synced with didChange when the file now differs
// from the text last sent (someone else — a sed, git checkout, a formatter —
// wrote it), unless an Update is about to sync it anyway. (gopls answers a
// watched-file event for an open file with a wave of diagnostics computed
// from the text it had before, which would arrive during the next check.)
// An open document whose file is gone (deleted, or renamed away) is closed
// (didClose) before the deleted event goes out. It is the function
// Client.Watch subscribes; it returns when the notifications are written.
func (c *Client) FilesChanged(events []FileEvent) {
	c.forgetOwners(events)
	if c.Err() != nil {
		return
	}
	c.mu.Lock()
	open := make(map[string]bool, len(c.docs))
	for uri := range c.docs {
		open[uri] = true
	}
	c.mu.Unlock()
	watchers := c.regs.watchers()
	var changes []fileEventWire
	var resync, gone []string
	for _, ev := range events {
		uri := pathToURI(ev.Path)
		if open[uri] && ev.Type != FileDeleted {
			resync = append(resync, ev.Path)
			continue
		}
		if open[uri] {
			if _, err := os.Lstat(ev.Path); err == nil {
				resync = append(resync, ev.Path) // deleted and written again
				continue
			}
			gone = append(gone, ev.Path)
		}
		for _, w := range watchers {
			if w.matches(ev.Path, ev.Type, c.root) {
				changes = append(changes, fileEventWire{URI: uri, Type: ev.Type})
				break
			}
		}
	}
	// An open document whose file is gone is closed first: the server
	// would otherwise keep its text as an overlay (gopls does), and the
	// deleted file would go on defining and breaking things. What the
	// server publishes from here on may be its answer to the deletions,
	// which a hook naming a deleted file later counts (noteDeleted).
	var deleted, back []string
	for _, ev := range events {
		switch _, err := os.Lstat(ev.Path); {
		case ev.Type == FileDeleted && errors.Is(err, os.ErrNotExist):
			deleted = append(deleted, ev.Path)
		case ev.Type != FileDeleted && err == nil:
			back = append(back, ev.Path)
		}
	}
	c.forgetDeleted(back)
	c.noteDeleted(deleted)
	var comeOrGone []string
	for _, ev := range events {
		if ev.Type != FileChanged {
			comeOrGone = append(comeOrGone, ev.Path)
		}
	}
	c.noteEmbedded(comeOrGone)
	c.closeGone(gone)
	if len(changes) > 0 {
		c.noteWatched(changes)
		if err := c.notify("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: changes}); err != nil {
			c.log.Warn("sending watched file changes", "changes", len(changes), "err", err)
			return
		}
		c.log.Debug("sent watched file changes", "changes", len(changes), "events", len(events))
	}
	for _, path := range resync {
		c.resyncIfChanged(path)
	}
}
