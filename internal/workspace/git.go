package workspace

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// gitFiles lists the tracked and untracked files of the work tree under
// root that git does not ignore, that lie in no skipped directory
// (skipDirs, the walk's) and that exist as regular files: at most
// max (> 0) or all (max <= 0); capped reports that there were more. It
// stops reading git's output at the cap, so a huge work tree costs no more
// than max files.
func gitFiles(ctx context.Context, root string, max int) (files []string, capped bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := gitCommand(ctx, root, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, fmt.Errorf("running git ls-files: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("running git ls-files: %w", err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sc.Split(splitNUL)
	for sc.Scan() {
		rel := path.Clean(sc.Text())
		if inSkipDir(rel) || !regular(root, rel) {
			continue
		}
		if max > 0 && len(files) == max {
			capped = true
			break
		}
		files = append(files, rel)
	}
	scanErr := sc.Err()
	if capped || scanErr != nil {
		cancel() // git may be blocked writing the rest
		io.Copy(io.Discard, out)
		cmd.Wait()
		if scanErr != nil {
			return nil, false, fmt.Errorf("reading git ls-files: %w", scanErr)
		}
		return files, true, nil
	}
	if err := cmd.Wait(); err != nil {
		return nil, false, gitError("ls-files", err, stderr.String())
	}
	return files, false, nil
}

// Changed returns the root-relative slash paths git reports as changed
// that exist as regular files. With base "" they are the changes against
// HEAD: uncommitted ones, staged or not (all files before the first
// commit). With a revision ("origin/main"), everything that changed since
// the merge-base of base and HEAD, committed or not — what a pull request
// changes; base must be one revision, not a range or an option. Either
// way untracked files that are not ignored count as changed, and a rename
// as an added file. root must be in a git work tree (InGit).
func Changed(ctx context.Context, root, base string) (map[string]bool, error) {
	from, born, err := diffFrom(ctx, root, base)
	if err != nil {
		return nil, err
	}
	if !born {
		// No commit yet: every file is new.
		files, _, err := gitFiles(ctx, root, 0)
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
	changed := make(map[string]bool)
	for _, rel := range append(splitAll(diff), splitAll(untracked)...) {
		if regular(root, rel) {
			changed[rel] = true
		}
	}
	return changed, nil
}

// Deleted returns the root-relative slash paths of the tracked files
// that changed as Changed counts (against HEAD, or since the merge-base of
// base and HEAD) by going away: deleted, or the old name of a rename. Their
// importers are what the change broke (lsp.Importers). None before the
// first commit. root must be in a git work tree (InGit).
func Deleted(ctx context.Context, root, base string) ([]string, error) {
	from, born, err := diffFrom(ctx, root, base)
	if err != nil || !born {
		return nil, err
	}
	diff, err := git(ctx, root, "diff", "--name-only", "-z", "--relative", "--no-renames",
		"--no-color", "--no-ext-diff", "--diff-filter=D", from, "--")
	if err != nil {
		return nil, fmt.Errorf("listing deleted files since %s: %w", from, err)
	}
	return splitAll(diff), nil
}

// BaseText returns the text the file at rel (root-relative, slash
// separated) had in the commit Changed and Deleted diff the work tree
// with (HEAD, or the merge-base of base and HEAD), read with `git show
// <commit>:./<rel>`; false when there is no such commit or the file was
// not in it. root must be in a git work tree (InGit).
func BaseText(ctx context.Context, root, base, rel string) ([]byte, bool) {
	from, born, err := diffFrom(ctx, root, base)
	if err != nil || !born {
		return nil, false
	}
	out, err := git(ctx, root, "show", from+":./"+rel)
	return out, err == nil
}

// diffFrom returns the commit Changed and Deleted diff the work tree
// with: HEAD when base is "", else the merge-base of base and HEAD; born
// is false when base is "" and there is no commit yet (then from is "").
func diffFrom(ctx context.Context, root, base string) (from string, born bool, err error) {
	if base != "" {
		mb, err := mergeBase(ctx, root, base)
		return mb, err == nil, err
	}
	if _, err := git(ctx, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return "", false, nil
	}
	return "HEAD", true, nil
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
	cmd := gitCommand(ctx, root, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, gitError(args[0], err, stderr.String())
	}
	return out, nil
}

// gitCommand is git with args, run in root, read-only: it never takes
// index.lock (GIT_OPTIONAL_LOCKS=0).
func gitCommand(ctx context.Context, root string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	return cmd
}

// DeletedFromHead lists the files of git's HEAD missing from the work
// tree below root (absolute, sorted): DeletedSince(ctx, root, "HEAD").
func DeletedFromHead(ctx context.Context, root string) []string {
	return DeletedSince(ctx, root, "HEAD")
}

// DeletedSince lists the files of commit rev missing from the work tree
// below root (absolute, sorted): `git diff --name-only --relative
// --no-renames --diff-filter=D <rev>`, which sees a deletion `git mv` or
// `git rm` staged as well as one left unstaged (`git ls-files --deleted`
// sees only the second), and, for a rev older than HEAD, one committed
// since. A path removed from the index but still on disk is left out.
// None when root is not in a git work tree with that commit, or git fails
// or takes longer than a second.
func DeletedSince(ctx context.Context, root, rev string) []string {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	out, err := gitCommand(ctx, root, "diff", "--name-only", "--relative", "--no-renames", "--diff-filter=D", "-z", rev, "--").Output()
	if err != nil {
		return nil
	}
	var paths []string
	for _, rel := range strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 }) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}

// DirChangedSince returns the paths (absolute) whose directory's
// modification time is at or after since: a directory's time moves when
// an entry is added, removed or renamed, so a deleted file whose directory
// did not change since was deleted before. A file whose directory is
// gone too (`mv pkg pkg2`, `rm -r pkg`) is judged by its nearest
// ancestor that exists: the one whose entry went.
func DirChangedSince(paths []string, since time.Time) []string {
	var out []string
	for _, p := range paths {
		if fi, err := nearestDir(filepath.Dir(p)); err == nil && !fi.ModTime().Before(since) {
			out = append(out, p)
		}
	}
	return out
}

// nearestDir stats dir, or, while it does not exist, its parent.
func nearestDir(dir string) (fs.FileInfo, error) {
	for {
		fi, err := os.Stat(dir)
		parent := filepath.Dir(dir)
		if !errors.Is(err, fs.ErrNotExist) || parent == dir {
			return fi, err
		}
		dir = parent
	}
}

// Under returns the paths of files (absolute, clean) that lie below one
// of dirs (not a dir itself), each once, sorted: the files a directory
// took with it when it was renamed away or removed, when files are what
// was known of the tree.
func Under(dirs, files []string) []string {
	var out []string
	for _, f := range files {
		for _, d := range dirs {
			if rel, ok := Rel(d, f); ok && rel != "." {
				out = append(out, f)
				break
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// gitError is the failure of git's subcommand sub, with its standard
// error when it wrote one.
func gitError(sub string, err error, stderr string) error {
	if msg := strings.TrimSpace(stderr); msg != "" {
		return fmt.Errorf("running git %s: %w: %s", sub, err, msg)
	}
	return fmt.Errorf("running git %s: %w", sub, err)
}

// splitNUL is a bufio.SplitFunc for NUL-terminated records.
func splitNUL(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// splitAll splits NUL-terminated records into cleaned slash paths,
// skipping empty ones.
func splitAll(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(b, []byte{0}) {
		if len(f) > 0 {
			out = append(out, path.Clean(string(f)))
		}
	}
	return out
}

func setOf(ss []string) map[string]bool {
	m := make(map[string]bool, len(ss))
	for _, s := range ss {
		m[s] = true
	}
	return m
}

// HeadCommit returns the commit git's HEAD names in the work tree holding
// root (`git rev-parse --verify --quiet HEAD^{commit}`, 40 or 64 hex
// digits), or "" when root is in no work tree, HEAD has no commit yet, or
// git fails or takes longer than a second.
func HeadCommit(ctx context.Context, root string) string {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	out, err := gitCommand(ctx, root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// SessionBase returns the commit an agent session's changes are judged
// against at its end of turn, given began, the commit git's HEAD named
// when the session began, at time at (0: unknown):
//
//   - while HEAD descends from began (the session's own commits, a merge
//     of others' work on top), began — unless the newest commit on HEAD's
//     first-parent line committed before at descends from it: commits
//     made before the session that it pulled in (a fast-forward `git
//     pull`), whose errors are not the session's, then that commit;
//   - when HEAD no longer descends from began — the session checked out
//     another branch, or reset to another commit — that newest commit
//     committed before at (`git rev-list -1 --first-parent --before`): the
//     branch as it was before the session, without the session's own
//     commits on top.
//
// "Before at" is before at's second: git's times are whole seconds, and a
// commit in that second is taken for the session's. moved says the base is not began. began is returned, not moved, when it
// is "" or "HEAD", at is 0, HEAD has no commit, no commit of HEAD's line
// is older than at, or git fails or takes longer than a second.
func SessionBase(ctx context.Context, root, began string, at time.Time) (base string, moved bool) {
	if began == "" || began == "HEAD" || at.IsZero() {
		return began, false
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	head := HeadCommit(ctx, root)
	if head == "" || head == began {
		return began, false
	}
	// Commit times are whole seconds: one in at's second may be the
	// session's, and is taken for it.
	out, err := gitCommand(ctx, root, "rev-list", "-1", "--first-parent", fmt.Sprintf("--before=@%d", at.Unix()-1), head, "--").Output()
	older := strings.TrimSpace(string(out))
	if err != nil || older == "" {
		return began, false
	}
	if isAncestor(ctx, root, began, head) {
		if older != began && isAncestor(ctx, root, began, older) {
			return older, true
		}
		return began, false
	}
	return older, older != began
}

// isAncestor reports whether commit a is b or an ancestor of it (`git
// merge-base --is-ancestor`); false when git fails.
func isAncestor(ctx context.Context, root, a, b string) bool {
	return gitCommand(ctx, root, "merge-base", "--is-ancestor", a, b).Run() == nil
}
