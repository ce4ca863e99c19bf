package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/lsp-hook/lsp-hook/lsp"
)

// This file is section 9, peer (issue 18, item 6): per live language the
// peer has (Go, Python, TypeScript; it has no C), on two fresh copies of
// the project of testdata/langs, one for lsp-hook and one for the peer,
// each with its own daemon:
//
//  1. cold: the first edit of each, no daemon running (the hook starts the
//     daemon, the daemon the server);
//  2. warm: langN edits each (a type error on even runs, its fix on odd
//     ones), the hook called right after the write, as agents call it; the
//     two sides alternate which goes first, each once its tree is idle;
//  3. watcher first: langN/2 more edits on lsp-hook's copy with the hook
//     called watcherLag after the write, when the daemon's file watcher
//     has already passed the new text to the server and the hook rides on
//     a check that started earlier: the case that flatters a daemon with a
//     watcher, reported as its own row, not mixed into 2;
//  4. concurrent: peerBurstRounds edits each, every one followed by
//     peerBurst hooks at once on the edited file.
//
// Every answer is judged as in part 3: a type error must be reported on
// its line, a fixed line must not be (stale); wrong answers are counted.

// secPeer is 9: lsp-hook beside the peer on the same edits.
const secPeer section = "peer"

// peerBurst is how many hooks section 9 starts at once after one edit, and
// peerBurstRounds how many such edits each side gets.
const (
	peerBurst       = 8
	peerBurstRounds = 3
)

// watcherLag is how long after the write the watcher-first runs call the
// hook: past the watcher's debounce with room for its sync to reach the
// server.
const watcherLag = 2*lsp.DefaultDebounce + 200*time.Millisecond

// peerResult is section 9.
type peerResult struct {
	version string     // the peer's version; "" when it was not installed
	missing string     // why the peer did not run ("" when it did)
	langs   []peerLang // per language, in langSpecs order
}

// peerLang is section 9 for one language; skipped says why it was not
// measured (the peer has no server for it).
type peerLang struct {
	spec       langSpec
	skipped    string
	us, them   row     // 1 (first) and 2: lsp-hook and the peer, hook right after the write
	usWatcher  row     // 3: lsp-hook, hook watcherLag after the write
	usBurst    samples // 4: every hook of the bursts, lsp-hook
	themBurst  samples // 4: the peer's
	usBurstBad int     // 4: wrong answers or failures among lsp-hook's
	themBad    int     // 4: among the peer's
	burstNote  string  // the first wrong answer of 4
}

// ratio is the peer's warm p50 over lsp-hook's.
func (l peerLang) ratio() float64 { return ratio(l.them.s, l.us.s) }

// peerSection measures section 9 into res for every language -langs
// selects; without the peer installed it records why and returns nil.
func (b *bench) peerSection(ctx context.Context, res *peerResult) error {
	p, err := b.newPeer(ctx, b.opts.peer)
	if err != nil {
		res.missing = err.Error()
		b.progressf("9. %s", res.missing)
		return nil
	}
	b.peer, res.version = p, p.version
	for _, spec := range langSpecs {
		if !b.opts.langs.has(spec.key) {
			continue
		}
		l := peerLang{spec: spec}
		if spec.key == "c" {
			l.skipped = peerName + " has no C server"
			res.langs = append(res.langs, l)
			continue
		}
		b.progressf("9. %s: lsp-hook and %s on the same edits (1 + %d runs each, %d watcher-first, %d × %d at once)",
			spec.name, peerName, b.opts.langN, max(b.opts.langN/2, 1), peerBurstRounds, peerBurst)
		err := b.peerLang(ctx, &l)
		if len(l.us.s) > 0 {
			res.langs = append(res.langs, l)
		}
		if err != nil {
			return fmt.Errorf("peer, %s: %w", spec.name, err)
		}
	}
	return nil
}

// side is one of the two tools of section 9 on its own copy: how to run its
// hook on the copy's target and judge the answer.
type side struct {
	ws   *workspace
	hook func(ctx context.Context) (time.Duration, string, error) // wall time and the problem with the answer
}

// peerLang measures one language into l.
func (b *bench) peerLang(ctx context.Context, l *peerLang) error {
	usWS, err := b.langCopy(ctx, l.spec, "pe-us-"+l.spec.key)
	if err != nil {
		return err
	}
	themWS, err := b.langCopy(ctx, l.spec, "pe-them-"+l.spec.key)
	if err != nil {
		return err
	}
	b.peerDirs = append(b.peerDirs, themWS.dir)
	l.us = row{label: "lsp-hook hook claude, right after the write", firstNote: "daemon + " + l.spec.server + " start"}
	l.them = row{label: peerName + " claude-code-hook", firstNote: "daemon + " + l.spec.server + " start"}
	l.usWatcher = row{label: fmt.Sprintf("lsp-hook, %s later (watcher first)", fmtDur(watcherLag))}
	line := usWS.declLine()
	broken := false
	us := side{ws: usWS, hook: func(ctx context.Context) (time.Duration, string, error) {
		wall, lint, err := b.hook(ctx, usWS, usWS.target)
		return wall, checkLint(usWS, lint, line, broken), err
	}}
	them := side{ws: themWS, hook: func(ctx context.Context) (time.Duration, string, error) {
		a, err := b.peer.hook(ctx, b, themWS.dir, claudeEvent(themWS.dir, themWS.target))
		return a.wall, checkPeer(a, line, broken), err
	}}
	defer os.WriteFile(usWS.target, usWS.orig, 0o644)
	defer os.WriteFile(themWS.target, themWS.orig, 0o644)
	for i := 0; i <= b.opts.langN; i++ {
		broken = i%2 == 0
		order := []struct {
			s side
			r *row
		}{{us, &l.us}, {them, &l.them}}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, o := range order {
			if err := b.peerRun(ctx, o.s, o.r, i, l.spec.decl(i, broken), 0); err != nil {
				return fmt.Errorf("run %d: %w", i, err)
			}
		}
		if i == 0 {
			b.peerTree(ctx, themWS)
		}
	}
	for i := 1; i <= max(b.opts.langN/2, 1); i++ {
		broken = i%2 == 0
		if err := b.peerRun(ctx, us, &l.usWatcher, i, l.spec.decl(1000+i, broken), watcherLag); err != nil {
			return fmt.Errorf("watcher-first run %d: %w", i, err)
		}
	}
	broken = true
	for round := range peerBurstRounds {
		decl := l.spec.decl(2000+round, true)
		for _, s := range []side{us, them} {
			b.quiet(ctx, s.ws)
			if err := os.WriteFile(s.ws.target, s.ws.withDecl(decl), 0o644); err != nil {
				return err
			}
			walls, bad, note := burstOf(ctx, s)
			if s.ws == usWS {
				l.usBurst, l.usBurstBad = append(l.usBurst, walls...), l.usBurstBad+bad
			} else {
				l.themBurst, l.themBad = append(l.themBurst, walls...), l.themBad+bad
			}
			if l.burstNote == "" && note != "" {
				l.burstNote = note
			}
		}
	}
	return nil
}

// peerRun writes decl to s's target once its tree is idle, waits lag, runs
// its hook and records run i into r.
func (b *bench) peerRun(ctx context.Context, s side, r *row, i int, decl string, lag time.Duration) error {
	b.quiet(ctx, s.ws)
	if err := os.WriteFile(s.ws.target, s.ws.withDecl(decl), 0o644); err != nil {
		return err
	}
	if lag > 0 {
		select { // the agent's pause after its write is what is measured, not a wait for an event
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(lag):
		}
	}
	wall, problem, err := s.hook(ctx)
	if err != nil {
		return err
	}
	r.record(i, wall, problem)
	return nil
}

// peerTree points quiet at the peer's daemon for ws: quiet finds
// lsp-hook's daemon by `lsp-hook status`, the peer's by its own status.
func (b *bench) peerTree(ctx context.Context, ws *workspace) {
	if pid := b.peer.daemonPid(ctx, b, ws.dir); pid > 1 {
		ws.peer, ws.pid = true, pid
	}
}

// burstOf starts peerBurst hooks of s at once and returns their wall
// times, how many failed or answered wrong, and the first such problem.
func burstOf(ctx context.Context, s side) (samples, int, string) {
	type outcome struct {
		wall    time.Duration
		problem string
		err     error
	}
	out := make([]outcome, peerBurst)
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-release
			out[i].wall, out[i].problem, out[i].err = s.hook(ctx)
		}()
	}
	close(release)
	wg.Wait()
	var walls samples
	bad, note := 0, ""
	for _, o := range out {
		problem := o.problem
		if o.err != nil {
			problem = o.err.Error()
		} else {
			walls = append(walls, o.wall)
		}
		if problem != "" {
			bad++
			if note == "" {
				note = problem
			}
		}
	}
	return walls, bad, note
}
