package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The steps parts 2 and 3 share. A run appends one declaration to the
// workspace's target (a type error on even runs, its fix on odd ones),
// runs the hook as Claude Code would right after its Edit, then runs each
// baseline command on the same content, each once the daemon's processes
// have been idle for a cooldown (quiet.go). Run 0 is the
// first touch (the server, and maybe the daemon, start); the rest are timed.
// Every answer is checked: a wrong one is counted and reported, not timed
// away.

// eachRun calls run for runs 0…n, stopping at the first error, and leaves
// the target as it found it.
func eachRun(ws *workspace, n int, run func(i int) error) error {
	defer os.WriteFile(ws.target, ws.orig, 0o644)
	for i := 0; i <= n; i++ {
		if err := run(i); err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
	}
	return nil
}

// withDecl is the target's original content with decl appended as its
// last line, ws.declLine().
func (ws *workspace) withDecl(decl string) []byte {
	return append(slices.Clip(ws.orig), decl+"\n"...)
}

// declLine is the 1-based line of the declaration withDecl appends.
func (ws *workspace) declLine() int { return bytes.Count(ws.orig, []byte("\n")) + 1 }

// editHook writes the target with decl appended, runs the hook for that
// Edit, and reads from the daemon log where the hook's time went (the
// "server checked" records of server). It returns the hook's wall time and
// lint block.
func (b *bench) editHook(ctx context.Context, ws *workspace, decl, server string) (time.Duration, string, hookTimes, error) {
	if err := os.WriteFile(ws.target, ws.withDecl(decl), 0o644); err != nil {
		return 0, "", hookTimes{}, err
	}
	cur := newLogCursor(b.logPath(ws))
	wall, lint, err := b.hook(ctx, ws, ws.target)
	if err != nil {
		return 0, "", hookTimes{}, err
	}
	times, err := cur.next(server)
	return wall, lint, times, err
}

// command is a baseline: what a hook-writer would run after every edit
// instead of the hook, and its exit code on the unedited project.
type command struct {
	argv  []string
	clean int
}

// warmCommand runs argv once on the unedited project, untimed, so the
// caches it uses start warm, and returns it with the exit code it gave.
func (b *bench) warmCommand(ctx context.Context, ws *workspace, argv ...string) (command, error) {
	r, err := b.exec(ctx, ws.dir, nil, argv[0], argv[1:]...)
	return command{argv: argv, clean: r.code}, err
}

// timeCommand runs c on the edited project once the workspace's daemon
// tree is idle (quiet) and returns its wall time and what is wrong with
// its answer (checkOutput).
func (b *bench) timeCommand(ctx context.Context, ws *workspace, c command, marker string, broken bool) (time.Duration, string, error) {
	b.quiet(ctx, ws)
	r, err := b.exec(ctx, ws.dir, nil, c.argv[0], c.argv[1:]...)
	if err != nil {
		return 0, "", err
	}
	return r.wall, checkOutput(marker, r, broken, c.clean), nil
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
