package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
)

// A linter's program can lie inside the workspace: node_modules/.bin/eslint
// (eslint is usually a project dependency), or a command given as a
// workspace-relative path (./tools/lint), or a PATH entry that leads into
// the workspace. Such a program is the repository's own, as much as a
// command in its .lsp-hook.yaml is, so it runs only in a workspace the user
// trusted (`lsp-hook trust`: config.Config.WorkspaceTrusted). Untrusted, a
// bare name falls back to the program found outside the workspace (PATH,
// lsp-hook's tools directory); with none, the linter is skipped, and the
// lint block says so once per program, and status as long as the daemon
// lives.

// nearestBin returns the executable node_modules/.bin/name nearest to dir,
// looking from dir up to the workspace root (dir outside it: the root
// only), or "".
func (e *Engine) nearestBin(name, dir string) string {
	if !workspace.Inside(e.Root, dir) { // lexically: the walk up must meet the root
		dir = e.Root
	}
	for d := dir; ; d = filepath.Dir(d) {
		if p := filepath.Join(d, "node_modules", ".bin", name); executable(p) {
			return p
		}
		if d == e.Root || d == filepath.Dir(d) {
			return ""
		}
	}
}

// untrustedProgramError is linterPath's answer when the only program found
// lies inside an untrusted workspace. Program is root-relative.
type untrustedProgramError struct {
	name    string // argv[0] as the linter's command gives it
	program string // root-relative path of the program found
}

func (e *untrustedProgramError) Error() string {
	return fmt.Sprintf("%s is inside the workspace, which is not trusted (`lsp-hook trust` allows it)", e.program)
}

// linterPath finds the program of a linter whose command starts with name,
// for a run in dir. A name with a slash is that file (relative to dir, as
// the run resolves it); a bare name is the nearest node_modules/.bin/name
// from dir up to the workspace root first (a monorepo package's own eslint,
// else the hoisted one, as npm exec finds it), then where language servers
// are looked for (lsp.LookPath). A program inside the workspace — by its path or where its
// symlinks lead — is passed over unless the workspace is trusted; when
// nothing else is found the error is an *untrustedProgramError.
func (e *Engine) linterPath(name, dir string) (string, error) {
	var found []string
	var lookErr error
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if !executable(p) {
			return "", fmt.Errorf("%s: not found or not executable", name)
		}
		found = append(found, p)
	} else {
		if local := e.nearestBin(name, dir); local != "" {
			found = append(found, local)
		}
		if p, err := lsp.LookPath(name); err == nil {
			found = append(found, p)
		} else {
			lookErr = err
		}
	}
	var refused string
	for _, p := range found {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if !e.Config.WorkspaceTrusted && workspace.Contains(e.Root, p) {
			if refused == "" {
				refused = p
			}
			continue
		}
		if refused != "" {
			e.Log.Info("passing over the workspace's own program: the workspace is not trusted", "program", refused, "using", p)
		}
		return p, nil
	}
	if refused != "" {
		return "", &untrustedProgramError{name: name, program: e.rel(refused)}
	}
	return "", lookErr
}

// executable reports whether p is a regular file (after symlinks) that
// someone may execute.
func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// untrustedPrograms remembers the workspace programs that linters could
// not run for want of trust: for status, and to say so once in the lint
// block.
type untrustedPrograms struct {
	mu     sync.Mutex      // guards seen and unsaid
	seen   map[string]bool // "PROGRAM (linter NAME)" skipped so far
	unsaid []string        // notes not yet shown in a lint block
}

// add records that linter could not run err.program.
func (u *untrustedPrograms) add(linter string, err *untrustedProgramError) {
	u.mu.Lock()
	defer u.mu.Unlock()
	key := fmt.Sprintf("%s (linter %s)", err.program, linter)
	if u.seen[key] {
		return
	}
	if u.seen == nil {
		u.seen = make(map[string]bool)
	}
	u.seen[key] = true
	instead := ""
	if !strings.Contains(err.name, "/") {
		instead = fmt.Sprintf(" and no %s is installed outside it", err.name)
	}
	u.unsaid = append(u.unsaid, fmt.Sprintf("linter %s did not run: its program %s is the workspace's own%s; "+
		"run `lsp-hook trust` here to allow it.", linter, err.program, instead))
}

// take returns the notes not shown yet, and forgets them.
func (u *untrustedPrograms) take() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := u.unsaid
	u.unsaid = nil
	return out
}

// list returns each program skipped so far as "PROGRAM (linter NAME)",
// sorted, for status.
func (u *untrustedPrograms) list() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Sorted(mapsKeys(u.seen))
}

// Untrusted returns what does not run in this workspace until `lsp-hook
// trust`: the workspace config's keys (config.Config.Untrusted), then the
// workspace's own programs linters wanted so far, as "PROGRAM (linter
// NAME)".
func (e *Engine) Untrusted() []string {
	return append(slices.Clone(e.Config.Untrusted), e.untrustedProgs.list()...)
}
