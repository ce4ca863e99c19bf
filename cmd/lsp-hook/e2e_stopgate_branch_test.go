package main_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStopGateBranchSwitch: a session edits main.go, then stashes its
// work and checks out a branch someone left broken before the session
// (wip: greet.Greet gained a parameter, and main.go's call was not
// updated), and ends its turn. The errors go build reports on wip were
// there before the session, on the branch it moved to: the gate must
// allow, as it does for errors older than the session on the branch it
// began on. It blocked, judging every file against the branch the session
// began on. Then the session breaks main.go on wip itself, and commits
// it: the gate blocks, naming that error and none of wip's.
func TestStopGateBranchSwitch(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	hourAgo := time.Now().Add(-time.Hour).Format(time.RFC3339)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", w.root, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+hourAgo, "GIT_AUTHOR_DATE="+hourAgo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "master")
	git("add", "-A")
	git("commit", "-qm", "clean")
	git("checkout", "-qb", "wip")
	w.writeFile("greet/greet.go", strings.Replace(w.readFile("greet/greet.go"), "func Greet(name string) string", "func Greet(name string, times int) string", 1))
	w.writeFile("loud.go", strings.Replace(w.readFile("loud.go"), `greet.Greet("everyone")`, `greet.Greet("everyone", 2)`, 1))
	git("commit", "-qam", "wip: Greet takes a count (main.go not updated yet)")
	git("checkout", "-q", "master")
	wip := goErrors(t, w.root)
	if len(wip) != 0 {
		t.Fatalf("master does not build: %v", wip)
	}

	w.lifecycle("s", "SessionStart", map[string]any{"source": "startup"})
	w.hook(w.edit("s", "main.go", w.readFile("main.go")+"\n// hello is a greeting.\nconst hello = \"hi\"\n"))
	const switchBranch = "git stash -q && git checkout -q wip"
	if out, err := exec.Command("sh", "-c", "cd "+w.root+" && "+switchBranch).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", switchBranch, err, out)
	}
	w.hook(w.bash("s", switchBranch))
	if wip = goErrors(t, w.root); len(wip) == 0 {
		t.Fatal("go build reports no error on wip; the test wants its call in main.go broken")
	}
	w.stopAllows("s", "checking out a branch broken before the session ("+switchBranch+")")

	w.hook(w.edit("s", "main.go", w.readFile("main.go")+"\nvar broken int = \"x\"\n"))
	var truth []compilerErr
	for _, e := range goErrors(t, w.root) {
		if !slices.Contains(wip, e) {
			truth = append(truth, e)
		}
	}
	if len(truth) == 0 {
		t.Fatal("go build reports no new error after the session's edit")
	}
	w.stopBlocks("s", "breaking main.go on wip", truth)
	if d, _ := stopDecision(t)(w.lifecycle("s", "Stop", map[string]any{"stop_hook_active": true})); d != "warn" {
		t.Errorf("the end of turn after a block: %q, want a warning (never two blocks in a row)", d)
	}
	commitAll(t, w.root) // the session's `git commit -am …`, dated now
	w.stopBlocks("s", "committing main.go's error on wip", truth)
}
