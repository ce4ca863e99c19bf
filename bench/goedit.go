package main

import (
	"context"
)

// goResult is part 2 for one workspace: the hook's round trip for a Go
// edit with its breakdown from the log, how long the daemon's processes
// went on working after it answered, and the baselines after the same edit.
type goResult struct {
	ws       *workspace
	hook     row    // lsp-hook hook claude, wall time
	hookProc row    // of which: the hook process's own elapsed time (log)
	daemon   row    // of which: the daemon's notify_change (log)
	gopls    row    // of which: the wait for gopls, settle window included (log)
	busy     row    // after the answer: the daemon's processes busy until idle (quiet)
	build    row    // go build ./...
	vet      row    // go vet ./PKG, the edited package
	check    row    // gopls check FILE, a new gopls each time
	lint     string // the hook's lint block for the first (broken) edit
}

// goEdits measures part 2 in ws: goN timed runs (edits.go) of goDecl, with
// go build, go vet of the edited package and gopls check as the baselines,
// after the first touch.
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
		busy:     row{label: "after the answer, daemon + gopls busy", firstNote: "after the first touch"},
		build:    row{label: "go build ./...  (build cache warm)"},
		vet:      row{label: vetLabel(ws)},
		check:    row{label: "gopls check FILE  (a new gopls each run)"},
	}
	var cmds []command
	for _, argv := range [][]string{{"go", "build", "./..."}, {"go", "vet", ws.pkgArg()}, {"gopls", "check", ws.target}} {
		c, err := b.warmCommand(ctx, ws, argv...)
		if err != nil {
			return g, err
		}
		cmds = append(cmds, c)
	}
	return g, eachRun(ws, b.opts.goN, func(i int) error { return b.goEdit(ctx, &g, i, cmds) })
}

// goEdit is run i of goEdits; cmds are go build, go vet and gopls check.
func (b *bench) goEdit(ctx context.Context, g *goResult, i int, cmds []command) error {
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
	g.busy.recordEdit(i, broken, b.quiet(ctx, ws), "")
	for j, r := range []*row{&g.build, &g.vet, &g.check} {
		d, problem, err := b.timeCommand(ctx, ws, cmds[j], colonMarker(ws.target, line), broken)
		if err != nil {
			return err
		}
		r.recordEdit(i, broken, d, problem)
	}
	b.pause(ctx)
	return ctx.Err()
}

// vetLabel is the go vet row's label, which says the package is the edited
// one when the label has room for it.
func vetLabel(ws *workspace) string {
	label := "go vet " + ws.pkgArg()
	if long := label + "  (the edited package)"; len(long) <= labelWidth {
		return long
	}
	return label
}
