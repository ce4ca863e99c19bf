package engine

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"time"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/validators"
)

// only_new shows only the diagnostics a change introduced. What was there
// before the change — the baseline — is, for each file and checker (a
// language server or a validator), in this order:
//
//  1. what lsp-hook's own last only_new answer covering the file said (as a
//     changed file, or as an "other" file of a write), with the text it
//     described. Only those answers write this memory (checks without
//     only_new keep nothing), so no out-of-band notification can slip the
//     change itself into the baseline.
//  2. for a changed file with no such answer: the diagnostics of the file's
//     git HEAD version. For language servers that costs one extra round
//     trip, once per file: the HEAD text is sent first (didOpen), then the
//     new text (didChange). A file whose text equals HEAD's introduced
//     nothing. A file git does not track (new, or no repository) has no
//     baseline: everything in it is new.
//  3. for another file of a write with no such answer: what its servers had
//     published for it when the change was sent (lsp.Snapshot).
//
// A diagnostic is "the same" as one in the baseline when its file, source,
// code, severity and message are equal, wherever it is: an edit that moves
// a pre-existing error (lines added above it) does not make it new. For
// the same reason, line:column references inside messages ("duplicate key
// "a" (first at 3:3)") are compared as placeholders. Of k
// equal diagnostics before and n > k after, n-k are new. Which ones is
// decided by lines: the old text's lines are mapped to the new text's by a
// line diff (lineMap), old and new occurrences on mapped-equal lines are
// paired first, and the rest are paired in line order with the least total
// line movement; the new occurrences left over are shown.

// maxRemembered bounds how many files' answers the engine keeps; past it
// the memory starts afresh (baselines then fall back to git HEAD).
const maxRemembered = 20000

// gitShowTimeout bounds reading one file's HEAD version.
const gitShowTimeout = 2 * time.Second

// answer is one checker's last answer for a file: its diagnostics and the
// hashes of the text they describe (nil when lsp-hook did not send that
// text: an "other" file, read by the server from disk).
type answer struct {
	lines []uint64
	diags []diag.Diagnostic
}

// baseDiag is a baseline diagnostic whose Line is in the new text when
// mapped is set, and in the old text (a guess for the new one) otherwise.
type baseDiag struct {
	diag.Diagnostic
	mapped bool
}

// baseline is what only_new compares a check's answer against: per file,
// every checker's diagnostics from before the change.
type baseline struct {
	byPath map[string][]baseDiag
	// unchanged holds changed files whose text equals their git HEAD
	// version: nothing in them is new.
	unchanged map[string]bool
	// others holds the baseline of files the change did not touch, captured
	// (captureOthers) before the answer is remembered.
	others map[string][]baseDiag
	snap   *lsp.Snapshot // what the servers had published; nil without servers
	notes  []string
}

// remember records a as checker's latest answer for path (only_new's
// memory, see above). An answer without lines keeps the lines of the
// checker's previous answer: the file did not change through lsp-hook.
func (e *Engine) remember(path, checker string, a answer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.answers == nil || len(e.answers) >= maxRemembered {
		e.answers = make(map[string]map[string]answer)
	}
	m := e.answers[path]
	if m == nil {
		m = make(map[string]answer)
		e.answers[path] = m
	}
	if a.lines == nil {
		a.lines = m[checker].lines
	}
	a.diags = slices.Clone(a.diags)
	m[checker] = a
}

// rememberOutcome records a server's fresh answers; texts holds the text
// sent for each changed file (as line hashes).
func (e *Engine) rememberOutcome(o lsp.Outcome, texts map[string][]uint64) {
	for path, ds := range o.Files {
		e.remember(path, o.Server, answer{lines: texts[path], diags: ds})
	}
	for path, ds := range o.Others {
		e.remember(path, o.Server, answer{diags: ds})
	}
}

// remembered returns a copy of path's remembered answers, by checker.
func (e *Engine) remembered(path string) map[string]answer {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]answer, len(e.answers[path]))
	for k, a := range e.answers[path] {
		out[k] = a
	}
	return out
}

// checkers returns the names of the checkers that will look at path: its
// language servers and its validator.
func (e *Engine) checkers(path string) (servers []string, validator string) {
	if e.Manager != nil {
		for _, s := range e.Config.ServersForPath(path) {
			servers = append(servers, s.Name)
		}
	}
	if kind, ok := validators.KindOf(path); ok && e.Config.ValidatorEnabled(string(kind)) {
		validator = string(kind)
	}
	return servers, validator
}

// baseline builds the baseline of a change to targets, before the change
// is sent; it may send the git HEAD version of changed files the servers
// have not answered for (step 2 above), within ctx.
func (e *Engine) baseline(ctx context.Context, targets []target, settle time.Duration) *baseline {
	b := &baseline{byPath: make(map[string][]baseDiag), unchanged: make(map[string]bool),
		others: make(map[string][]baseDiag)}
	var pre []lsp.Doc
	preLines := make(map[string][]uint64)
	needHead := make(map[string][]string) // path → servers with no answer for it
	for _, t := range targets {
		servers, validator := e.checkers(t.path)
		known := e.remembered(t.path)
		var missing []string
		for _, s := range servers {
			if _, ok := known[s]; !ok {
				missing = append(missing, s)
			}
		}
		_, validatorKnown := known[validator]
		if len(missing) > 0 || (validator != "" && !validatorKnown) {
			head, tracked := gitHead(ctx, e.Root, t.path)
			switch {
			case !tracked:
			case bytes.Equal(head, t.text):
				b.unchanged[t.path] = true
			default:
				lines := lineHashes(head)
				if validator != "" && !validatorKnown {
					known[validator] = answer{lines: lines,
						diags: validators.For(validators.Kind(validator)).Validate(t.path, head)}
				}
				if len(missing) > 0 {
					pre = append(pre, lsp.Doc{Path: t.path, Text: head})
					preLines[t.path] = lines
					needHead[t.path] = missing
				}
			}
		}
		cur := lineHashes(t.text)
		for _, a := range known {
			b.byPath[t.path] = appendBase(b.byPath[t.path], a, cur)
		}
	}
	if len(pre) > 0 {
		for _, o := range e.Manager.Check(ctx, pre, settle) {
			e.rememberOutcome(o, preLines)
			e.Log.Info("only_new baseline", "server", o.Server, "root", o.Root, "freshness", o.Freshness, "err", o.Err)
		}
		for _, t := range targets {
			known := e.remembered(t.path)
			for _, s := range needHead[t.path] {
				if a, ok := known[s]; ok {
					b.byPath[t.path] = appendBase(b.byPath[t.path], a, lineHashes(t.text))
				} else {
					b.notes = append(b.notes, fmt.Sprintf("only_new: no baseline from %s for %s; all its diagnostics are shown", s, t.rel))
				}
			}
		}
	}
	if e.Manager != nil {
		b.snap = e.Manager.Snapshot()
	}
	return b
}

// appendBase appends a's diagnostics with their lines mapped from the text
// a described to the text cur (as line hashes), where both are known.
func appendBase(out []baseDiag, a answer, cur []uint64) []baseDiag {
	var m lineMap
	if a.lines != nil && cur != nil {
		m = newLineMap(a.lines, cur)
	}
	for _, d := range a.diags {
		bd := baseDiag{Diagnostic: d}
		bd.Line, bd.mapped = m.line(d.Line)
		out = append(out, bd)
	}
	return out
}

// captureOthers records the baseline of each file in others (files the
// change did not touch) not captured yet: step 1 or 3 above. It must run
// before the answer that carries them is remembered.
func (b *baseline) captureOthers(e *Engine, others map[string][]diag.Diagnostic) {
	for path := range others {
		if _, done := b.others[path]; done {
			continue
		}
		var ds []baseDiag
		if known := e.remembered(path); len(known) > 0 {
			for _, a := range known {
				ds = appendBase(ds, answer{diags: a.diags}, nil)
			}
		} else if b.snap != nil {
			ds = appendBase(ds, answer{diags: b.snap.Diagnostics(path)}, nil)
		}
		b.others[path] = ds
	}
}

// gitHead returns the text of path (inside root) in root's git HEAD, and
// false when there is none: no repository, or the file is not tracked.
func gitHead(ctx context.Context, root, path string) ([]byte, bool) {
	return gitShow(ctx, root, "HEAD", path)
}

// gitShow is gitHead at commit rev (`git show <rev>:./<path>`).
func gitShow(ctx context.Context, root, rev, path string) ([]byte, bool) {
	rel, ok := workspace.Rel(root, path)
	if !ok {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, gitShowTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", root, "show", rev+":./"+rel)
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	return out, true
}
