package main

import (
	"context"
)

// goResult is part 2 for one workspace: the hook's round trip for a Go
// edit with its breakdown from the log, and the two baselines after the
// same edit.
type goResult struct {
	ws       *workspace
	hook     row    // lsp-hook hook claude, wall time
	hookProc row    // of which: the hook process's own elapsed time (log)
	daemon   row    // of which: the daemon's notify_change (log)
	gopls    row    // of which: the wait for gopls, settle window included (log)
	build    row    // go build ./...
	check    row    // gopls check FILE, a new gopls each time
	lint     string // the hook's lint block for the first (broken) edit
}

// goEdits measures part 2 in ws: goN timed runs (edits.go) of goDecl, with
// go build and gopls check as the baselines, after the first touch.
func (b *bench) goEdits(ctx context.Context, ws *workspace) (goResult, error) {
	cold := "gopls start"
	if !ws.daemon {
		cold = "daemon + gopls start"
	}
	g := goResult{
		ws:       ws,
		hook:     row{label: "lsp-hook hook claude  (Edit of the .go)", firstNote: cold},
		hookProc: row{label: "in the hook process (log)", sub: true},
		daemon:   row{label: "in the daemon's notify_change (log)", sub: true},
		gopls:    row{label: "waiting for gopls, settle incl. (log)", sub: true},
		build:    row{label: "go build ./...  (build cache warm)"},
		check:    row{label: "gopls check FILE  (a new gopls each run)"},
	}
	build, err := b.warmCommand(ctx, ws, "go", "build", "./...")
	if err != nil {
		return g, err
	}
	check, err := b.warmCommand(ctx, ws, "gopls", "check", ws.target)
	if err != nil {
		return g, err
	}
	return g, eachRun(ws, b.opts.goN, func(i int) error { return b.goEdit(ctx, &g, i, build, check) })
}

// goEdit is run i of goEdits.
func (b *bench) goEdit(ctx context.Context, g *goResult, i int, build, check command) error {
	ws, broken, line := g.ws, i%2 == 0, g.ws.declLine()
	wall, lint, times, err := b.editHook(ctx, ws, goDecl(i, broken), "gopls")
	if err != nil {
		return err
	}
	if i == 0 {
		g.lint = lint
	}
	g.hook.recordEdit(i, broken, wall, checkLint(ws, lint, line, broken))
	for _, p := range []struct {
		ms float64
		r  *row
	}{{times.hook, &g.hookProc}, {times.daemon, &g.daemon}, {times.server, &g.gopls}} {
		if p.ms >= 0 {
			p.r.recordEdit(i, broken, msDuration(p.ms), "")
		}
	}
	for _, c := range []struct {
		cmd command
		r   *row
	}{{build, &g.build}, {check, &g.check}} {
		d, problem, err := b.timeCommand(ctx, ws, c.cmd, colonMarker(ws.target, line), broken)
		if err != nil {
			return err
		}
		c.r.recordEdit(i, broken, d, problem)
	}
	b.pause(ctx)
	return ctx.Err()
}
