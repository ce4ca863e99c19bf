package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
)

// budgetModule is the real Go module the memory budget test copies out
// of the module cache: golang.org/x/sync, which lsp-hook's go.mod requires
// (so the cache holds it wherever lsp-hook builds).
const budgetModule = "golang.org/x/sync@v0.22.0"

// budgetWorktrees is how many worktree sessions the test runs at once.
const budgetWorktrees = 10

// TestMemoryBudgetWorktrees is issue 18's must-hold: ten git worktrees of
// a real Go module, one edit each through the real hook, daemon and
// gopls, under a memory budget of about three gopls' worth (measured on
// the first worktree); then idle. The daemons' process trees (each daemon
// with its servers and theirs) must come under the budget — waited for
// with a deadline, not timed — and an edit in a worktree whose gopls the
// budget stopped must still be answered with the type error `go build`
// reports.
func TestMemoryBudgetWorktrees(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	rt := testdaemon.ShortDir(t) // one runtime dir: the daemons share their records
	wts := budgetWorktreesOf(t, rt)
	for _, w := range wts {
		t.Cleanup(w.stopAll)
	}

	// The first worktree, without a budget, measures one daemon and one gopls.
	writeUserConfig(t, rt, "memory_budget: 0\n")
	first := wts[0]
	first.checkTypeError(1000)
	st, _ := first.status()
	gopls := first.gopls(st)
	trees, err := proc.TreeRSS(st.Pid, gopls.Pid)
	if err != nil {
		t.Fatal(err)
	}
	daemonRSS, goplsRSS := trees[st.Pid]-trees[gopls.Pid], trees[gopls.Pid]
	budget := budgetWorktrees*daemonRSS*3/2 + 3*goplsRSS
	t.Logf("measured: daemon %d MiB, gopls tree %d MiB; budget %d MiB (%d daemons ×1.5 + 3 gopls)",
		daemonRSS>>20, goplsRSS>>20, budget>>20, budgetWorktrees)
	writeUserConfig(t, rt, fmt.Sprintf("memory_budget: %dB\n", budget))
	first.run("", nil, "stop") // its next daemon reads the budget

	// One edit each, one after another: each waits for its cold gopls.
	for i, w := range wts {
		w.checkTypeError(i + 1)
	}
	idleFrom := time.Now()
	var total int64
	under := pollUntil(3*time.Minute, func() bool {
		total = daemonTrees(t, wts)
		return total <= budget
	})
	t.Logf("all daemons' trees: %d MiB against a budget of %d MiB, %v after the last edit",
		total>>20, budget>>20, time.Since(idleFrom).Round(time.Second))
	all := first.run("", nil, "status", "--all")
	t.Logf("status --all:\n%s", all.stdout)
	if !under {
		t.Fatalf("the daemons' trees hold %d MiB, over the budget of %d MiB", total>>20, budget>>20)
	}
	if n := strings.Count(all.stdout, "(daemon)"); n != budgetWorktrees {
		t.Errorf("status --all lists %d daemons, want %d", n, budgetWorktrees)
	}

	// A worktree whose gopls the budget stopped answers its next edit.
	stopped := stoppedWorktree(t, wts)
	if stopped == nil {
		t.Fatal("no worktree's status shows a gopls stopped for the memory budget")
	}
	stopped.checkTypeError(100)
	st, _ = stopped.status()
	stopped.gopls(st) // running again
}

// budgetWorktreesOf copies budgetModule into a git repository and adds
// budgetWorktrees worktrees of it, each a workspace whose processes use
// the runtime dir rt.
func budgetWorktreesOf(t *testing.T, rt string) []*workspace {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), filepath.FromSlash(budgetModule))
	if _, err := os.Stat(src); err != nil {
		if out, err := exec.Command("go", "mod", "download", budgetModule).CombinedOutput(); err != nil {
			t.Skipf("%s is not in the module cache and could not be downloaded: %v\n%s", budgetModule, err, out)
		}
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "repo")
	if err := os.CopyFS(repo, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git(repo, "init", "-q")
	git(repo, "add", "-A")
	git(repo, "commit", "-qm", "x/sync")
	var wts []*workspace
	for i := range budgetWorktrees {
		root := filepath.Join(base, fmt.Sprintf("wt%d", i))
		git(repo, "worktree", "add", "-q", "-b", fmt.Sprintf("session%d", i), root)
		wts = append(wts, &workspace{t: t, root: root, runtime: rt})
	}
	return wts
}

// writeUserConfig writes the user config file of every process run with
// the runtime dir rt ($XDG_CONFIG_HOME/lsp-hook/config.yaml, childEnv):
// content, and first-touch waits long enough for a cold gopls on a loaded
// machine.
func writeUserConfig(t *testing.T, rt, content string) {
	t.Helper()
	f := filepath.Join(rt, "config", "lsp-hook", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte("lsp:\n  first_touch_timeout: 80s\n"+content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildErrorRE is one line of `go build`'s errors: path:line:col: message.
var buildErrorRE = regexp.MustCompile(`(?m)^(\S+\.go):(\d+):(\d+): (.+)$`)

// checkTypeError adds a type error numbered n to errgroup/errgroup.go by
// an Edit through `lsp-hook hook claude` and checks that the lint block
// names it at the line, column and with the message `go build` reports.
func (w *workspace) checkTypeError(n int) {
	w.t.Helper()
	rel := "errgroup/errgroup.go"
	text := w.readFile(rel) + fmt.Sprintf("\nvar budgetCheck%d int = \"edit %d\"\n", n, n)
	event := w.edit("budget", rel, text)
	r := w.run(event, nil, "hook", "claude", "--cold-budget", "90s")
	block := w.checkHook(r)
	build := exec.Command("go", "build", "./errgroup")
	build.Dir = w.root
	out, _ := build.CombinedOutput()
	m := buildErrorRE.FindStringSubmatch(string(out))
	if m == nil {
		w.t.Fatalf("go build ./errgroup reported no error:\n%s", out)
	}
	want := fmt.Sprintf("ERROR [%s:%s] %s", m[2], m[3], m[4])
	if !strings.Contains(block, want) {
		w.t.Fatalf("%s: lint block after edit %d =\n%s\nwant the error go build reports: %s", w.root, n, block, want)
	}
	// Keep the file building for the next edit: one error at a time.
	w.writeFile(rel, strings.Replace(text, fmt.Sprintf("int = \"edit %d\"", n), "int = 0", 1))
}

// daemonTrees sums the RSS of every worktree's daemon process tree: the
// daemon, its language servers and what they started.
func daemonTrees(t *testing.T, wts []*workspace) int64 {
	t.Helper()
	var pids []int
	for _, w := range wts {
		for _, d := range w.daemons() {
			pids = append(pids, d.pid)
		}
	}
	trees, err := proc.TreeRSS(pids...)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, n := range trees {
		sum += n
	}
	return sum
}

// stoppedWorktree returns a worktree whose status says the budget stopped
// its gopls and that runs none now; nil when there is none.
func stoppedWorktree(t *testing.T, wts []*workspace) *workspace {
	t.Helper()
	for _, w := range wts {
		st, ok := w.status()
		if !ok || st.Memory == nil || len(st.Memory.Stopped) == 0 {
			continue
		}
		running := false
		for _, s := range st.Servers {
			running = running || (s.Name == "gopls" && s.State == "active")
		}
		if !running {
			b, _ := json.Marshal(st.Memory)
			t.Logf("%s: gopls stopped for the budget: %s", w.root, b)
			return w
		}
	}
	return nil
}
