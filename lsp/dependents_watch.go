package lsp

import (
	"context"
	"path"
	"sync"

	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file lets an ImportIndex learn from the workspace's Watcher which
// files changed, appeared or went, so that a call stats and reads only
// those instead of every file under the root. The index trusts what the
// watcher says only while the watcher is complete (Watcher.Complete: no
// directory left unwatched, no event lost), after its events up to the
// call have been delivered (Subscription.Sync), and after one call under
// the subscription has stat'ed every file (changes made before the
// subscription began were never seen).

// indexWatch is an ImportIndex's subscription and what it has seen since
// the last call took it.
type indexWatch struct {
	mu      sync.Mutex      // guards every field
	sub     *Subscription   // to the workspace's Watcher; nil when not watching
	gen     int             // counts subscriptions, so a call primes only the one it began under
	primed  int             // the gen under which every file was stat'ed; 0: none
	changed map[string]bool // root-relative paths of files changed, created or deleted since the last take
	relist  bool            // files appeared or went, or the ignore rules changed, since the last take
}

// watchSeen is what one call takes from indexWatch.
type watchSeen struct {
	synced   bool            // watching, complete, and every event up to the call delivered
	complete bool            // synced, and primed: changed is every file that needs a stat
	gen      int             // the subscription's gen, for primed
	changed  map[string]bool // as indexWatch.changed
	relist   bool            // as indexWatch.relist
}

// Watch makes the index learn file changes from w, the Watcher of the
// workspace that holds the index's root; nil stops watching. A Client that
// keeps an index calls it from Client.Watch.
func (ix *ImportIndex) Watch(w *Watcher) {
	iw := &ix.watch
	iw.mu.Lock()
	old := iw.sub
	iw.sub, iw.changed, iw.relist = nil, nil, false
	iw.gen++
	iw.mu.Unlock()
	if old != nil {
		old.Close()
	}
	if w == nil {
		return
	}
	sub := w.Subscribe(ix.filesChanged)
	iw.mu.Lock()
	iw.sub = sub
	iw.mu.Unlock()
}

// filesChanged records a batch of the watcher's events under the root.
func (ix *ImportIndex) filesChanged(events []FileEvent) {
	iw := &ix.watch
	iw.mu.Lock()
	defer iw.mu.Unlock()
	for _, ev := range events {
		rel, inside := ws.Rel(ix.root, ev.Path)
		if !inside || rel == "." {
			continue
		}
		if iw.changed == nil {
			iw.changed = make(map[string]bool)
		}
		iw.changed[rel] = true
		switch base := path.Base(rel); {
		case ev.Type != FileChanged, base == ".gitignore", base == compileFlags:
			iw.relist = true
		}
	}
}

// take returns what the watcher saw since the last take, after waiting,
// within ctx, for the events of changes made before the call.
func (iw *indexWatch) take(ctx context.Context) watchSeen {
	iw.mu.Lock()
	sub, gen := iw.sub, iw.gen
	iw.mu.Unlock()
	if sub == nil || sub.Sync(ctx) != nil || !sub.w.Complete() {
		return watchSeen{}
	}
	iw.mu.Lock()
	defer iw.mu.Unlock()
	if iw.gen != gen {
		return watchSeen{} // the subscription changed meanwhile
	}
	seen := watchSeen{synced: true, complete: iw.primed == gen, gen: gen, changed: iw.changed, relist: iw.relist}
	iw.changed, iw.relist = nil, false
	return seen
}

// prime records that every file was stat'ed during a call that took seen:
// from then on, the changes the watcher reports are all there is to stat.
func (iw *indexWatch) prime(seen watchSeen) {
	if !seen.synced {
		return
	}
	iw.mu.Lock()
	if iw.gen == seen.gen {
		iw.primed = seen.gen
	}
	iw.mu.Unlock()
}

// unprime makes the next call stat every file: a failed call lost what the
// watcher had seen.
func (iw *indexWatch) unprime() {
	iw.mu.Lock()
	iw.primed = 0
	iw.mu.Unlock()
}
