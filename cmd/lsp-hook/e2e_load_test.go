package main_test

// Load tests (issue 7, "Load"): many hooks at once against one daemon,
// many requests on short connections, and a long run of sequential edits.
// Every run is bounded and stops by itself; all traffic to the daemon goes
// over its Unix socket, as hooks send it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/sidecar"
)

// Load test budgets: far above what a warm hook needs, so that a timeout
// means the daemon could not keep up, not that the machine was slow to
// schedule 200 processes.
const (
	loadBudget     = 30 * time.Second
	loadColdBudget = 40 * time.Second
	// loadHookTimeout kills a load-test hook that outlives its budget.
	loadHookTimeout = 60 * time.Second
)

// loadFile is one file of the load workspace: its workspace-relative
// path, its text, and, for a file with an error, the mark the error's
// message names (a per-file identifier; "" for JSON, whose message names
// no identifier) and the line it is reported on.
type loadFile struct {
	rel, lang string
	text      string
	mark      string // per-file identifier in the error message; "" when clean or JSON
	line      int    // the error's line; 0 when clean
}

func (f loadFile) bad() bool { return f.line > 0 }

// loadLangs are the languages of TestLoadConcurrentHooks, with the server
// each needs.
var loadLangs = []struct{ lang, exe string }{
	{"go", "gopls"}, {"ts", "typescript-language-server"}, {"py", "pyright-langserver"}, {"json", ""}, {"yaml", ""},
}

// loadFileOf builds file i of lang ("go", "ts", "py", "json", "yaml",
// "toml"): with an error naming a per-file identifier (JSON's names none:
// its error is a trailing comma) when bad, clean otherwise. i padding
// lines push the error down, so no two files of a language report the
// same line. stamp goes into a comment or a string on a line of its own
// (edits that change nothing else).
func loadFileOf(lang string, i int, bad bool, stamp string) loadFile {
	id := fmt.Sprintf("undef%s%02d", strings.ToUpper(lang[:1])+lang[1:], i)
	pad := func(prefix string) string { return strings.Repeat(prefix+" padding\n", i) }
	val := fmt.Sprint(i)
	if bad {
		val = id
	}
	f := loadFile{lang: lang}
	var mark string // the text on the error's line
	switch lang {
	case "go":
		f.rel = fmt.Sprintf("load/file%02d.go", i)
		f.text = fmt.Sprintf("package load\n\n%s\n// Value%02d is file %02d's value (%s).\nfunc Value%02d() int { return %s }\n", pad("//"), i, i, stamp, i, val)
		mark = "return " + id
	case "ts":
		f.rel = fmt.Sprintf("ts/src/file%02d.ts", i)
		f.text = fmt.Sprintf("%s/** value%02d is file %02d's value (%s). */\nexport const value%02d: number = %s;\n", pad("//"), i, i, stamp, i, val)
		mark = "= " + id
	case "py":
		f.rel = fmt.Sprintf("py/file%02d.py", i)
		f.text = fmt.Sprintf("\"\"\"File %02d (%s).\"\"\"\n\n%svalue%02d: int = %s\n", i, stamp, pad("#"), i, val)
		mark = "= " + id
	case "json":
		var b strings.Builder
		fmt.Fprintf(&b, "{\n  \"file\": \"file%02d (%s)\",\n", i, stamp)
		for k := range i {
			fmt.Fprintf(&b, "  \"pad%d\": %d,\n", k, k)
		}
		if bad { // a trailing comma, reported at the closing brace
			b.WriteString("  \"nested\": {\"a\": 1,\n  },\n")
		} else {
			b.WriteString("  \"nested\": {\"a\": 1\n  },\n")
		}
		b.WriteString("  \"end\": true\n}\n")
		f.rel, f.text = fmt.Sprintf("data/file%02d.json", i), b.String()
		mark, id = "  },", ""
	case "yaml", "toml":
		second := fmt.Sprintf("other%02d", i)
		if bad {
			second = id
		}
		f.rel = fmt.Sprintf("data/file%02d.%s", i, lang)
		if lang == "yaml" { // a duplicate key
			f.text = fmt.Sprintf("%s: 1\n%sname: file%02d (%s)\n%s: 2\n", id, pad("#"), i, stamp, second)
			mark = second + ": 2"
		} else {
			f.text = fmt.Sprintf("%s = 1\n%sname = \"file%02d (%s)\"\n%s = 2\n", id, pad("#"), i, stamp, second)
			mark = second + " = 2"
		}
	default:
		panic("unknown load language " + lang)
	}
	if bad {
		f.mark, f.line = id, lineOf(f.text, mark)
	}
	return f
}

// lineOf returns the 1-based line of the first occurrence of s in text.
func lineOf(text, s string) int {
	i := strings.Index(text, s)
	if i < 0 {
		panic(fmt.Sprintf("%q not in %q", s, text))
	}
	return strings.Count(text[:i], "\n") + 1
}

// newLoadWorkspace copies testdata/langs/go (a Go module) and adds the
// TypeScript and Python projects and the JSON and YAML files of files, each
// written as given.
func newLoadWorkspace(t *testing.T, files []loadFile) *workspace {
	t.Helper()
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath()})
	w.writeFile("ts/tsconfig.json", mustRead(t, moduleRoot+"/testdata/langs/ts/tsconfig.json"))
	w.writeFile("py/pyproject.toml", mustRead(t, moduleRoot+"/testdata/langs/py/pyproject.toml"))
	for _, f := range files {
		w.writeFile(f.rel, f.text)
	}
	return w
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
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	default:
		return r, err
	}
	return r, nil
}

// timeoutNoteRE is the honest note of a server that gave no fresh answer
// in time (sidecar's unknownNote); it is the only note a load-test answer
// may carry.
const timeoutNotePrefix = "lsp-hook: no fresh diagnostics from "

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
		var out struct {
			HookSpecificOutput struct {
				HookEventName     string `json:"hookEventName"`
				AdditionalContext string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out); err != nil || dec.More() || out.HookSpecificOutput.HookEventName != "PostToolUse" {
			return append(problems, fmt.Sprintf("stdout is not one PostToolUse answer (%v): %q", err, r.stdout)), false
		}
		block = out.HookSpecificOutput.AdditionalContext
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

// percentile returns the p-th percentile (0-100, nearest rank) of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// TestLoadConcurrentHooks releases 200 Claude Code hook processes at once,
// four Edit events for each of 50 files (10 each of Go, TypeScript,
// Python, JSON and YAML; half with an error whose message names the file's
// own identifier, or for JSON sits on the file's own line), against one
// warm daemon. Every hook exits 0 and answers about its own file only; a
// clean file gets nothing; the only note allowed is an honest timeout, and
// at most 1% of answers may carry one.
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
	w := newLoadWorkspace(t, files)
	editEvent := func(session string, f loadFile) string {
		return w.claudeEvent(session, "Edit", map[string]any{
			"file_path": w.path(f.rel), "old_string": "…", "new_string": "…", "replace_all": false,
		})
	}

	// Warm up: one hook per language starts the daemon and every server,
	// and each server answers once (its first touch).
	for i := 0; i < len(files); i += 10 {
		r := w.run(editEvent("warm", files[i]), nil, "hook", "claude",
			"--budget", loadBudget.String(), "--cold-budget", loadColdBudget.String())
		if problems, timedOut := loadAnswer(files[i], r); len(problems) > 0 || timedOut {
			t.Fatalf("warm-up hook for %s (%v): timeout %v, %s", files[i].rel, r.elapsed.Round(time.Millisecond), timedOut, strings.Join(problems, "\n"))
		}
		t.Logf("warm-up %s: %v", files[i].rel, r.elapsed.Round(time.Millisecond))
	}
	st, ok := w.status()
	if !ok {
		t.Fatal("no daemon after the warm-up hooks")
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

	// Every hook was served by the one daemon that was running.
	logged, _ := w.logSince(logOffset)
	if n := strings.Count(logged, "hook answered"); n != len(jobs) {
		t.Errorf("the log has %d \"hook answered\" lines after the warm-up, want %d", n, len(jobs))
	}
	if n := strings.Count(logged, "via=daemon "); n != len(jobs) {
		t.Errorf("%d of %d hooks were answered via=daemon; the others fell back or started a daemon", n, len(jobs))
	}
	st2, ok := w.status()
	if !ok || st2.Pid != st.Pid {
		t.Errorf("daemon after the load: pid %d (answering %v), want the warm daemon %d", st2.Pid, ok, st.Pid)
	}
}

// rpc calls method on w's daemon over a connection of its own, as a hook
// does: dial, hello, the call, close.
func (w *workspace) rpc(ctx context.Context, method string, params, result any) error {
	c, err := sidecar.Dial(ctx, w.socket(), "e2e-load")
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Call(ctx, method, params, result)
}

// processStats asks the daemon for status over a connection of its own and
// returns its process block.
func (w *workspace) processStats(ctx context.Context) (sidecar.ProcessStats, error) {
	var st sidecar.StatusResult
	if err := w.rpc(ctx, sidecar.MethodStatus, struct{}{}, &st); err != nil {
		return sidecar.ProcessStats{}, err
	}
	if st.Process == nil || st.Process.Goroutines == 0 || st.Process.OpenFDs == 0 || st.Process.RSSKiB == 0 {
		return sidecar.ProcessStats{}, fmt.Errorf("status has no complete process block: %+v", st.Process)
	}
	return *st.Process, nil
}

// checkResult checks a notify_change answer about f (its text as written):
// its error, at its line, and nothing else; or nothing for a clean file.
func checkResult(f loadFile, res sidecar.Result) error {
	if len(res.Notes) > 0 {
		return fmt.Errorf("%s: notes %q", f.rel, res.Notes)
	}
	if !f.bad() {
		if len(res.Files) > 0 || res.Lint != "" {
			return fmt.Errorf("clean %s reported: %+v", f.rel, res.Files)
		}
		return nil
	}
	if len(res.Files) != 1 || res.Files[0].Rel != f.rel || len(res.Files[0].Diagnostics) == 0 {
		return fmt.Errorf("%s: want its error at line %d, got files %+v", f.rel, f.line, res.Files)
	}
	for _, d := range res.Files[0].Diagnostics {
		if d.Line != f.line || !strings.Contains(d.Message, f.mark) {
			return fmt.Errorf("%s: want one error at line %d naming %q, got %+v", f.rel, f.line, f.mark, res.Files[0].Diagnostics)
		}
	}
	return nil
}

// methodUnknown is what requestMix.do returns for a request whose method
// the daemon does not serve.
const methodUnknown = "(unknown)"

// requestMix is the traffic of TestLoadRequestsBackToBaseline: request k
// is a notify_change (half of them), diagnostics or status, about one of
// files, or (one in a hundred) a method the daemon does not know, on conn
// when it is not nil and on a connection of its own otherwise.
type requestMix struct {
	w     *workspace
	files []loadFile
}

// do sends request k and checks its answer; it returns the method sent.
func (m requestMix) do(ctx context.Context, k int, conn *sidecar.Client) (string, error) {
	call := func(method string, params, result any) error {
		if conn != nil {
			return conn.Call(ctx, method, params, result)
		}
		return m.w.rpc(ctx, method, params, result)
	}
	f := m.files[(k/4)%len(m.files)]
	switch {
	case k%100 == 99: // a method the daemon does not serve, named differently each time
		method := fmt.Sprintf("load/unknown-%d", k)
		var jerr *jsonrpc2.Error
		if err := call(method, struct{}{}, nil); !errors.As(err, &jerr) || jerr.Code != jsonrpc2.CodeMethodNotFound {
			return methodUnknown, fmt.Errorf("%s: %v, want a method-not-found error", method, err)
		}
		return methodUnknown, nil
	case k%4 < 2:
		ch := sidecar.Change{Path: f.rel, Mode: sidecar.ModeEdit}
		if k%4 == 0 { // as a Write event sends it
			text := f.text
			ch.Content, ch.Mode = &text, sidecar.ModeWrite
		}
		var res sidecar.Result
		if err := call(sidecar.MethodNotifyChange, sidecar.NotifyChangeParams{Changes: []sidecar.Change{ch}, Source: "load"}, &res); err != nil {
			return sidecar.MethodNotifyChange, err
		}
		return sidecar.MethodNotifyChange, checkResult(f, res)
	case k%4 == 2:
		p := sidecar.DiagnosticsParams{}
		if k%8 == 2 {
			p.Paths = []string{f.rel}
		}
		var res sidecar.Result
		if err := call(sidecar.MethodDiagnostics, p, &res); err != nil {
			return sidecar.MethodDiagnostics, err
		}
		if len(res.Files) > 0 || len(res.Notes) > 0 { // validators keep no state; no server runs here
			return sidecar.MethodDiagnostics, fmt.Errorf("diagnostics %v: files %+v, notes %q", p.Paths, res.Files, res.Notes)
		}
		return sidecar.MethodDiagnostics, nil
	default:
		var st sidecar.StatusResult
		if err := call(sidecar.MethodStatus, struct{}{}, &st); err != nil {
			return sidecar.MethodStatus, err
		}
		if st.Pid == 0 || st.Process == nil {
			return sidecar.MethodStatus, fmt.Errorf("status without pid or process block: %+v", st)
		}
		return sidecar.MethodStatus, nil
	}
}

// run sends requests first..first+n-1 from workers goroutines, each
// request on a connection of its own except every fifth, which goes on
// the worker's long-lived connection (closed when the run ends). It
// returns how many of each method were sent, and the first errors.
func (m requestMix) run(ctx context.Context, first, n, workers int) (map[string]int64, []error) {
	var (
		mu   sync.Mutex // guards sent and errs
		sent = make(map[string]int64)
		errs []error
	)
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			conn, err := sidecar.Dial(ctx, m.w.socket(), "e2e-load")
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			defer conn.Close()
			for k := first + wk; k < first+n; k += workers {
				var c *sidecar.Client
				if k%5 == 0 {
					c = conn
				}
				method, err := m.do(ctx, k, c)
				mu.Lock()
				sent[method]++
				if err != nil && len(errs) < 10 {
					errs = append(errs, fmt.Errorf("request %d (%s): %w", k, method, err))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return sent, errs
}

// TestLoadRequestsBackToBaseline sends 10,000 requests to one daemon —
// notify_change on JSON and YAML files (half of them with an error),
// diagnostics and status; most on a connection of their own, as hooks
// send them; eight at a time — and checks that the daemon's goroutines and
// open file descriptors (status's process block) come back to what they
// were before, and that its counters saw every request.
func TestLoadRequestsBackToBaseline(t *testing.T) {
	e2e(t)
	var files []loadFile
	for i := range 10 {
		files = append(files, loadFileOf("json", i, i%2 == 0, "shipped"), loadFileOf("yaml", i, i%2 == 0, "shipped"))
	}
	w := newLoadWorkspace(t, files)
	// A hook starts the daemon, as it would for an agent.
	if problems, _ := loadAnswer(files[0], w.run(w.edit("s", files[0].rel, files[0].text), nil, "hook", "claude")); len(problems) > 0 {
		t.Fatalf("first hook: %s", strings.Join(problems, "\n"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	m := requestMix{w: w, files: files}
	const workers, warm, total = 8, 400, 10000
	if _, errs := m.run(ctx, 0, warm, workers); len(errs) > 0 {
		t.Fatalf("warm-up requests failed: %v", errs)
	}
	before, err := w.processStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var stBefore sidecar.StatusResult
	if err := w.rpc(ctx, sidecar.MethodStatus, struct{}{}, &stBefore); err != nil {
		t.Fatal(err)
	}

	// Sample the daemon while the load runs, for the log.
	peak := before
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if p, err := w.processStats(ctx); err == nil {
				peak.Goroutines, peak.OpenFDs = max(peak.Goroutines, p.Goroutines), max(peak.OpenFDs, p.OpenFDs)
				peak.RSSKiB, peak.HeapKiB = max(peak.RSSKiB, p.RSSKiB), max(peak.HeapKiB, p.HeapKiB)
			}
		}
	})
	begin := time.Now()
	sent, errs := m.run(ctx, warm, total, workers)
	elapsed := time.Since(begin)
	close(stop)
	sampler.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	var n int64
	for _, c := range sent {
		n += c
	}
	if n != total {
		t.Fatalf("sent %d requests, want %d", n, total)
	}

	// Goroutines and descriptors come back (allowing for the connection
	// of the status call that measures them, and one still closing).
	const allowGoroutines, allowFDs = 4, 2
	var after sidecar.ProcessStats
	back := pollUntil(20*time.Second, func() bool {
		after, err = w.processStats(ctx)
		return err == nil && after.Goroutines <= before.Goroutines+allowGoroutines && after.OpenFDs <= before.OpenFDs+allowFDs
	})
	t.Logf("%d requests (%v) in %v: daemon goroutines %d before, %d at most during, %d after; open fds %d, %d, %d; rss %d, %d, %d KiB; heap %d, %d, %d KiB",
		n, sent, elapsed.Round(time.Millisecond), before.Goroutines, peak.Goroutines, after.Goroutines,
		before.OpenFDs, peak.OpenFDs, after.OpenFDs, before.RSSKiB, peak.RSSKiB, after.RSSKiB, before.HeapKiB, peak.HeapKiB, after.HeapKiB)
	if err != nil {
		t.Fatal(err)
	}
	if !back {
		t.Errorf("the daemon did not come back to its baseline within 20s: goroutines %d → %d (allowed +%d), open fds %d → %d (allowed +%d)",
			before.Goroutines, after.Goroutines, allowGoroutines, before.OpenFDs, after.OpenFDs, allowFDs)
	}
	var stAfter sidecar.StatusResult
	if err := w.rpc(ctx, sidecar.MethodStatus, struct{}{}, &stAfter); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{sidecar.MethodNotifyChange, sidecar.MethodDiagnostics} {
		if got := stAfter.Counters[method] - stBefore.Counters[method]; got != sent[method] {
			t.Errorf("daemon counted %d %s requests, the test sent %d", got, method, sent[method])
		}
	}
	// Made-up method names are not kept one counter each.
	if len(stAfter.Counters) > len(stBefore.Counters)+1 {
		t.Errorf("status has %d counters after %d requests with made-up methods, %d before", len(stAfter.Counters), sent[methodUnknown], len(stBefore.Counters))
	}
}

// TestLoadSoak makes 10,000 edits one after another, each a notify_change
// on a connection of its own after the file was written, as an Edit hook
// sends it: JSON, YAML and TOML files broken and fixed in turn, and every
// 50th edit a Go file, broken and fixed in turn, so gopls answers
// throughout. Half the data files and the Go file are checked with
// only_new, so its memory is in the loop, and a subscriber takes every
// check's published notification. Every answer is checked; the daemon's
// RSS after each 1,000 edits must stay within ±10% of its value after the
// first 1,000.
func TestLoadSoak(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	const edits, every, goEvery = 10000, 1000, 50
	var data []loadFile // one state of each data file, for its path
	for i := range 4 {
		for _, lang := range []string{"json", "yaml", "toml"} {
			data = append(data, loadFileOf(lang, i, false, "shipped"))
		}
	}
	goFile := loadFileOf("go", 0, false, "shipped")
	w := newLoadWorkspace(t, append(slices.Clone(data), goFile))
	// A hook starts the daemon and gopls.
	if problems, timedOut := loadAnswer(goFile, w.run(w.edit("s", goFile.rel, goFile.text), nil, "hook", "claude",
		"--budget", loadBudget.String(), "--cold-budget", loadColdBudget.String())); len(problems) > 0 || timedOut {
		t.Fatalf("first hook: timeout %v, %s", timedOut, strings.Join(problems, "\n"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	// A subscriber counts the notifications it gets, and those it lost.
	var got, dropped atomic.Int64
	subCtx, stopSub := context.WithCancel(ctx)
	subscribed := make(chan struct{})
	var sub sync.WaitGroup
	sub.Go(func() {
		err := sidecar.Subscribe(subCtx, "e2e-load", sidecar.StartOptions{Executable: lspHook, Root: w.root, Socket: w.socket()},
			func(sidecar.HelloResult) { close(subscribed) },
			func(m sidecar.Published) bool {
				got.Add(1)
				dropped.Add(m.Dropped)
				return true
			})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("subscriber: %v", err)
		}
	})
	defer func() { stopSub(); sub.Wait() }()
	select {
	case <-subscribed:
	case <-time.After(10 * time.Second):
		t.Fatal("the subscription was not in place after 10s")
	}

	bad := make([]bool, len(data)) // each data file's state: broken after odd edits
	goBad, goTimeouts, goEdits, failures := false, 0, 0, 0
	var rss []int64 // after every 1,000 edits, KiB
	begin := time.Now()
	for n := range edits {
		var f loadFile
		stamp := fmt.Sprintf("edit %d", n)
		onlyNew := true
		if n%goEvery == goEvery-1 {
			goBad = !goBad
			f = loadFileOf("go", 0, goBad, stamp)
			goEdits++
		} else {
			i := n % len(data)
			bad[i] = !bad[i]
			f = loadFileOf(data[i].lang, i/3, bad[i], stamp)
			onlyNew = i%2 == 0
		}
		w.writeFile(f.rel, f.text)
		p := sidecar.NotifyChangeParams{
			Changes: []sidecar.Change{{Path: f.rel, Mode: sidecar.ModeEdit}}, Source: "soak", OnlyNew: &onlyNew, Publish: true,
			BudgetMS: int(loadBudget.Milliseconds()), ColdBudgetMS: int(loadColdBudget.Milliseconds()),
		}
		var res sidecar.Result
		if err := w.rpc(ctx, sidecar.MethodNotifyChange, p, &res); err != nil {
			t.Fatalf("edit %d (%s): %v", n, f.rel, err)
		}
		if f.lang == "go" && slices.ContainsFunc(res.Servers, func(s sidecar.ServerResult) bool { return s.Freshness != "fresh" }) {
			goTimeouts++
			t.Logf("edit %d (%s): servers %+v", n, f.rel, res.Servers)
		} else if err := checkResult(f, res); err != nil {
			if failures++; failures <= 10 {
				t.Errorf("edit %d: %v", n, err)
			}
		}
		if (n+1)%every == 0 {
			p, err := w.processStats(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rss = append(rss, p.RSSKiB)
			t.Logf("after %5d edits (%v): rss %d KiB, heap %d KiB, %d goroutines, %d open fds",
				n+1, time.Since(begin).Round(time.Millisecond), p.RSSKiB, p.HeapKiB, p.Goroutines, p.OpenFDs)
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d answers were wrong", failures, edits)
	}
	// One notification per edit (one changed file each), received or
	// counted as dropped.
	if !pollUntil(10*time.Second, func() bool { return got.Load()+dropped.Load() >= edits }) || got.Load()+dropped.Load() != edits {
		t.Errorf("the subscriber got %d notifications and lost %d, want %d in all", got.Load(), dropped.Load(), edits)
	}
	if goTimeouts*100 > goEdits {
		t.Errorf("%d of %d Go edits got no fresh answer from gopls; at most 1%% may", goTimeouts, goEdits)
	}
	ref := rss[0]
	for i, v := range rss[1:] {
		if v*10 > ref*11 || v*10 < ref*9 {
			t.Errorf("rss after %d edits is %d KiB, more than 10%% from %d KiB after the first %d", (i+2)*every, v, ref, every)
		}
	}
	t.Logf("%d edits (%d Go) in %v; subscriber got %d, lost %d; rss every %d edits (KiB): %v",
		edits, goEdits, time.Since(begin).Round(time.Millisecond), got.Load(), dropped.Load(), every, rss)
}
