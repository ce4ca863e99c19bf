package sidecar

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gitFiles lists the tracked and untracked files of the work tree under
// root that git does not ignore and that exist as regular files.
func gitFiles(ctx context.Context, root string) ([]string, error) {
	out, err := git(ctx, root, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	return existing(root, splitNUL(out)), nil
}

// changedFiles returns the root-relative slash paths git reports as changed
// against base (see FileQuery.Base) that exist as regular files.
func changedFiles(ctx context.Context, root, base string) (map[string]bool, error) {
	from := "HEAD"
	if base != "" {
		mb, err := mergeBase(ctx, root, base)
		if err != nil {
			return nil, err
		}
		from = mb
	} else if _, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		// No commit yet: every file is new.
		files, err := gitFiles(ctx, root)
		if err != nil {
			return nil, fmt.Errorf("listing changed files: %w", err)
		}
		return setOf(files), nil
	}
	// Diffing a commit with the working tree covers what was committed
	// since it and what is staged or not yet staged; --relative keeps the
	// paths relative to root (and inside it), like ls-files prints them.
	diff, err := git(ctx, root, "diff", "--name-only", "-z", "--relative", "--no-renames",
		"--no-color", "--no-ext-diff", "--diff-filter=ACMT", from, "--")
	if err != nil {
		return nil, fmt.Errorf("listing changed files since %s: %w", from, err)
	}
	untracked, err := git(ctx, root, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, fmt.Errorf("listing untracked files: %w", err)
	}
	return setOf(existing(root, append(splitNUL(diff), splitNUL(untracked)...))), nil
}

// mergeBase returns the commit where HEAD forked from base, explaining the
// usual CI causes when there is none.
func mergeBase(ctx context.Context, root, base string) (string, error) {
	if strings.HasPrefix(base, "-") || strings.Contains(base, "..") {
		return "", fmt.Errorf("bad base revision %q: want one revision, not a range or an option", base)
	}
	if _, err := git(ctx, root, "rev-parse", "--verify", "--quiet", base+"^{commit}"); err != nil {
		return "", fmt.Errorf("resolving base %q: no such commit (is it fetched?)", base)
	}
	out, err := git(ctx, root, "merge-base", base, "HEAD")
	if err != nil {
		hint := ""
		if sh, _ := git(ctx, root, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(sh)) == "true" {
			hint = " (shallow clone: fetch more history, e.g. fetch-depth: 0)"
		}
		return "", fmt.Errorf("finding the merge-base of %s and HEAD%s: %w", base, hint, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// git runs git in root and returns its standard output; a failure carries
// git's standard error.
func git(ctx context.Context, root string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0") // read-only: never take index.lock
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("running git %s: %w: %s", args[0], err, msg)
		}
		return nil, fmt.Errorf("running git %s: %w", args[0], err)
	}
	return out, nil
}

// inGitWorkTree reports whether root is in a git work tree, by the rule
// FindWorkspace uses: an ancestor (or root itself) holds .git.
func inGitWorkTree(root string) bool {
	for d := root; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}
