package lsp

import (
	"context"
	"slices"
	"time"
)

// warmUpTimeout bounds the checks that warm a prewarmed server's project:
// the server's start-up, its first answer for one file and the re-checks.
const warmUpTimeout = 2 * time.Minute

// warmUpRechecks is how many times a prewarmed server re-checks its file
// after the first answer, the text unchanged (Doc.Recheck: a didChange
// of the same text), so that the first edit of the session finds the
// server's change path run, not only its open path; warmUpRecheckTime
// bounds them, so a project whose every check is slow stops early. pyright
// and tsserver run on Node, whose compiler optimizes a function only
// after it has run often: measured with typescript-language-server 5.3.0,
// prewarm checking src/main.ts of testdata/langs/ts, then a type error
// written to it 10 s after SessionStart (a fresh copy and daemon each),
// the hook's p50 was 37 ms over 18 sessions with 2 re-checks, 28 ms over
// 13 with 6, 26 ms over 8 with 12 (a warm edit: 20.7 ms). gopls gains
// little (main.go of testdata/langs/go: 21.5 and 19.5 ms with 2 and 12).
const warmUpRechecks = 8

// warmUpRecheckTime bounds the re-checks of warmUpRechecks, counted
// from the first answer.
const warmUpRecheckTime = time.Second

// Prewarm starts, in the background, the servers the files at paths need
// (each server and root once: config ServersForPath, FindRoot), so that
// the first change of a session finds them started, and then checks, in
// the background too, the first of paths each started server serves in
// that root, with its text on disk, as a hook's check would. A server
// does its costly first-open work — gopls type-checks the package,
// pyright binds builtins and the file's imports, tsserver builds the
// configured project — only when a document is opened, so starting it
// alone leaves most of the first edit's cost in place. The caller lists
// per server and root the file the user changed last (sidecar's
// samplePaths: newest modification time first), so the one document
// opened is one the user touched; the answer is kept like any check's
// (the next change of that file is a didChange) and the janitor closes
// the document later like any other.
//
// What prewarm cannot warm is gopls's first change of a file it has not
// open (bench section 8's "another file"): gopls re-runs `go mod tidy`
// for it. It keeps tidy's result per snapshot and drops it when a .go
// file turns "saved" (gopls v0.23.0 internal/cache/snapshot.go,
// fileWasSaved: the file's first didOpen with the text on disk, or a
// change on disk to a file not open), and its diagnostics pass
// publishes only once tidy is done (server/diagnostics.go, diagnose).
// Measured on testdata/langs/go, greet/greet.go prewarmed and main.go
// edited 10 s later: of the 42 ms from didOpen to publish, the tidy `go`
// process took 30 (gopls -debug trace spans; type-checking main and its
// analysis ended 19 ms before it); with `go mod tidy` made a no-op the
// edit's server time fell from 48–96 ms to 18–29 ms (warm edits: median
// 12). No warm-up keeps it: the edit itself drops the result, and only a
// document already open with its text saved escapes, that is, opening a
// file the user did not touch, which prewarm does not do.
//
// It returns the started servers as "name root" pairs, sorted; a server
// already running, or in its crash back-off, is left as it is, not
// listed, and nothing is opened in it. paths are absolute; those no
// server serves are ignored.
func (m *Manager) Prewarm(paths []string) []string {
	seen := make(map[entryKey]bool)
	var started []string
	for _, p := range paths {
		for _, s := range m.cfg.ServersForPath(p) {
			k := entryKey{s.Name, FindRoot(p, s.RootMarkers, m.workspace)}
			if seen[k] {
				continue
			}
			seen[k] = true
			e, now, err := m.acquire(k, nil)
			if err != nil {
				m.log.Debug("not prewarming", "server", k.server, "root", k.root, "err", err)
				continue
			}
			m.release(e)
			if !now {
				continue
			}
			started = append(started, k.server+" "+k.root)
			m.background(func() { m.warmUp(k, p) })
		}
	}
	slices.Sort(started)
	if len(started) > 0 {
		m.log.Info("prewarming servers", "servers", started)
	}
	return started
}

// warmUp checks path, as read from disk, in k's server alone, then,
// when that answer was fresh, re-checks it warmUpRechecks times (within
// warmUpRecheckTime of the first answer), unless
// a re-check of the server is a reopen (IgnoresUnchangedText), which runs
// its open path again. A text read from disk is never sent once the file
// holds another (errMovedOn), so a warm-up never rolls back an edit.
func (m *Manager) warmUp(k entryKey, path string) {
	ctx, cancel := context.WithTimeout(m.ctx, warmUpTimeout)
	defer cancel()
	begin := time.Now()
	rechecks := warmUpRechecks
	if m.cfg.LSP.Servers[k.server].IgnoresUnchangedText {
		rechecks = 0
	}
	var o Outcome
	var answered time.Time
	for i := 0; i <= rechecks; i++ {
		if i == 1 {
			answered = time.Now()
		} else if i > 1 && time.Since(answered) > warmUpRecheckTime {
			rechecks = i - 1
			break
		}
		text, err := readBounded(path, maxConvertRead)
		if err != nil {
			m.log.Info("prewarm: not checking", "server", k.server, "root", k.root, "path", path, "err", err)
			return
		}
		o = m.checkOne(ctx, k, []Doc{{Path: path, Text: text, FromDisk: true, Recheck: i > 0, WarmUp: true}}, EditSettle, true)
		if o.Freshness != Fresh {
			rechecks = i
			break
		}
	}
	m.log.Info("prewarm checked", "server", k.server, "root", k.root, "path", path, "rechecks", rechecks,
		"freshness", o.Freshness, "elapsed_ms", time.Since(begin).Milliseconds(), "err", o.Err)
}
