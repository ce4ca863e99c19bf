package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// This file is section 13, worktrees (issue 18, "A memory budget across
// worktrees"): agents run parallel sessions in git worktrees of one
// repository, each its own workspace with its own daemon and servers. A
// copy of -module is committed, -worktrees − 1 worktrees are added beside
// it, one type-error edit is hooked in each, one after another, and once
// every tree is idle the RSS of every daemon and of everything under it is
// summed. The budget that bounds it is lsp-hook's (user config
// memory_budget); this section measures what it comes to.

// secWorktrees is 13: daemons and servers of many worktrees of one repository.
const secWorktrees section = "worktrees"

// worktreesResult is section 13.
type worktreesResult struct {
	module string
	rows   []memRow // per worktree, its daemon tree after the edit, idle
	wrong  []string // worktrees whose answer was wrong
}

// total is the sum of every worktree's tree RSS, in KiB.
func (res *worktreesResult) total() int64 {
	var sum int64
	for _, r := range res.rows {
		sum += r.treeRSS()
	}
	return sum
}

// worktreesSection measures section 13 into res.
func (b *bench) worktreesSection(ctx context.Context, res *worktreesResult) error {
	n := b.opts.worktrees
	b.progressf("13. %d worktrees of %s: one edit each, then every daemon tree's RSS", n, b.opts.module)
	main, err := b.largeWorkspace(ctx, largeModule{path: b.opts.module, dir: "wt00"})
	if err != nil {
		return err
	}
	res.module = main.name
	git := func(dir string, args ...string) error {
		args = append([]string{"-c", "user.name=lsp-hook bench", "-c", "user.email=bench@localhost"}, args...)
		_, err := output(ctx, dir, b.env, "git", args...)
		return err
	}
	if err := git(main.dir, "add", "-A"); err != nil {
		return err
	}
	if err := git(main.dir, "commit", "-q", "-m", "bench: the module as copied"); err != nil {
		return err
	}
	rel, err := filepath.Rel(main.dir, main.target)
	if err != nil {
		return err
	}
	spaces := []*workspace{main}
	for i := 1; i < n; i++ {
		dir := filepath.Join(b.tmp, fmt.Sprintf("wt%02d", i))
		if err := git(main.dir, "worktree", "add", "-q", "--detach", dir); err != nil {
			return err
		}
		ws := &workspace{name: fmt.Sprintf("worktree %d", i), dir: dir, target: filepath.Join(dir, rel), orig: main.orig}
		b.workspaces = append(b.workspaces, ws)
		spaces = append(spaces, ws)
	}
	main.name = "worktree 0 (the repository)"
	for _, ws := range spaces {
		if err := os.WriteFile(ws.target, ws.withDecl(goDecl(1, true)), 0o644); err != nil {
			return err
		}
		_, lint, err := b.hook(ctx, ws, ws.target)
		if err != nil {
			return fmt.Errorf("%s: %w", ws.name, err)
		}
		if p := checkLint(ws, lint, ws.declLine(), true); p != "" {
			res.wrong = append(res.wrong, ws.name+": "+p)
		}
	}
	for _, ws := range spaces {
		b.quiet(ctx, ws)
	}
	for _, ws := range spaces {
		row, err := b.memOf(ctx, ws)
		if err != nil {
			return err
		}
		res.rows = append(res.rows, row)
	}
	return nil
}
