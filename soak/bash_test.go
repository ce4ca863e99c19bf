package soak

import (
	"context"
	"fmt"
	"time"
)

// bash makes o with a shell command, as an agent's Bash tool does, and
// runs the Bash hook with the command's real duration: sed -i for an
// edit, git checkout for a revert, rm, and mv or git mv.
func (r *runner) bash(name string, o op) error {
	var cmd string
	switch o.kind {
	case opEdit:
		cmd = fmt.Sprintf("sed -i %s %s", shellQuote(sedScript(o.subs)), shellQuote(o.file))
	case opRevert:
		cmd = "git checkout -- " + shellQuote(o.file)
	case opRemove:
		cmd = "rm " + shellQuote(o.file)
	case opMove:
		cmd = fmt.Sprintf("mv %s %s", shellQuote(o.file), shellQuote(o.to))
		if r.tracked(o.file) && r.rng.IntN(3) == 0 {
			cmd = "git " + cmd
		}
	default:
		return fmt.Errorf("%v: no shell command", o)
	}
	want, hasText, err := r.target(o)
	if err != nil {
		return err
	}
	begin := time.Now()
	out, code, err := runTool(context.Background(), r.ws.root, r.ws.env, "sh", "-c", cmd)
	took := time.Since(begin)
	if err != nil || code != 0 {
		return fmt.Errorf("%s: exit %d, %v: %s", cmd, code, err, out)
	}
	if hasText {
		if got := r.snapshot()[o.file]; got != want {
			return fmt.Errorf("%s did not make the text the scenario wants", cmd)
		}
	}
	d := r.sched.delay(r.rng)
	r.record(&call{
		scenario: name, tool: "Bash", changed: o.files(),
		move: fmt.Sprintf("Bash `%s` (%v), hook after %v", cmd, took.Round(time.Millisecond), d.Round(time.Millisecond)),
		run:  r.hook(d, postToolUse(r.ws, r.session, bashCall(cmd, out), took)),
	})
	return nil
}

// tracked reports whether git tracks the workspace file rel.
func (r *runner) tracked(rel string) bool {
	return r.ws.command("git", "ls-files", "--error-unmatch", "--", rel).Run() == nil
}
