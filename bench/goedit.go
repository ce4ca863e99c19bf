package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// goResult is part 2 for one workspace: the hook's round trip for a Go
// edit with its breakdown from the log, and the two baselines after the
// same edit.
type goResult struct {
	ws       *workspace
	line     int    // line of the edited declaration, in the first run
	hook     row    // lsp-hook hook claude, wall time
	hookProc row    // of which: the hook process's own elapsed time (log)
	daemon   row    // of which: the daemon's notify_change (log)
	gopls    row    // of which: the wait for gopls, settle window included (log)
	build    row    // go build ./...
	check    row    // gopls check FILE, a new gopls each time
	lint     string // the hook's lint block for the first (broken) edit
}

// baseline is how the unedited module fares under a baseline command: the
// fixed edits must fare the same.
type baseline struct{ buildCode, checkCode int }

// goEdits measures part 2 in ws. Each run writes the target file (a type
// error on even runs, its fix on odd ones, a new value every time), then
// runs the hook as Claude Code would right after its Edit, then go build
// and gopls check on the same content, a cooldown apart. Run 0 is the
// first touch (gopls, and maybe the daemon, start); runs 1…goN are timed.
// Every answer is checked: a wrong one is counted and reported, not timed
// away.
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
	base, err := b.warmBaselines(ctx, ws)
	if err != nil {
		return g, err
	}
	defer os.WriteFile(ws.target, ws.orig, 0o644) // leave the module as found
	for i := 0; i <= b.opts.goN; i++ {
		if err := b.goEdit(ctx, &g, base, i); err != nil {
			return g, fmt.Errorf("run %d: %w", i, err)
		}
	}
	return g, nil
}

// warmBaselines runs go build and gopls check once on the unedited module,
// untimed, so go's build cache and gopls's file cache start warm, and
// returns how they fared.
func (b *bench) warmBaselines(ctx context.Context, ws *workspace) (baseline, error) {
	r, err := b.exec(ctx, ws.dir, nil, "go", "build", "./...")
	if err != nil {
		return baseline{}, err
	}
	c, err := b.exec(ctx, ws.dir, nil, "gopls", "check", ws.target)
	if err != nil {
		return baseline{}, err
	}
	return baseline{buildCode: r.code, checkCode: c.code}, nil
}

// goEdit is run i of goEdits.
func (b *bench) goEdit(ctx context.Context, g *goResult, base baseline, i int) error {
	ws := g.ws
	broken := i%2 == 0
	content, line := ws.edit(i, broken)
	if i == 0 {
		g.line = line
	}
	if err := os.WriteFile(ws.target, content, 0o644); err != nil {
		return err
	}
	cur := newLogCursor(b.logPath(ws))
	wall, lint, err := b.hook(ctx, ws, ws.target)
	if err != nil {
		return err
	}
	if i == 0 {
		g.lint = lint
	}
	g.hook.recordEdit(i, broken, wall, checkLint(ws, lint, line, broken))
	times, err := cur.next("gopls")
	if err != nil {
		return err
	}
	for _, p := range []struct {
		ms float64
		r  *row
	}{{times.hook, &g.hookProc}, {times.daemon, &g.daemon}, {times.server, &g.gopls}} {
		if p.ms >= 0 {
			p.r.recordEdit(i, broken, msDuration(p.ms), "")
		}
	}

	b.pause(ctx)
	r, err := b.exec(ctx, ws.dir, nil, "go", "build", "./...")
	if err != nil {
		return err
	}
	marker := fmt.Sprintf("%s:%d:", filepath.Base(ws.target), line)
	g.build.recordEdit(i, broken, r.wall, checkOutput(marker, r, broken, base.buildCode))

	b.pause(ctx)
	r, err = b.exec(ctx, ws.dir, nil, "gopls", "check", ws.target)
	if err != nil {
		return err
	}
	g.check.recordEdit(i, broken, r.wall, checkOutput(marker, r, broken, base.checkCode))
	b.pause(ctx)
	return ctx.Err()
}

// checkLint says what is wrong with the hook's lint block for an edit
// whose declaration is on line ("" when nothing): a broken edit must be
// reported on that line of the edited file, a fixed one must not be.
func checkLint(ws *workspace, lint string, line int, broken bool) string {
	rel, _ := filepath.Rel(ws.dir, ws.target)
	marker := fmt.Sprintf("ERROR [%d:", line)
	switch {
	case broken && !(strings.Contains(lint, `file="`+filepath.ToSlash(rel)+`"`) && strings.Contains(lint, marker)):
		return fmt.Sprintf("type error on line %d not reported; lint block %q", line, lint)
	case !broken && strings.Contains(lint, marker):
		return fmt.Sprintf("fixed line %d still reported (stale); lint block %q", line, lint)
	}
	return ""
}

// checkOutput says what is wrong with a baseline's answer for an edit
// ("" when nothing): a broken edit must be reported at marker (the file
// and line as the command prints them, "main.go:12:"), a fixed one must not
// be and must exit as the unedited project did.
func checkOutput(marker string, r execResult, broken bool, cleanCode int) string {
	out := r.combined()
	switch {
	case broken && !strings.Contains(out, marker):
		return fmt.Sprintf("type error at %s not reported (exit %d): %q", marker, r.code, firstLines(out, 3))
	case !broken && strings.Contains(out, marker):
		return fmt.Sprintf("fixed %s still reported: %q", marker, firstLines(out, 3))
	case !broken && r.code != cleanCode:
		return fmt.Sprintf("exit %d after the fix, %d before any edit: %q", r.code, cleanCode, firstLines(out, 3))
	}
	return ""
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitAfterN(s, "\n", n+1)
	return strings.TrimSpace(strings.Join(lines[:min(n, len(lines))], ""))
}
