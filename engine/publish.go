package engine

import (
	"slices"
	"sync"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The publish channel's engine side (DESIGN.md "Socket and wire protocol",
// `subscribe`): every check whose request asks for it
// (NotifyChangeParams.Publish) is handed, as `published` notifications,
// to each of the engine's subscribers. The daemon (package sidecar) owns
// the subscribers themselves: a connection's bounded queue and its writer.

// Subscriber receives the notifications of an engine's checks. Push must
// not block: a check never waits for its subscribers.
type Subscriber interface {
	Push(msgs []wire.Published)
}

// subscribers holds an engine's subscribers. The zero value is empty and
// ready.
type subscribers struct {
	mu   sync.Mutex         // guards subs
	subs map[any]Subscriber // key (the daemon's connection) → subscriber
}

// Subscribe adds sub under key unless key has a subscriber already, and
// reports whether it added it.
func (e *Engine) Subscribe(key any, sub Subscriber) bool {
	e.subs.mu.Lock()
	defer e.subs.mu.Unlock()
	if _, again := e.subs.subs[key]; again {
		return false
	}
	if e.subs.subs == nil {
		e.subs.subs = make(map[any]Subscriber)
	}
	e.subs.subs[key] = sub
	return true
}

// Unsubscribe removes key's subscriber, if it has one.
func (e *Engine) Unsubscribe(key any) {
	e.subs.mu.Lock()
	defer e.subs.mu.Unlock()
	delete(e.subs.subs, key)
}

// Subscribers returns how many subscribers e has.
func (e *Engine) Subscribers() int {
	e.subs.mu.Lock()
	defer e.subs.mu.Unlock()
	return len(e.subs.subs)
}

// publish pushes a check's notifications (publishedOf) to every
// subscriber of e when the request asked for it (NotifyChangeParams.Publish);
// it never blocks on them. Engine.Check calls it last.
func (e *Engine) publish(p wire.NotifyChangeParams, targets []target, res wire.Result) {
	if !p.Publish {
		return
	}
	e.subs.mu.Lock()
	subs := make([]Subscriber, 0, len(e.subs.subs))
	for _, s := range e.subs.subs {
		subs = append(subs, s)
	}
	e.subs.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	msgs := publishedOf(p.Source, targets, res)
	for _, s := range subs {
		s.Push(msgs)
	}
}

// publishedOf turns a check's result into its notifications: each target
// in order (clean ones with empty diagnostics), then the other files of
// res. Diagnostics are copied: the caller keeps res.
func publishedOf(source string, targets []target, res wire.Result) []wire.Published {
	byPath := make(map[string][]diag.Diagnostic, len(res.Files))
	for _, f := range res.Files {
		byPath[f.Path] = f.Diagnostics
	}
	out := make([]wire.Published, 0, len(targets)+len(res.Files))
	seen := make(map[string]bool, len(targets))
	for _, t := range targets {
		if seen[t.path] {
			continue
		}
		seen[t.path] = true
		out = append(out, wire.Published{Path: t.path, Rel: t.rel, Diagnostics: cloneDiags(byPath[t.path]), Lint: res.Lint, Source: source})
	}
	for _, f := range res.Files {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, wire.Published{Path: f.Path, Rel: f.Rel, Diagnostics: cloneDiags(f.Diagnostics), Lint: res.Lint, Source: source})
		}
	}
	return out
}

func cloneDiags(ds []diag.Diagnostic) []diag.Diagnostic {
	if ds == nil {
		return []diag.Diagnostic{}
	}
	return slices.Clone(ds)
}
