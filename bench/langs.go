package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// langResult is part 3 for one language: the hook's round trip for an
// Edit of the project's caller, where it went by the log, and the
// hook-writer's baseline command after the same edit.
type langResult struct {
	spec     langSpec
	ws       *workspace
	tools    string  // versions of the server and the baseline's tools
	cmd      command // the baseline
	note     string  // about the baseline's choice ("" when none)
	skipped  string  // why the language was not measured ("" when it was)
	hook     row     // lsp-hook hook claude, wall time
	server   row     // of which: the server, change sent → last document fresh (log server_ms)
	overhead row     // of which: the rest, hook wall − server, per run, split as breakdown says
	breakdown
	base     row    // the baseline command
	settleIn bool   // some run had no server_ms: server and overhead used elapsed_ms, settle included
	lint     string // the hook's lint block for the first (broken) edit
}

// langEdits measures part 3 for every language -langs selects, in a copy
// of its testdata/langs project. A language whose tools are missing is
// reported as skipped; an error in one ends the part.
func (b *bench) langEdits(ctx context.Context, rep *report) error {
	for _, spec := range langSpecs {
		if !b.opts.langs.has(spec.key) {
			continue
		}
		b.progressf("3. %s edits on testdata/langs/%s (1 + %d runs)", spec.name, spec.dir, b.opts.langN)
		res, err := b.langEdit(ctx, spec)
		if res.skipped != "" || len(res.hook.s) > 0 || err == nil {
			rep.langs = append(rep.langs, res)
		}
		if err != nil {
			return fmt.Errorf("%s edits: %w", spec.name, err)
		}
	}
	return nil
}

// langEdit measures one language: langN timed runs (edits.go) of
// spec.decl, with spec.baseline as the baseline, after the first touch.
func (b *bench) langEdit(ctx context.Context, spec langSpec) (langResult, error) {
	ws, err := b.langWorkspace(ctx, spec)
	if err != nil {
		return langResult{spec: spec}, err
	}
	return b.langEditIn(ctx, spec, ws)
}

// langEditIn is langEdit in the workspace ws, prepared by the caller.
func (b *bench) langEditIn(ctx context.Context, spec langSpec, ws *workspace) (langResult, error) {
	res := langResult{spec: spec, tools: b.machine.tools[spec.key], ws: ws}
	argv, note, err := spec.baseline(ws.dir, ws.target)
	if err != nil {
		res.skipped = err.Error()
		return res, nil
	}
	res.note = note
	res.hook = row{label: "lsp-hook hook claude  (Edit of " + filepath.Base(ws.target) + ")", firstNote: "daemon + " + spec.server + " start"}
	res.server = row{label: "server: change → fresh (server_ms)", sub: true}
	res.overhead = row{label: "overhead in all: hook − server", sub: true}
	res.breakdown = newBreakdown()
	res.base = row{label: strings.Join(argv, " ")}
	if res.cmd, err = b.warmCommand(ctx, ws, argv...); err != nil {
		return res, err
	}
	return res, eachRun(ws, b.opts.langN, func(i int) error { return b.langRun(ctx, &res, i) })
}

// langRun is run i of langEdit.
func (b *bench) langRun(ctx context.Context, res *langResult, i int) error {
	ws, broken, line := res.ws, i%2 == 0, res.ws.declLine()
	wall, lint, t, err := b.editHook(ctx, ws, res.spec.decl(i, broken), res.spec.server)
	if err != nil {
		return err
	}
	if i == 0 {
		res.lint = lint
	}
	res.hook.record(i, wall, checkLint(ws, lint, line, broken))
	if t.server < 0 {
		return fmt.Errorf("no \"server checked\" record for %s in %s", res.spec.server, b.logPath(ws))
	}
	res.recordBreakdown(i, wall, t, res.spec.settle)
	d, problem, err := b.timeCommand(ctx, ws, res.cmd, res.spec.marker(ws.target, line), broken)
	if err != nil {
		return err
	}
	res.base.record(i, d, problem)
	b.pause(ctx)
	return ctx.Err()
}

// langWorkspace copies the project of spec to the temporary tree and makes
// it a git repository, so it is its own workspace with its own daemon.
func (b *bench) langWorkspace(ctx context.Context, spec langSpec) (*workspace, error) {
	return b.langCopy(ctx, spec, "lang-"+spec.key)
}

// langCopy is langWorkspace into the directory base of the temporary tree,
// which must be new: each copy is a workspace of its own, with its own
// socket and daemon.
func (b *bench) langCopy(ctx context.Context, spec langSpec, base string) (*workspace, error) {
	src := filepath.Join(b.opts.langsDir, spec.dir)
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory (-langs-dir)", src)
	}
	ws := &workspace{name: "testdata/langs/" + spec.dir, dir: filepath.Join(b.tmp, base)}
	b.workspaces = append(b.workspaces, ws)
	if err := copyTree(src, ws.dir, false); err != nil {
		return nil, fmt.Errorf("copying %s: %w", src, err)
	}
	if _, err := output(ctx, ws.dir, b.env, "git", "init", "-q"); err != nil {
		return nil, err
	}
	ws.target = filepath.Join(ws.dir, filepath.FromSlash(spec.target))
	data, err := os.ReadFile(ws.target)
	if err != nil {
		return nil, fmt.Errorf("reading the edit target: %w", err)
	}
	if len(data) == 0 {
		return nil, errors.New(spec.target + " is empty")
	}
	ws.orig = withNewline(data)
	return ws, nil
}
