package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
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
	overhead row     // of which: the rest, hook wall − server, per run; split into:
	settle   row     // the settle window and acquiring the server ("server checked" elapsed_ms − server_ms)
	daemon   row     // the daemon's work around the server (notify_change − "server checked" elapsed_ms)
	ipc      row     // the hook's socket round trip and rendering ("hook answered" − notify_change)
	proc     row     // the hook process's start and exit (wall − "hook answered")
	base     row     // the baseline command
	settleIn bool    // some run had no server_ms: server and overhead used elapsed_ms, settle included
	lint     string  // the hook's lint block for the first (broken) edit
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
	res := langResult{spec: spec, tools: b.machine.tools[spec.key]}
	ws, err := b.langWorkspace(ctx, spec)
	if err != nil {
		return res, err
	}
	res.ws = ws
	argv, note, err := spec.baseline(ws.dir, ws.target)
	if err != nil {
		res.skipped = err.Error()
		return res, nil
	}
	res.note = note
	res.hook = row{label: "lsp-hook hook claude  (Edit of " + filepath.Base(ws.target) + ")", firstNote: "daemon + " + spec.server + " start"}
	res.server = row{label: "server: change → fresh (server_ms)", sub: true}
	res.overhead = row{label: "overhead: hook − server", sub: true}
	res.settle = row{label: "  settle window, acquire", sub: true}
	res.daemon = row{label: "  daemon around the server", sub: true}
	res.ipc = row{label: "  hook ↔ daemon, render", sub: true}
	res.proc = row{label: "  hook process start, exit", sub: true}
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
	res.recordBreakdown(i, wall, t)
	d, problem, err := b.timeCommand(ctx, ws, res.cmd, res.spec.marker(ws.target, line), broken)
	if err != nil {
		return err
	}
	res.base.record(i, d, problem)
	b.pause(ctx)
	return ctx.Err()
}

// recordBreakdown splits run i's hook wall time by the log's records t:
// the server's own time, and the overhead around it in its parts.
func (res *langResult) recordBreakdown(i int, wall time.Duration, t hookTimes) {
	server := t.serverOnly
	if server < 0 {
		server, res.settleIn = t.server, true
	} else {
		res.settle.record(i, msDuration(t.server-t.serverOnly), "")
	}
	res.server.record(i, msDuration(server), "")
	res.overhead.record(i, wall-msDuration(server), "")
	if t.daemon >= 0 && t.hook >= 0 {
		res.daemon.record(i, msDuration(t.daemon-t.server), "")
		res.ipc.record(i, msDuration(t.hook-t.daemon), "")
		res.proc.record(i, wall-msDuration(t.hook), "")
	}
}

// langWorkspace copies the project of spec to the temporary tree and makes
// it a git repository, so it is its own workspace with its own daemon.
func (b *bench) langWorkspace(ctx context.Context, spec langSpec) (*workspace, error) {
	src := filepath.Join(b.opts.langsDir, spec.dir)
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory (-langs-dir)", src)
	}
	ws := &workspace{name: "testdata/langs/" + spec.dir, dir: filepath.Join(b.tmp, "lang-"+spec.key)}
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
