package main_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadLangs are the languages of TestLoadConcurrentHooks, with the server
// each needs.
var loadLangs = []struct{ lang, exe string }{
	{"go", "gopls"}, {"ts", "typescript-language-server"}, {"py", "pyright-langserver"}, {"json", ""}, {"yaml", ""},
}

// heldHook is a `lsp-hook hook claude` process started with its stdin
// left open: it has started up and waits for its event, so a batch of them
// can be released together.
type heldHook struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	stdout, stderr bytes.Buffer
	released       time.Time
}

// startHeld starts a hook process in w with the load budgets.
func (w *workspace) startHeld(ctx context.Context) *heldHook {
	w.t.Helper()
	h := &heldHook{}
	h.cmd = exec.CommandContext(ctx, lspHook, "hook", "claude",
		"--budget", loadBudget.String(), "--cold-budget", loadColdBudget.String())
	h.cmd.Dir = w.root
	h.cmd.Env = childEnv(w.runtime, w.extra)
	h.cmd.Stdout, h.cmd.Stderr = &h.stdout, &h.stderr
	h.cmd.WaitDelay = time.Second
	var err error
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		w.t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		w.t.Fatalf("starting lsp-hook hook claude: %v", err)
	}
	return h
}

// release writes the event to the hook's stdin and closes it.
func (h *heldHook) release(event string) error {
	h.released = time.Now()
	_, err := io.WriteString(h.stdin, event)
	if cerr := h.stdin.Close(); err == nil {
		err = cerr
	}
	return err
}

// wait waits for the hook to exit and returns what it did, elapsed
// counted from its release.
func (h *heldHook) wait() (result, error) {
	err := h.cmd.Wait()
	r := result{stdout: h.stdout.String(), stderr: h.stderr.String(), elapsed: time.Since(h.released)}
	err = r.setExit(err) // before r is returned: it sets r.exit
	return r, err
}

// timeoutNotePrefix begins the honest note of a server that gave no fresh answer
// in time (sidecar's unknownNote); it is the only note a load-test answer
// may carry.
const timeoutNotePrefix = "lsp-hook: no fresh diagnostics from "

// warmHook runs one hook with the load budgets on event, an edit of f that
// starts the daemon or a server (a first touch), and fails the test unless
// it answered about f in time; what for names it in the failure.
func (w *workspace) warmHook(t *testing.T, what, event string, f loadFile) result {
	t.Helper()
	r := w.run(event, nil, "hook", "claude", "--budget", loadBudget.String(), "--cold-budget", loadColdBudget.String())
	if problems, timedOut := loadAnswer(f, r); len(problems) > 0 || timedOut {
		t.Fatalf("%s for %s (%v): timeout %v, %s", what, f.rel, r.elapsed.Round(time.Millisecond), timedOut, strings.Join(problems, "\n"))
	}
	return r
}

// loadAnswer checks one hook's answer about f: exit 0, nothing or one
// answer object on stdout, a lint block about f only (its file="…" and its
// mark and line), and no note but an honest timeout. It returns the
// problems found and whether the answer said a server timed out.
func loadAnswer(f loadFile, r result) (problems []string, timedOut bool) {
	if r.exit != 0 {
		return []string{fmt.Sprintf("exit %d; stderr %q", r.exit, r.stderr)}, false
	}
	if r.stderr != "" {
		problems = append(problems, fmt.Sprintf("stderr %q", r.stderr))
	}
	block := ""
	if r.stdout != "" {
		var err error
		if block, err = decodeClaudeAnswer(r.stdout); err != nil {
			return append(problems, err.Error()), false
		}
	}
	var diags []string // the block's diagnostic lines
	inFile := false
	for _, l := range strings.Split(block, "\n") {
		switch {
		case l == "" && block == "":
		case l == headerThisFile:
		case l == `<diagnostics file="`+f.rel+`">`:
			inFile = true
		case l == "</diagnostics>" && inFile:
			inFile = false
		case diagLineRE.MatchString(l) && inFile:
			diags = append(diags, l)
		case strings.HasPrefix(l, timeoutNotePrefix) && strings.HasSuffix(l, "; errors it would report are unknown, not absent."):
			timedOut = true
			if !strings.Contains(l, "(timeout)") && !strings.Contains(l, "(partial)") {
				problems = append(problems, "a note other than a timeout: "+l)
			}
		default:
			problems = append(problems, fmt.Sprintf("line %q is not about %s", l, f.rel))
		}
	}
	want := fmt.Sprintf("ERROR [%d:", f.line)
	switch {
	case !f.bad() && len(diags) > 0:
		problems = append(problems, fmt.Sprintf("clean file reported: %q", diags))
	case f.bad() && len(diags) == 0 && !timedOut:
		problems = append(problems, "the file's error is missing, and no timeout was noted")
	case f.bad() && len(diags) > 0:
		found := slices.ContainsFunc(diags, func(l string) bool {
			return strings.HasPrefix(l, want) && strings.Contains(l, f.mark)
		})
		if !found {
			problems = append(problems, fmt.Sprintf("no %s…%s… line among %q", want, f.mark, diags))
		}
		for _, l := range diags {
			if !strings.HasPrefix(l, want) {
				problems = append(problems, fmt.Sprintf("unexpected line %q (only line %d has an error)", l, f.line))
			}
		}
	}
	if len(problems) > 0 {
		problems = append(problems, "block:\n"+indent(block))
	}
	return problems, timedOut
}

// TestLoadConcurrentHooks releases 200 Claude Code hook processes at once,
// four Edit events for each of 50 files (10 each of Go, TypeScript,
// Python, JSON and YAML; half with an error whose message names the file's
// own identifier, or for JSON sits on the file's own line): once against
// a warm daemon, whose servers have each answered once, and once with no
// daemon running, so that every hook races to start one. Every hook exits
// 0 and answers about its own file only; a clean file gets nothing; the
// only note allowed is an honest timeout, and at most 1% of answers may
// carry one. One daemon serves them all.
func TestLoadConcurrentHooks(t *testing.T) {
	e2e(t)
	for _, l := range loadLangs {
		if l.exe != "" {
			requireExe(t, l.exe)
		}
	}
	var files []loadFile
	for _, l := range loadLangs {
		for i := range 10 {
			files = append(files, loadFileOf(l.lang, i, i%2 == 0, "shipped"))
		}
	}
	t.Run("warm daemon", func(t *testing.T) { hooksAtOnce(t, files, true) })
	t.Run("no daemon yet", func(t *testing.T) { hooksAtOnce(t, files, false) })
}

// hooksAtOnce runs TestLoadConcurrentHooks in a workspace of its own,
// warming the daemon and its servers up first when warm is set.
func hooksAtOnce(t *testing.T, files []loadFile, warm bool) {
	w := newLoadWorkspace(t, files)
	editEvent := func(session string, f loadFile) string {
		return w.claudeEvent(session, "Edit", map[string]any{
			"file_path": w.path(f.rel), "old_string": "…", "new_string": "…", "replace_all": false,
		})
	}
	if warm {
		// One hook per language starts the daemon and every server, and
		// each server answers once (its first touch).
		for i := 0; i < len(files); i += 10 {
			r := w.warmHook(t, "warm-up hook", editEvent("warm", files[i]), files[i])
			t.Logf("warm-up %s: %v", files[i].rel, r.elapsed.Round(time.Millisecond))
		}
	}
	_, logOffset := w.logSince(0)

	// 200 hooks, started first and then released together.
	const perFile = 4
	ctx, cancel := context.WithTimeout(context.Background(), loadHookTimeout)
	defer cancel()
	type job struct {
		f loadFile
		h *heldHook
	}
	var jobs []job
	for range perFile {
		for _, f := range files {
			jobs = append(jobs, job{f: f, h: w.startHeld(ctx)})
		}
	}
	events := make([]string, len(jobs))
	for i, j := range jobs {
		events[i] = editEvent(fmt.Sprintf("load-%d", i%8), j.f)
	}
	results := make([]result, len(jobs))
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	begin := time.Now()
	for i, j := range jobs {
		if err := j.h.release(events[i]); err != nil {
			t.Fatalf("releasing hook %d: %v", i, err)
		}
		wg.Go(func() { results[i], errs[i] = j.h.wait() })
	}
	wg.Wait()
	wall := time.Since(begin)

	var latencies []time.Duration
	timeouts := 0
	for i, j := range jobs {
		if errs[i] != nil {
			t.Errorf("hook %d (%s): %v", i, j.f.rel, errs[i])
			continue
		}
		latencies = append(latencies, results[i].elapsed)
		problems, timedOut := loadAnswer(j.f, results[i])
		if timedOut {
			timeouts++
			t.Logf("hook %d (%s) noted a timeout after %v", i, j.f.rel, results[i].elapsed.Round(time.Millisecond))
		}
		if len(problems) > 0 {
			t.Errorf("hook %d (%s, %v): %s", i, j.f.rel, results[i].elapsed.Round(time.Millisecond), strings.Join(problems, "\n"))
		}
	}
	t.Logf("%d hooks at once: p50 %v, p99 %v, max %v, all answered in %v; %d noted a timeout",
		len(jobs), percentile(latencies, 50).Round(time.Millisecond), percentile(latencies, 99).Round(time.Millisecond),
		percentile(latencies, 100).Round(time.Millisecond), wall.Round(time.Millisecond), timeouts)
	if timeouts*100 > len(jobs) {
		t.Errorf("%d of %d answers noted a timeout; at most 1%% may", timeouts, len(jobs))
	}
	checkOneDaemon(t, w, len(jobs), logOffset, warm)
}

// checkOneDaemon checks, from the log after offset and the processes
// running, that one daemon answered the n hooks: the warm one alone, or,
// with no daemon at first, one that the hooks started, the hooks that lost
// the race to start it having left.
func checkOneDaemon(t *testing.T, w *workspace, n int, offset int64, warm bool) {
	t.Helper()
	logged, _ := w.logSince(offset)
	answered, viaDaemon, viaStarted := strings.Count(logged, "hook answered"), strings.Count(logged, "via=daemon "), strings.Count(logged, "via=started-daemon ")
	if answered != n || viaDaemon+viaStarted != n || warm && viaStarted > 0 {
		t.Errorf("the log has %d \"hook answered\" lines, %d via=daemon and %d via=started-daemon; want %d answered by a daemon (started by none of them: %v)",
			answered, viaDaemon, viaStarted, n, warm)
	}
	t.Logf("%d hooks answered via the running daemon, %d after starting one", viaDaemon, viaStarted)
	st, ok := w.status()
	if !ok {
		t.Fatal("no daemon answers status after the hooks")
	}
	if !pollUntil(10*time.Second, func() bool { ds := w.daemons(); return len(ds) == 1 && ds[0].pid == st.Pid }) {
		t.Errorf("daemon processes for the workspace: %+v, want exactly status's pid %d", w.daemons(), st.Pid)
	}
}
