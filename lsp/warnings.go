package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/diag"
	ws "github.com/lsp-hook/lsp-hook/internal/workspace"
)

// This file decides whether a server runs without the part of it whose
// findings are only warnings (config.Server.WarningsOnlyArgs: clangd's
// clang-tidy checks, 40% of its rebuild time), and restarts it whole when
// that stops being safe: when a check asks for warnings (ShowWarnings), or
// when a file that can raise those warnings to errors (WarningsConfigFiles:
// a .clang-tidy with WarningsAsErrors) turns up near a checked document.
// Lean is a start-up choice: the arguments are the process's.

// warningsWalkDirs bounds the directories the start-up walk under a root
// looks through for WarningsConfigFiles (the watcher's own budget,
// DefaultMaxDirs); a larger tree runs its server whole.
var warningsWalkDirs = DefaultMaxDirs

// ShowWarnings records that a check asked for diagnostics below error
// (`lsp-hook diagnose --severity warning` through the daemon, a hook
// request's severity): from then on servers start whole, and one running
// without its WarningsOnlyArgs restarts whole at its next check. It is
// never undone for the Manager's life.
func (m *Manager) ShowWarnings() {
	m.warnings.Store(true)
}

// leanCommand returns s's command with its WarningsOnlyArgs added for a
// server at root, or "" and why it must run whole: the configured
// threshold is below error, a check asked for warnings, an earlier check
// found a WarningsConfigFiles file, the command already sets the flag, or
// the walk of root found one (or could not look everywhere). The walk
// covers root's parents and at most warningsWalkDirs directories under
// it, skipping the watcher's skipDirs.
func (m *Manager) leanCommand(ctx context.Context, s config.Server, k entryKey) ([]string, string) {
	if len(s.WarningsOnlyArgs) == 0 {
		return nil, "the server has no warnings-only part"
	}
	if sev, err := diag.ParseSeverity(m.cfg.Severity); err != nil || sev != diag.SeverityError {
		return nil, fmt.Sprintf("severity %q shows warnings", m.cfg.Severity)
	}
	if m.warnings.Load() {
		return nil, "a check asked for warnings"
	}
	m.mu.Lock()
	why := m.whole[k]
	m.mu.Unlock()
	if why != "" {
		return nil, why
	}
	for _, a := range s.WarningsOnlyArgs {
		name, _, _ := strings.Cut(a, "=")
		if slices.ContainsFunc(s.Command[1:], func(c string) bool { n, _, _ := strings.Cut(c, "="); return n == name }) {
			return nil, "the command sets " + name + " itself"
		}
	}
	if found, err := findWarningsConfig(ctx, k.root, s.WarningsConfigFiles); err != nil {
		return nil, err.Error()
	} else if found != "" {
		return nil, "found " + found
	}
	return append(slices.Clip(s.Command), s.WarningsOnlyArgs...), ""
}

// errWalkBound says the walk for WarningsConfigFiles stopped at its bound
// (warningsWalkDirs) with directories left.
var errWalkBound = errors.New("more directories than the walk's bound: not all were looked at")

// findWarningsConfig returns the first file named one of names in root, in
// a parent of root, or under root (skipDirs skipped, at most
// warningsWalkDirs directories), or "" when there is none. It fails when
// the walk stops early: at its bound, on ctx's end, or when root cannot
// be read.
func findWarningsConfig(ctx context.Context, root string, names []string) (string, error) {
	if len(names) == 0 {
		return "", nil
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if p := fileNamedIn(dir, names); p != "" {
			return p, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	found, dirs := "", 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // a directory that cannot be read holds nothing clangd reads either
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && slices.Contains(skipDirs, d.Name()) {
				return filepath.SkipDir
			}
			if dirs++; dirs > warningsWalkDirs {
				return fmt.Errorf("%w (%d)", errWalkBound, warningsWalkDirs)
			}
			return nil
		}
		if slices.Contains(names, d.Name()) {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("looking for %s under %s: %w", strings.Join(names, ", "), root, err)
	}
	return found, nil
}

// warningsConfigNear returns a file named one of names in the directory of
// one of docs or in a directory between it and root, or "" when there is
// none: what a check stats before it lets a lean server answer for docs.
func warningsConfigNear(docs []Doc, root string, names []string) string {
	seen := make(map[string]bool)
	for _, d := range docs {
		for dir := filepath.Dir(d.Path); !seen[dir]; dir = filepath.Dir(dir) {
			seen[dir] = true
			if p := fileNamedIn(dir, names); p != "" {
				return p
			}
			if rel, inside := ws.Rel(root, dir); !inside || rel == "." || filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return ""
}

// fileNamedIn returns the path of the first of names that exists in dir,
// or "".
func fileNamedIn(dir string, names []string) string {
	for _, n := range names {
		p := filepath.Join(dir, n)
		if _, err := os.Lstat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return p // one that cannot be looked at counts: a doubt keeps the server whole
		}
	}
	return ""
}

// wholeReason says why e, running lean, must restart whole before it
// answers for docs, or "": a check asked for warnings, or a
// WarningsConfigFiles file is next to one of docs. It records the reason
// for the entry's key, so that the new server starts whole.
func (m *Manager) wholeReason(e *entry, docs []Doc) string {
	why := ""
	if m.warnings.Load() {
		why = "a check asked for warnings"
	} else if p := warningsConfigNear(docs, e.root, e.server.WarningsConfigFiles); p != "" {
		why = "found " + p
	}
	if why != "" {
		m.mu.Lock()
		m.whole[e.key] = why
		m.mu.Unlock()
	}
	return why
}
