package soak

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
)

// opKind is what an op does to its file.
type opKind int

const (
	opEdit    opKind = iota // replace each sub's old text, found exactly once, by its new
	opCreate                // write content, making the file
	opRemove                // delete the file
	opMove                  // rename the file to op.to
	opRevert                // put the file back as committed, recreating it if gone
	opMoveDir               // rename the directory op.file to op.to, with every file below it
)

// sub is one text replacement, as an Edit tool call makes it.
type sub struct{ old, new string }

// op is one change to one file. How an agent makes it (which tool, when
// its hook runs) is the schedule's choice, not the op's.
type op struct {
	kind    opKind
	file    string // workspace-relative, slash-separated
	subs    []sub  // opEdit
	content string // opCreate
	to      string // opMove, opMoveDir: the new workspace-relative path
}

// step is the change of one agent turn: one op, or several files changed
// in one batch (or one after another, as the schedule decides).
type step []op

// scenario is a break and its fix: steps that start from the committed
// project and end with it again (files it creates are removed again).
type scenario struct {
	name  string
	steps []step
}

// configWritten is a scenario every language plays: lsp-hook's own
// config file written in the same step as an edit of file (old → new)
// that breaks it, then removed in the same step as the file's revert.
// A config written while the daemon runs makes the next hook replace the
// daemon (config.Stamp), so the edit is checked by a daemon and servers
// started after it was made, and the session's record crosses daemons;
// the step may be one shell command, a batch or one call each. The
// config's text is a comment: it changes nothing the soak judges.
func configWritten(file, old, new string) scenario {
	const text = "# written by the soak: a changed config replaces the daemon at the next hook\n"
	return scenario{"config-written", []step{
		{create(".lsp-hook.yaml", text), edit(file, old, new)},
		{remove(".lsp-hook.yaml"), revert(file)},
	}}
}

// createdLater is a scenario every language plays: user made to use what
// a file not yet written would define, as an agent writes a caller before
// its callee (subs: edit's old, new, … pairs), that file then created,
// which fixes the user; then the user turned back, and the new file
// removed.
func createdLater(user string, subs []string, file, content string) scenario {
	return scenario{"created-later", steps(edit(user, subs...), create(file, content), revert(user), remove(file))}
}

// edit is a step editing file with the replacements old, new, old, new, ….
func edit(file string, oldNew ...string) op {
	if len(oldNew)%2 != 0 {
		panic("edit: an old text without its new one")
	}
	o := op{kind: opEdit, file: file}
	for i := 0; i < len(oldNew); i += 2 {
		o.subs = append(o.subs, sub{oldNew[i], oldNew[i+1]})
	}
	return o
}

func create(file, content string) op { return op{kind: opCreate, file: file, content: content} }
func remove(file string) op          { return op{kind: opRemove, file: file} }
func move(from, to string) op        { return op{kind: opMove, file: from, to: to} }

// moveDir is a step renaming a directory, as `mv dir dir2` or `git mv`
// does: the file watcher sees one event, for the directory.
func moveDir(from, to string) op { return op{kind: opMoveDir, file: from, to: to} }
func revert(file string) op      { return op{kind: opRevert, file: file} }

// steps makes a one-op step of each op.
func steps(ops ...op) []step {
	var out []step
	for _, o := range ops {
		out = append(out, step{o})
	}
	return out
}

// apply returns content with o's replacements made, or an error when an
// old text is not found exactly once (the scenario and the file disagree:
// a fault of the soak, not of lsp-hook).
func (o op) apply(content string) (string, error) {
	for _, s := range o.subs {
		if n := strings.Count(content, s.old); n != 1 {
			return "", fmt.Errorf("%s: %q occurs %d times, want once", o.file, s.old, n)
		}
		content = strings.Replace(content, s.old, s.new, 1)
	}
	return content, nil
}

// String describes o for the report.
func (o op) String() string {
	switch o.kind {
	case opEdit:
		return fmt.Sprintf("edit %s (%d replacements)", o.file, len(o.subs))
	case opCreate:
		return "create " + o.file
	case opRemove:
		return "remove " + o.file
	case opMove:
		return "move " + o.file + " to " + o.to
	case opMoveDir:
		return "move directory " + o.file + " to " + o.to
	}
	return "revert " + o.file
}

// files returns the paths o changes: its file, and for a move the new
// path too; for a directory's move, every file below it in s, at its old
// path and its new.
func (o op) filesIn(s snapshot) []string {
	if o.kind != opMoveDir {
		return o.files()
	}
	var out []string
	for rel := range s {
		if strings.HasPrefix(rel, o.file+"/") {
			out = append(out, rel, o.to+strings.TrimPrefix(rel, o.file))
		}
	}
	slices.Sort(out)
	return out
}

// files returns the paths o changes: its file, and for a move the new
// path too.
func (o op) files() []string {
	if o.kind == opMove {
		return []string{o.file, o.to}
	}
	return []string{o.file}
}

// language is one project of the soak: the programs it needs, its files,
// its compiler, the formatter an agent's hook runs before lsp-hook's, and
// the scenarios the schedule draws from.
type language struct {
	name  string
	tools []string // programs that must be on PATH: the server, the compiler, the formatter
	// files returns the committed project: relative path → content.
	files func(t *testing.T) map[string]string
	// compile returns the compiler's truth about the project in dir, whose
	// files are s.
	compile func(ctx context.Context, dir string, env []string, s snapshot) (*truth, error)
	// format is the formatter run between a write and its hook; the file's
	// path is appended. It must not move lines. formatExts are the
	// extensions it takes (nil: every file): gofmt refuses go.mod, whose
	// white space the soak dirtied for it would then stay.
	format     []string
	formatExts []string
	// comment returns a one-line comment saying text.
	comment   func(text string) string
	scenarios []scenario
}

// only returns l with only the scenarios names lists (comma-separated),
// or l itself when names is empty or lists none of l's.
func (l *language) only(names string) *language {
	if names == "" {
		return l
	}
	var kept []scenario
	for _, sc := range l.scenarios {
		if slices.Contains(strings.Split(names, ","), sc.name) {
			kept = append(kept, sc)
		}
	}
	if len(kept) == 0 {
		return l
	}
	c := *l
	c.scenarios = kept
	return &c
}

// formats reports whether l's formatter takes file (formatExts).
func (l *language) formats(file string) bool {
	return l.formatExts == nil || slices.Contains(l.formatExts, path.Ext(file))
}

// stripTrailingSpace is the formatter of the languages without one in the
// toolchain the soak uses: trailing white space removed (it keeps lines).
var stripTrailingSpace = []string{"sed", "-i", "s/[[:space:]]*$//"}

// slashComment is a // comment.
func slashComment(text string) string { return "// " + text }

// languages are the four projects, in report order.
func languages() []*language {
	return []*language{goLanguage(), pythonLanguage(), tsLanguage(), cLanguage()}
}
