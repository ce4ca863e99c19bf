package soak

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// target returns what o makes the content of its file: "" and false for
// an op that changes no content (remove, move).
func (r *runner) target(o op) (string, bool, error) {
	switch o.kind {
	case opEdit:
		b, err := os.ReadFile(r.ws.path(o.file))
		if err != nil {
			return "", false, err
		}
		s, err := o.apply(string(b))
		return s, true, err
	case opCreate:
		return o.content, true, nil
	case opRevert:
		s, ok := r.base[o.file]
		if !ok {
			return "", false, fmt.Errorf("revert %s: not a committed file", o.file)
		}
		return s, true, nil
	}
	return "", false, nil
}

// single makes one op with a tool the schedule draws, and runs its hook.
func (r *runner) single(name string, o op) error {
	cur, err := os.ReadFile(r.ws.path(o.file))
	exists := err == nil
	tool := toolFor(r.rng, o, exists)
	switch tool {
	case "Bash":
		return r.bash(name, o)
	case "apply_patch":
		return r.patch(name, o, string(cur), exists)
	}
	text, _, err := r.target(o)
	if err != nil {
		return err
	}
	if exists && r.rng.Float64() < r.sched.race && raceable(o.file) {
		return r.race(name, o, tool, string(cur), text)
	}
	format := r.rng.Float64() < r.sched.format && r.lang.formats(o.file)
	c, err := r.write(o, tool, string(cur), exists, text, format)
	if err != nil {
		return err
	}
	d := r.sched.delay(r.rng)
	r.record(&call{
		scenario: name, tool: tool, changed: o.files(),
		move: fmt.Sprintf("%s %s%s, hook after %v", tool, o.file, formatted(format), d.Round(time.Millisecond)),
		run:  r.hook(d, postToolUse(r.ws, r.session, c, 5*time.Millisecond)),
	})
	return nil
}

// write makes o's file hold text as tool does (its trailing white space
// dirtied first when a formatter runs, which then cleans it), and returns
// the tool call; cur is the file's text before, existed whether it was
// there. Three calls in four carry the text before in tool_response
// (originalFile), as Claude Code's Write and Edit do today; the others
// do not, as other agents' events do not (writeCall).
func (r *runner) write(o op, tool, cur string, existed bool, text string, format bool) (toolCall, error) {
	full := r.rng.IntN(4) != 0
	if format {
		text = dirty(text)
	}
	if err := writeFiles(r.ws.root, map[string]string{o.file: text}); err != nil {
		return toolCall{}, err
	}
	if format {
		// A formatter that refuses (gofmt on a syntax error) leaves the
		// file as written, as it would for the agent.
		if _, _, err := runTool(context.Background(), r.ws.root, r.ws.env, r.lang.format[0], append(r.lang.format[1:], o.file)...); err != nil {
			return toolCall{}, err
		}
	}
	path := r.ws.path(o.file)
	switch tool {
	case "Write":
		before := &cur
		if !existed {
			before = nil
		}
		return writeCall(path, text, before, full), nil
	case "MultiEdit":
		if o.kind == opEdit {
			return multiEditCall(path, o.subs), nil
		}
	}
	old, new := diffMiddle(cur, text)
	return editCall(path, old, new, cur, full), nil
}

// raceable reports whether file can take race's older text, its text
// with a comment of the language added: a source file can, a project's
// configuration (tsconfig.json, pyrightconfig.json, compile_flags.txt)
// cannot, and the compiler could not read the project with it.
func raceable(file string) bool {
	switch filepath.Ext(file) {
	case ".json", ".toml", ".txt":
		return false
	}
	return true
}

// race makes o the way issue 12's third defect needs it: an older text of
// the file (its current text with a comment added) is written and hooked,
// and o's text overtakes it, the two hooks overlapping; which hook starts
// first is drawn. Both answers are judged: the newer one against the
// final text, the older one against either text.
func (r *runner) race(name string, o op, tool, cur, text string) error {
	if r.startDue { // the race's hooks overlap its writes: the session starts first
		r.startDue = false
		r.startSession()
	}
	olderText := strings.TrimSuffix(cur, "\n") + "\n" + r.lang.comment("soak: an older text") + "\n"
	older, err := r.write(o, tool, cur, true, olderText, false)
	if err != nil {
		return err
	}
	olderKey := r.oracle.submit(r.snapshot())
	gap, olderFirst := raceGap(r.rng), r.rng.IntN(2) == 0
	var waitOlder, waitNewer func() hookRun
	if olderFirst {
		waitOlder = r.ws.startHook(postToolUse(r.ws, r.session, older, 5*time.Millisecond))
		time.Sleep(gap) // the agent's next write lands while the older hook runs
	}
	newer, err := r.write(o, tool, olderText, true, text, false)
	if err != nil {
		return err
	}
	waitNewer = r.ws.startHook(postToolUse(r.ws, r.session, newer, 5*time.Millisecond))
	if !olderFirst {
		time.Sleep(gap) // the older hook's event arrives after the newer one's
		waitOlder = r.ws.startHook(postToolUse(r.ws, r.session, older, 5*time.Millisecond))
	}
	runOlder, runNewer := waitOlder(), waitNewer()
	order := fmt.Sprintf("older hook first, newer %v later", gap.Round(time.Millisecond))
	if !olderFirst {
		order = fmt.Sprintf("newer hook first, older %v later", gap.Round(time.Millisecond))
	}
	before := r.state
	r.record(&call{scenario: name, tool: tool, changed: o.files(), before: before, older: olderKey, run: runOlder,
		move: fmt.Sprintf("%s %s, older text of a race (%s)", tool, o.file, order)})
	r.record(&call{scenario: name, tool: tool, changed: o.files(), before: before, run: runNewer,
		move: fmt.Sprintf("%s %s, newer text of a race (%s)", tool, o.file, order)})
	return nil
}

// batch makes every op of st with Write or Edit, then one PostToolBatch
// hook for all of them.
func (r *runner) batch(name string, st step) error {
	format := r.rng.Float64() < r.sched.format
	var calls []toolCall
	var changed, desc []string
	for _, o := range st {
		cur, err := os.ReadFile(r.ws.path(o.file))
		existed := err == nil
		text, _, err := r.target(o)
		if err != nil {
			return err
		}
		tool := pick(r.rng, weighted{"Write", 1}, weighted{"Edit", 1})
		c, err := r.write(o, tool, string(cur), existed, text, format && r.lang.formats(o.file))
		if err != nil {
			return err
		}
		calls = append(calls, c)
		changed = append(changed, o.files()...)
		desc = append(desc, tool+" "+o.file)
	}
	d := r.sched.delay(r.rng)
	r.record(&call{
		scenario: name, tool: "Batch", changed: changed,
		move: fmt.Sprintf("batch of %s%s, hook after %v", strings.Join(desc, " and "), formatted(format), d.Round(time.Millisecond)),
		run:  r.hook(d, postToolBatch(r.ws, r.session, calls)),
	})
	return nil
}

// formatted says in a move's description that a formatter ran.
func formatted(format bool) string {
	if format {
		return " (then the formatter)"
	}
	return ""
}

// dirty adds trailing white space to text's first line, for the formatter
// to remove.
func dirty(text string) string {
	first, rest, ok := strings.Cut(text, "\n")
	if !ok {
		return text + "  "
	}
	return first + "  \n" + rest
}

// diffMiddle returns what an Edit replacing a by b names: the part of
// each between their common prefix and suffix, widened to whole lines
// (each line with its newline).
func diffMiddle(a, b string) (string, string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	p = strings.LastIndexByte(a[:p], '\n') + 1
	if end := len(a) - s; end > p && a[end-1] != '\n' {
		if i := strings.IndexByte(a[end:], '\n'); i >= 0 {
			s -= i + 1
		} else {
			s = 0
		}
	}
	return a[p : len(a)-s], b[p : len(b)-s]
}

// bash makes o with a shell command (shellCommand), as an agent's Bash
// tool does, and runs the Bash hook with the command's real duration.
func (r *runner) bash(name string, o op) error {
	return r.shell(name, []op{o})
}

// shell makes every op of ops with one shell command, their commands
// (shellCommand) joined by &&, as an agent's Bash tool does when one
// command changes several files (a rename carried to its callers with
// sed, a checkout of two files), and runs the Bash hook once, with the
// command's real duration: the hook names no file, so what changed is the
// daemon's to find.
func (r *runner) shell(name string, ops []op) error {
	var cmds, changed []string
	wants := make(map[string]string)
	before := r.snapshot()
	for _, o := range ops {
		cmd, err := r.shellCommand(o)
		if err != nil {
			return err
		}
		want, hasText, err := r.target(o)
		if err != nil {
			return err
		}
		if hasText {
			wants[o.file] = want
		}
		cmds = append(cmds, cmd)
		changed = append(changed, o.filesIn(before)...)
	}
	cmd := strings.Join(cmds, " && ")
	begin := time.Now()
	out, code, err := runTool(context.Background(), r.ws.root, r.ws.env, "sh", "-c", cmd)
	took := time.Since(begin)
	if err != nil || code != 0 {
		return fmt.Errorf("%s: exit %d, %v: %s", cmd, code, err, out)
	}
	snap := r.snapshot()
	for file, want := range wants {
		if snap[file] != want {
			return fmt.Errorf("%s did not make the text the scenario wants in %s", cmd, file)
		}
	}
	d := r.sched.delay(r.rng)
	r.record(&call{
		scenario: name, tool: "Bash", changed: changed,
		move: fmt.Sprintf("Bash `%s` (%v), hook after %v", cmd, took.Round(time.Millisecond), d.Round(time.Millisecond)),
		run:  r.hook(d, postToolUse(r.ws, r.session, bashCall(cmd, out), took)),
	})
	return nil
}

// shellCommand is the shell command that makes o: sed -i for an edit
// (sedable only), printf for a new text (its directory made first),
// git checkout for a revert, rm, and mv or, for a tracked file one time
// in three, git mv.
func (r *runner) shellCommand(o op) (string, error) {
	switch o.kind {
	case opEdit:
		if !sedable(o.subs) {
			return "", fmt.Errorf("%v: sed cannot make it", o)
		}
		return fmt.Sprintf("sed -i %s %s", shellQuote(sedScript(o.subs)), shellQuote(o.file)), nil
	case opCreate:
		cmd := fmt.Sprintf("printf %%s %s > %s", shellQuote(o.content), shellQuote(o.file))
		if dir := path.Dir(o.file); dir != "." {
			cmd = fmt.Sprintf("mkdir -p %s && %s", shellQuote(dir), cmd)
		}
		return cmd, nil
	case opRevert:
		return "git checkout -- " + shellQuote(o.file), nil
	case opRemove:
		return "rm " + shellQuote(o.file), nil
	case opMove, opMoveDir:
		cmd := fmt.Sprintf("mv %s %s", shellQuote(o.file), shellQuote(o.to))
		if r.tracked(o.file) && r.rng.IntN(3) == 0 {
			cmd = "git " + cmd
		}
		return cmd, nil
	}
	return "", fmt.Errorf("%v: no shell command", o)
}

// shellable reports whether one shell command can make every op of st:
// each is an edit sed can make, a new text, a revert, a removal or a
// move, and no two touch the same file (each op's text is computed from
// the state before the command).
func shellable(st step) bool {
	seen := make(map[string]bool)
	for _, o := range st {
		switch o.kind {
		case opEdit:
			if !sedable(o.subs) {
				return false
			}
		case opCreate, opRevert, opRemove, opMove, opMoveDir:
		default:
			return false
		}
		for _, f := range o.files() {
			if seen[f] {
				return false
			}
			seen[f] = true
		}
	}
	return true
}

// patch makes o as Codex's apply_patch does (Copilot CLI's and OpenCode's
// patch tools take the same grammar): the files change as the patch says,
// then Codex's PostToolUse hook runs with the patch body. An edit, or a
// revert of a file there, is an update with one hunk; a create, or a
// revert of a file gone, an add; a remove a delete; a move an update with
// a move. cur is the file's text before, exists whether it was there.
func (r *runner) patch(name string, o op, cur string, exists bool) error {
	var body string
	switch o.kind {
	case opRemove:
		if err := os.Remove(r.ws.path(o.file)); err != nil {
			return err
		}
		body = "*** Delete File: " + o.file + "\n"
	case opMove:
		if err := os.MkdirAll(filepath.Dir(r.ws.path(o.to)), 0o755); err != nil {
			return err
		}
		if err := os.Rename(r.ws.path(o.file), r.ws.path(o.to)); err != nil {
			return err
		}
		body = "*** Update File: " + o.file + "\n*** Move to: " + o.to + "\n"
	default:
		text, _, err := r.target(o)
		if err != nil {
			return err
		}
		if err := writeFiles(r.ws.root, map[string]string{o.file: text}); err != nil {
			return err
		}
		if exists {
			old, new := diffMiddle(cur, text)
			body = "*** Update File: " + o.file + "\n@@\n" + patchLines("-", old) + patchLines("+", new)
		} else {
			body = "*** Add File: " + o.file + "\n" + patchLines("+", text)
		}
	}
	head, _, _ := strings.Cut(body, "\n")
	d := r.sched.delay(r.rng)
	r.record(&call{
		scenario: name, tool: "apply_patch", changed: o.files(),
		move: fmt.Sprintf("apply_patch `%s`%s (Codex), hook after %v", head, moveTo(o), d.Round(time.Millisecond)),
		run:  r.hookAs("codex", d, codexPatch(r.ws, r.session, "*** Begin Patch\n"+body+"*** End Patch\n")),
	})
	return nil
}

// moveTo says where a move's patch moved the file to, "" for other ops.
func moveTo(o op) string {
	if o.kind != opMove {
		return ""
	}
	return " to " + o.to
}

// patchLines is text as a patch's lines with prefix ("+" added, "-"
// removed), each ending in a newline.
func patchLines(prefix, text string) string {
	if text == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+prefix) + "\n"
}

// tracked reports whether git tracks the workspace file rel.
func (r *runner) tracked(rel string) bool {
	return r.ws.command("git", "ls-files", "--error-unmatch", "--", rel).Run() == nil
}
