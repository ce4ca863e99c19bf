package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lsp-hook/lsp-hook/internal/safefile"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Applying a WorkspaceEdit (rename, code action, file rename). The edit's
// steps run in order on an overlay of the files they touch, read from
// disk once; nothing is written until every step applied cleanly. A
// preview renders the overlay against the disk as a unified diff; a write
// puts it on disk and then tells the daemon about every file it changed
// (notify_change, the way an agent's hook does after its own write), so the
// servers, the watcher and the sessions see it, and the answer lists the
// diagnostics after the edit.

// maxDiffLines caps a preview's diff; the files left out are counted.
const maxDiffLines = 400

// overlay is the would-be state of the files an edit touches: path →
// text, nil for a file the edit deletes. orig holds each path's text on
// disk (nil: absent), renames the files moved (old path → new path).
type overlay struct {
	root    string
	enc     string
	files   map[string][]byte
	orig    map[string][]byte
	order   []string // paths in the order first touched
	renames map[string]string
}

func newOverlay(root, enc string) *overlay {
	return &overlay{root: root, enc: enc, files: make(map[string][]byte), orig: make(map[string][]byte), renames: make(map[string]string)}
}

// path resolves a URI of the edit to a path inside the workspace; an edit
// of a file outside it is refused whole.
func (o *overlay) path(uri string) (string, error) {
	p, err := uriPath(uri)
	if err != nil {
		return "", err
	}
	if filepath.Dir(p) != p { // a file that does not exist yet resolves through its directory
		dir, err := resolvePath(o.root, filepath.Dir(p))
		if err != nil {
			return "", fmt.Errorf("the edit touches %s: %w", p, err)
		}
		return filepath.Join(dir, filepath.Base(p)), nil
	}
	return "", fmt.Errorf("the edit touches %s, which is not a file", p)
}

// load reads path into the overlay the first time it is touched.
func (o *overlay) load(path string) error {
	if _, ok := o.files[path]; ok {
		return nil
	}
	o.order = append(o.order, path)
	b, err := safefile.ReadFollow(path, maxFileSize) // a FIFO or a device is refused, never opened for good
	switch {
	case errors.Is(err, fs.ErrNotExist):
		o.files[path], o.orig[path] = nil, nil
		return nil
	case err != nil:
		return fmt.Errorf("reading %s: %w", o.rel(path), err)
	}
	o.files[path], o.orig[path] = b, b
	return nil
}

// apply runs the edit's steps in order.
func (o *overlay) apply(changes []lsp.FileChange) error {
	for _, c := range changes {
		p, err := o.path(c.URI)
		if err != nil {
			return err
		}
		if err := o.load(p); err != nil {
			return err
		}
		switch c.Kind {
		case lsp.ChangeEdit:
			if o.files[p] == nil {
				return fmt.Errorf("the edit changes %s, which does not exist", o.rel(p))
			}
			text, err := lsp.ApplyEdits(o.files[p], c.Edits, o.enc)
			if err != nil {
				return fmt.Errorf("applying the edits of %s: %w", o.rel(p), err)
			}
			o.files[p] = text
		case lsp.ChangeCreate:
			if o.files[p] != nil && !c.Overwrite {
				if c.IgnoreIfExists {
					continue
				}
				return fmt.Errorf("the edit creates %s, which exists", o.rel(p))
			}
			o.files[p] = []byte{}
		case lsp.ChangeDelete:
			if o.files[p] == nil {
				if c.IgnoreIfNotExists {
					continue
				}
				return fmt.Errorf("the edit deletes %s, which does not exist", o.rel(p))
			}
			o.files[p] = nil
		case lsp.ChangeRename:
			if err := o.rename(p, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// rename moves p's text to the rename's new URI.
func (o *overlay) rename(p string, c lsp.FileChange) error {
	np, err := o.path(c.NewURI)
	if err != nil {
		return err
	}
	if err := o.load(np); err != nil {
		return err
	}
	if o.files[p] == nil {
		return fmt.Errorf("the edit renames %s, which does not exist", o.rel(p))
	}
	if o.files[np] != nil && !c.Overwrite {
		if c.IgnoreIfExists {
			return nil
		}
		return fmt.Errorf("the edit renames %s to %s, which exists", o.rel(p), o.rel(np))
	}
	o.files[np], o.files[p] = o.files[p], nil
	o.renames[p] = np
	return nil
}

func (o *overlay) rel(p string) string { return newRenderer(o.root, "").rel(p) }

// changed returns the paths whose would-be text differs from the disk's, in
// the order first touched.
func (o *overlay) changed() []string {
	var out []string
	for _, p := range o.order {
		if (o.files[p] == nil) != (o.orig[p] == nil) || string(o.files[p]) != string(o.orig[p]) {
			out = append(out, p)
		}
	}
	return out
}

// diff renders the overlay against the disk as a unified diff, at most
// maxDiffLines lines, then a count of the files left out.
func (o *overlay) diff() string {
	var b strings.Builder
	lines, left := 0, 0
	moved := make(map[string]bool)
	for old, np := range o.renames {
		moved[old], moved[np] = true, true
	}
	var parts []string
	for old, np := range o.renames {
		if o.files[np] == nil || o.orig[np] != nil {
			continue // moved on, or over a file: shown as edits below
		}
		a, b := filepath.ToSlash(o.rel(old)), filepath.ToSlash(o.rel(np))
		d := fmt.Sprintf("rename from %s\nrename to %s\n", a, b)
		if u := unifiedDiff("a/"+a, "b/"+b, string(o.orig[old]), string(o.files[np])); string(o.orig[old]) != string(o.files[np]) {
			d += u
		}
		parts = append(parts, d)
	}
	slices.Sort(parts)
	for _, p := range o.changed() {
		if moved[p] && (o.files[p] == nil && o.orig[p] != nil || o.orig[p] == nil && o.files[p] != nil) {
			continue
		}
		from, to := "a/"+filepath.ToSlash(o.rel(p)), "b/"+filepath.ToSlash(o.rel(p))
		if o.orig[p] == nil {
			from = "/dev/null"
		}
		if o.files[p] == nil {
			to = "/dev/null"
		}
		parts = append(parts, unifiedDiff(from, to, string(o.orig[p]), string(o.files[p])))
	}
	for _, d := range parts {
		n := strings.Count(d, "\n")
		if lines > 0 && lines+n > maxDiffLines {
			left++
			continue
		}
		if n > maxDiffLines { // the first file alone is over the cap: its head
			ls := strings.SplitAfter(d, "\n")
			d = strings.Join(ls[:maxDiffLines], "") + fmt.Sprintf("... and %d more line(s) of this file's diff\n", n-maxDiffLines)
			n = maxDiffLines
		}
		lines += n
		b.WriteString(d)
	}
	if left > 0 {
		fmt.Fprintf(&b, "... and %d more file(s) changed, not shown\n", left)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// write puts the overlay on disk: changed files written in place (keeping
// their mode), new ones created (0644, directories as needed), deleted ones
// removed, renamed ones moved then written. It returns the paths the daemon
// must hear about. A failure stops at once and names the file; what was
// written by then stays written, and is listed in the error.
func (o *overlay) write() ([]string, error) {
	var done []string
	fail := func(err error) ([]string, error) {
		if len(done) > 0 {
			err = fmt.Errorf("%w (already written: %s)", err, strings.Join(o.rels(done), ", "))
		}
		return done, err
	}
	for old, np := range o.renames {
		if o.orig[old] == nil || o.orig[np] != nil {
			continue // the overlay's texts below cover it
		}
		if err := os.MkdirAll(filepath.Dir(np), 0o755); err != nil {
			return fail(err)
		}
		if err := os.Rename(old, np); err != nil {
			return fail(fmt.Errorf("renaming %s: %w", o.rel(old), err))
		}
		o.orig[np], o.orig[old] = o.orig[old], nil
		done = append(done, old, np)
	}
	for _, p := range o.changed() {
		if o.files[p] == nil {
			if err := os.Remove(p); err != nil {
				return fail(fmt.Errorf("removing %s: %w", o.rel(p), err))
			}
			done = append(done, p)
			continue
		}
		mode := fs.FileMode(0o644)
		if fi, err := os.Stat(p); err == nil {
			mode = fi.Mode().Perm()
		} else if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(p, o.files[p], mode); err != nil {
			return fail(fmt.Errorf("writing %s: %w", o.rel(p), err))
		}
		done = append(done, p)
	}
	slices.Sort(done)
	return slices.Compact(done), nil
}

func (o *overlay) rels(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = o.rel(p)
	}
	return out
}

// afterWrite tells the daemon about the files a write changed
// (notify_change, as a hook does after an agent's write) and returns the
// lint block of what is wrong in them now ("" when clean), with its notes.
func (t *tools) afterWrite(ctx context.Context, paths []string) (string, error) {
	changes := make([]wire.Change, len(paths))
	for i, p := range paths {
		changes[i] = wire.Change{Path: p, Mode: wire.ModeWrite}
	}
	var res wire.Result
	if err := t.daemon.call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: changes, Source: "mcp"}, &res); err != nil {
		return "", fmt.Errorf("the files are written, but checking them failed: %w", err)
	}
	out := res.Lint
	for _, n := range res.Notes {
		if gone := slices.ContainsFunc(paths, func(p string) bool {
			_, err := os.Lstat(p)
			return err != nil && strings.HasPrefix(n, "skipped "+p+":")
		}); !gone { // a file the edit removed or moved away is no news
			out = strings.TrimSpace(out + "\n" + n)
		}
	}
	return out, nil
}

// preview or write an edit: the shared end of rename, code action and
// file rename. what names the edit for the answer ("rename Greet to
// Hello"). Without write, the answer is the diff; with it, the files are
// written and the answer lists them and the diagnostics after.
func (t *tools) finish(ctx context.Context, o *overlay, what string, write bool) (string, error) {
	changed := o.changed()
	if len(changed) == 0 {
		return fmt.Sprintf("%s changes no file.", what), nil
	}
	if !write {
		return fmt.Sprintf("Preview of %s (%d file(s); nothing written: call again with write: true to apply):\n%s",
			what, len(changed), o.diff()), nil
	}
	paths, err := o.write()
	if err != nil {
		return "", err
	}
	lint, err := t.afterWrite(ctx, paths)
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("Applied %s: wrote %s.", what, strings.Join(o.rels(changed), ", "))
	if lint == "" {
		return out + "\nNo diagnostics in the changed files after the edit.", nil
	}
	return out + "\n" + lint, nil
}
