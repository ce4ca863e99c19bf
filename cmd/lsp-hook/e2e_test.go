package main_test

// End-to-end tests: the real lsp-hook binary, a real daemon, real gopls,
// and each hook run exactly as Claude Code runs a PostToolUse hook (event
// JSON on stdin, the workspace as working directory). Every test gets its
// own copy of testdata/demo and its own short XDG_RUNTIME_DIR (Unix socket
// paths are limited to 108 bytes), and stops its daemon when it ends; no
// daemon or gopls outlives a test.

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/wire"
)

func TestMain(m *testing.M) {
	proc.SupervisorMain() // tests that run commands in-process start servers
	flag.Parse()
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if moduleRoot, err = findModuleRoot(wd); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	// Pinned servers from `make tools` come first, for the test and for the
	// daemons it starts.
	os.Setenv("PATH", filepath.Join(moduleRoot, ".tools", "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	if testing.Short() {
		return m.Run() // every e2e test skips itself
	}
	dir, err := os.MkdirTemp("", "lsp-hook-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	for _, b := range []struct {
		bin *string
		pkg string
	}{{&lspHook, "./cmd/lsp-hook"}, {&fakeLSP, "./testdata/fakelsp"}} {
		*b.bin = filepath.Join(dir, filepath.Base(b.pkg))
		// The tags of `make build` and the release (Makefile BUILD_TAGS).
		build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", *b.bin, b.pkg)
		build.Dir = moduleRoot
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", b.pkg, err, out)
			return 2
		}
	}
	return m.Run()
}

func e2e(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: runs the binary, a daemon and gopls")
	}
}

// reportBroken is report.go after the recorded Edit of event 01, with n
// comment lines above the bad call so its error moves to line 13+n.
func reportBroken(t *testing.T, n int) string {
	t.Helper()
	s := mustRead(t, filepath.Join(eventsDir(), "01-edit-report-type-error.after", "report.go"))
	var pad strings.Builder
	for i := range n {
		fmt.Fprintf(&pad, "\t// step %d\n", i)
	}
	const bad = "\tb.WriteString(len(inv.Items()))\n"
	if !strings.Contains(s, bad) {
		t.Fatalf("01-edit-report-type-error.after/report.go lacks %q", bad)
	}
	return strings.Replace(s, bad, pad.String()+bad, 1)
}

// reportTypeError is the error the recorded Edit of event 01 introduces,
// moved down by n lines.
func reportTypeError(n int) wantDiag {
	return wantDiag{file: "report.go", line: 13 + n, col: 16,
		msg:  "cannot use len(inv.Items()) (value of type int) as string value in argument to b.WriteString",
		code: "IncompatibleAssign"}
}

// TestRecordedEvents replays testdata/demo-events in order, as
// scripts/demo.sh does, and checks every lint line: Go type errors from
// gopls in edit mode (the edited file only) and write mode (other files
// broken by a new file; edit mode: the edited file, and the errors the
// edit introduced in other files), then the JSON, YAML and TOML validators.
func TestRecordedEvents(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)

	// The sample is clean as shipped: notify checks every file through the
	// daemon in write mode, so other files' errors would show too.
	files := []string{"main.go", "greet.go", "report.go", "inventory/inventory.go", "config.json", "settings.yaml", "app.toml"}
	var abs []string
	for _, f := range files {
		abs = append(abs, w.path(f))
	}
	if r := w.run("", nil, append([]string{"notify"}, abs...)...); r.exit != 0 || r.stdout != "" {
		t.Fatalf("testdata/demo is not clean as shipped: notify exit %d\n%s%s", r.exit, r.stdout, r.stderr)
	}

	want := map[string][]wantDiag{
		"01-edit-report-type-error": {reportTypeError(0)},
		"02-edit-greet-move-helper": { // edit mode: greet.go is clean; the error it introduced in report.go is shown
			{other: true, file: "report.go", line: 17, col: 33, msg: "undefined: formatCount", code: "UndeclaredName"},
		},
		"03-write-new-textfmt": { // write mode: the new file is clean, report.go's call broke
			{other: true, file: "report.go", line: 13, col: 16, msg: "cannot use len(inv.Items())", code: "IncompatibleAssign"},
			{other: true, file: "report.go", line: 17, col: 56, msg: "not enough arguments in call to formatCount", code: "WrongArgCount"},
		},
		"04-multiedit-report-fix":             nil,
		"05-write-config-json-trailing-comma": {{file: "config.json", line: 8, col: 3, msg: "trailing commas are not allowed in JSON"}},
		"06-edit-settings-yaml-duplicate-key": {{file: "settings.yaml", line: 26, col: 1, msg: `duplicate key "replicas" (first at 16:1)`}},
		"07-write-app-toml-unclosed-table":    {{file: "app.toml", line: 26, col: 17, msg: "to end table name"}},
	}
	events := recordedEvents(t)
	if len(events) != len(want) {
		t.Fatalf("events.tsv lists %d events, this test knows %d", len(events), len(want))
	}
	for _, ev := range events {
		wd, ok := want[ev.name]
		if !ok {
			t.Fatalf("no expectation for event %s", ev.name)
		}
		t.Run(ev.name, func(t *testing.T) {
			defer w.use(t)()
			checkLint(t, w.hook(w.replay(ev.name)), wd)
		})
	}
}

// TestOddWorkspacePath runs a Go edit and a YAML edit in a workspace whose
// path has a space, a percent sign and non-ASCII letters, which file URIs
// must escape.
func TestOddWorkspacePath(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "demo", "my ws %41 ünï", nil)
	checkLint(t, w.hook(w.replay("01-edit-report-type-error")), []wantDiag{reportTypeError(0)})
	checkLint(t, w.hook(w.replay("06-edit-settings-yaml-duplicate-key")),
		[]wantDiag{{file: "settings.yaml", line: 26, col: 1, msg: `duplicate key "replicas" (first at 16:1)`}})
}

// TestEditFixCycle breaks and fixes report.go ten times in a row: every
// breaking edit shows the error at its new line, and every fixing edit
// prints nothing — never a stale error.
func TestEditFixCycle(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	clean := w.readFile("report.go")
	for i := range 10 {
		block := w.hook(w.edit("cycle", "report.go", reportBroken(t, i)))
		checkLint(t, block, []wantDiag{reportTypeError(i)})
		if block := w.hook(w.edit("cycle", "report.go", clean)); block != "" {
			t.Errorf("round %d: the fixing edit printed a stale lint block:\n%s", i, indent(block))
		}
	}
}

// TestOutOfBandWrite changes greet.go behind the agent's back (a sed in a
// shell tool, a formatter), then edits main.go, whose call to greet the
// change broke: the hook must report the broken call, not a stale "clean".
// The first, clean edit decides whether the daemon has greet.go open; when
// it has not, the change reaches gopls through the workspace watcher
// (didChangeWatchedFiles for the registered **/*.go globs).
func TestOutOfBandWrite(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	want := []wantDiag{{file: "main.go", line: 18, col: 28, msg: "not enough arguments in call to greet", code: "WrongArgCount"}}
	for _, c := range []struct{ name, first string }{
		{"file the daemon has open", "greet.go"},
		{"file the daemon never opened", "main.go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t)
			if block := w.hook(w.edit("s", c.first, w.readFile(c.first))); block != "" {
				t.Fatalf("clean %s reported:\n%s", c.first, indent(block))
			}
			w.writeFile("greet.go", strings.Replace(w.readFile("greet.go"),
				"func greet(name string) string", "func greet(name string, loud bool) string", 1))
			checkLint(t, w.hook(w.edit("s", "main.go", w.readFile("main.go"))), want)
		})
	}
}

// TestConcurrentSessions runs the hooks of two sessions on the same
// repository at once, with no daemon running: both answer with their own
// file's error, and they end up sharing one daemon and one gopls.
func TestConcurrentSessions(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	mainBroken := strings.Replace(w.readFile("main.go"), `inv.Add("pear", 5)`, `inv.Add("pear", "5")`, 1)
	events := []string{
		w.edit("session-a", "report.go", reportBroken(t, 0)),
		w.edit("session-b", "main.go", mainBroken),
	}
	wants := [][]wantDiag{
		{reportTypeError(0)},
		{{file: "main.go", line: 16, col: 18, msg: `cannot use "5" (untyped string constant) as int value in argument to inv.Add`, code: "IncompatibleAssign"}},
	}
	results := make([]result, len(events))
	errs := make([]error, len(events))
	var wg sync.WaitGroup
	for i, ev := range events {
		wait := w.start(ev, nil, "hook", "claude")
		wg.Go(func() { results[i], errs[i] = wait() })
	}
	wg.Wait()
	for i, r := range results {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		checkLint(t, w.checkHook(r), wants[i])
	}

	st, ok := w.status()
	if !ok {
		t.Fatal("no daemon answers after two hooks")
	}
	g := w.gopls(st)
	// The hook that lost the race to start a daemon leaves; one stays.
	if !pollUntil(5*time.Second, func() bool { return len(w.daemons()) == 1 }) {
		t.Errorf("daemon processes for the workspace: %+v, want exactly one", w.daemons())
	} else if d := w.daemons()[0]; d.pid != st.Pid {
		t.Errorf("the daemon running is pid %d, status says %d", d.pid, st.Pid)
	}
	if ps := goplsServers(w.root); len(ps) != 1 || ps[0].pid != g.Pid || ps[0].ppid != st.Pid {
		t.Errorf("gopls processes for the workspace: %+v, want exactly pid %d", ps, g.Pid)
	}
}

// TestDaemonKilled kills the daemon with SIGKILL: its gopls dies with it
// (Pdeathsig), and the next hook starts a new daemon and answers correctly.
func TestDaemonKilled(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspace(t)
	clean := w.readFile("report.go")
	checkLint(t, w.hook(w.edit("s", "report.go", reportBroken(t, 0))), []wantDiag{reportTypeError(0)})
	st, ok := w.status()
	if !ok {
		t.Fatal("no daemon after the first hook")
	}
	old := w.gopls(st)
	if err := killProcess(st.Pid); err != nil {
		t.Fatalf("killing daemon %d: %v", st.Pid, err)
	}
	if !pollUntil(5*time.Second, func() bool { return !alive(st.Pid) }) {
		t.Fatalf("daemon %d still alive 5s after SIGKILL", st.Pid)
	}
	if !pollUntil(5*time.Second, func() bool { return !alive(old.Pid) }) {
		_ = killProcess(old.Pid)
		t.Errorf("gopls %d outlived its daemon by 5s (orphan)", old.Pid)
	}

	// The next hook finds a dead socket, starts a new daemon, and answers
	// about the file as it is now (the error moved down two lines).
	checkLint(t, w.hook(w.edit("s", "report.go", reportBroken(t, 2))), []wantDiag{reportTypeError(2)})
	st2, ok := w.status()
	if !ok {
		t.Fatal("no daemon after the hook that followed the kill")
	}
	if st2.Pid == st.Pid {
		t.Errorf("status pid %d is the killed daemon's", st2.Pid)
	}
	g := w.gopls(st2)
	if ps := goplsServers(w.root); len(ps) != 1 || ps[0].pid != g.Pid {
		t.Errorf("gopls processes for the workspace: %+v, want exactly pid %d", ps, g.Pid)
	}
	// And the fix is seen as a fix.
	if block := w.hook(w.edit("s", "report.go", clean)); block != "" {
		t.Errorf("the fixing edit after the restart printed:\n%s", indent(block))
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBadInput feeds the hook events it must refuse. Each time it exits 0,
// logs a one-line reason, and prints nothing — but for a path outside the
// workspace, which it never checks and says so in the lint block (silence
// would read as clean); no language server is started for any of them.
func TestBadInput(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	outside := filepath.Join(filepath.Dir(w.root), "outside.go")
	const outsideGo = "package main\n\nfunc broken() int { return \"x\" }\n"
	if err := os.WriteFile(outside, []byte(outsideGo), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, w.path("linked.go")); err != nil {
		t.Fatal(err)
	}
	w.writeFile("data.json", "{\"a\": \x00\x01\x02}\n")
	w.writeFile("data2.json", "{\"a\": \"\x00\"}") // a Write's text is read from disk

	cases := []struct {
		name   string
		event  string
		reason string // a substring of the logged reason
	}{
		{"malformed JSON", `{"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {`,
			"decoding Claude Code hook event"},
		{"empty stdin", "", "empty input"},
		{"not an object", `["Write"]`, "decoding Claude Code hook event"},
		{"no file_path", w.claudeEvent("s", "Edit", map[string]any{"old_string": "a", "new_string": "b"}),
			"tool_input.file_path is missing"},
		// In a directory with no Go package: a gone file whose package
		// lives on is checked as a deletion (TestPatchDeletionFirstEvent).
		{"missing file", w.claudeEvent("s", "Edit", map[string]any{"file_path": w.path("nowhere/missing.go"), "old_string": "a", "new_string": "b"}),
			"no such file or directory"},
		{"binary JSON file", w.claudeEvent("s", "Edit", map[string]any{"file_path": w.path("data.json"), "old_string": "1", "new_string": "\x00"}),
			"binary content"},
		{"binary JSON content", w.claudeEvent("s", "Write", map[string]any{"file_path": w.path("data2.json"), "content": "{\"a\": \"\x00\"}"}),
			"binary content"},
		{"absolute path outside", w.claudeEvent("s", "Edit", map[string]any{"file_path": "/etc/passwd", "old_string": "a", "new_string": "b"}),
			"outside the workspace"},
		{"dot-dot path outside", w.claudeEvent("s", "Write", map[string]any{"file_path": w.root + "/../outside.go", "content": outsideGo}),
			"outside the workspace"},
		{"symlink to outside", w.claudeEvent("s", "Edit", map[string]any{"file_path": w.path("linked.go"), "old_string": "a", "new_string": "b"}),
			"outside the workspace"},
	}
	var offset int64
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer w.use(t)()
			r := w.run(c.event, nil, "hook", "claude")
			if c.reason == "outside the workspace" {
				if block := w.checkHook(r); !strings.HasPrefix(block, "lsp-hook: skipped ") || !strings.Contains(block, c.reason) {
					t.Errorf("lint block %q; want only the note that the path was skipped as outside the workspace", block)
				}
			} else if r.exit != 0 || r.stdout != "" {
				t.Errorf("exit %d, stdout %q; want exit 0 and nothing on stdout", r.exit, r.stdout)
			}
			if r.stderr != "" {
				t.Errorf("stderr %q; want nothing (reasons go to the log)", r.stderr)
			}
			var logged string
			logged, offset = w.logSince(offset)
			if !strings.Contains(logged, c.reason) {
				t.Errorf("log %s has no line with %q; it got:\n%s", w.logFile(), c.reason, indent(strings.TrimSpace(logged)))
			}
		})
	}
	if st, ok := w.status(); ok {
		if st.LogFile != w.logFile() {
			t.Errorf("status log_file = %s, want %s", st.LogFile, w.logFile())
		}
		for _, s := range st.Servers {
			if s.Pid != 0 {
				t.Errorf("status lists a running server after refused input: %+v", s)
			}
		}
	}
	if ps := goplsServers(filepath.Dir(w.root)); len(ps) != 0 {
		t.Errorf("gopls was started for refused input: %+v", ps)
	}
}

// TestInProcessFallback makes the daemon impossible — the socket's
// directory is a regular file, or the socket path is longer than a Unix
// socket address can hold — and checks that the hook still runs the
// validators itself and answers within its cold budget.
func TestInProcessFallback(t *testing.T) {
	e2e(t)
	w := newWorkspace(t)
	blocker := filepath.Join(w.runtime, "blocker")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, socket string }{
		{"socket dir is a file", filepath.Join(blocker, "d.sock")},
		{"socket path too long", filepath.Join(w.runtime, strings.Repeat("x", 110), "d.sock")},
	}
	event := w.replay("05-write-config-json-trailing-comma")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer w.use(t)()
			r := w.run(event, []string{"LSP_HOOK_SOCKET=" + c.socket}, "hook", "claude")
			checkLint(t, w.checkHook(r), []wantDiag{{file: "config.json", line: 8, col: 3, msg: "trailing commas are not allowed in JSON"}})
			if r.elapsed > wire.DefaultColdBudget {
				t.Errorf("the fallback answer took %v, more than the %v cold budget", r.elapsed, wire.DefaultColdBudget)
			}
			if ps := procsIn(w.root, ""); len(ps) != 0 {
				t.Errorf("processes left in the workspace: %+v", ps)
			}
		})
	}
}

// TestRecordedEventsData checks testdata/demo-events against itself, with
// no process run: every event has Claude Code's fields, its header names
// its tool and file, and its .after file is what the tool would have
// written to the sample at that point.
func TestRecordedEventsData(t *testing.T) {
	state := make(map[string]string)
	demo := filepath.Join(moduleRoot, "testdata", "demo")
	err := filepath.WalkDir(demo, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(demo, p)
		state[filepath.ToSlash(rel)] = mustRead(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range recordedEvents(t) {
		var e struct {
			SessionID      *string `json:"session_id"`
			TranscriptPath *string `json:"transcript_path"`
			Cwd            string  `json:"cwd"`
			HookEventName  string  `json:"hook_event_name"`
			ToolName       string  `json:"tool_name"`
			ToolInput      struct {
				FilePath  string  `json:"file_path"`
				Content   *string `json:"content"`
				OldString *string `json:"old_string"`
				NewString *string `json:"new_string"`
				Edits     []struct {
					OldString string `json:"old_string"`
					NewString string `json:"new_string"`
				} `json:"edits"`
			} `json:"tool_input"`
			ToolResponse map[string]any `json:"tool_response"`
		}
		if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(eventsDir(), ev.name+".json"))), &e); err != nil {
			t.Errorf("%s: %v", ev.name, err)
			continue
		}
		rel, ok := strings.CutPrefix(e.ToolInput.FilePath, "{{ROOT}}/")
		if e.SessionID == nil || e.TranscriptPath == nil || e.Cwd != "{{ROOT}}" || e.HookEventName != "PostToolUse" || !ok || e.ToolResponse == nil {
			t.Errorf("%s: not a PostToolUse event for a file under {{ROOT}}: %+v", ev.name, e)
			continue
		}
		if fp, _ := e.ToolResponse["filePath"].(string); fp != e.ToolInput.FilePath {
			t.Errorf("%s: tool_response.filePath %q != tool_input.file_path %q", ev.name, fp, e.ToolInput.FilePath)
		}
		if !strings.HasPrefix(ev.header, e.ToolName+" "+rel+": ") {
			t.Errorf("%s: header %q does not start with %q", ev.name, ev.header, e.ToolName+" "+rel+": ")
		}
		before, existed := state[rel]
		var after string
		switch e.ToolName {
		case "Write":
			if e.ToolInput.Content == nil {
				t.Errorf("%s: Write without content", ev.name)
				continue
			}
			after = *e.ToolInput.Content
			if wantType := map[bool]string{true: "update", false: "create"}[existed]; e.ToolResponse["type"] != wantType {
				t.Errorf("%s: tool_response.type = %v, want %s", ev.name, e.ToolResponse["type"], wantType)
			}
		case "Edit":
			if e.ToolInput.OldString == nil || e.ToolInput.NewString == nil || strings.Count(before, *e.ToolInput.OldString) != 1 {
				t.Errorf("%s: old_string missing or not unique in %s", ev.name, rel)
				continue
			}
			after = strings.Replace(before, *e.ToolInput.OldString, *e.ToolInput.NewString, 1)
			if e.ToolResponse["originalFile"] != before {
				t.Errorf("%s: tool_response.originalFile is not %s before the edit", ev.name, rel)
			}
		case "MultiEdit":
			after = before
			for _, ed := range e.ToolInput.Edits {
				if strings.Count(after, ed.OldString) != 1 {
					t.Errorf("%s: old_string %q not unique", ev.name, ed.OldString)
				}
				after = strings.Replace(after, ed.OldString, ed.NewString, 1)
			}
			if e.ToolResponse["originalFileContents"] != before {
				t.Errorf("%s: tool_response.originalFileContents is not %s before the edit", ev.name, rel)
			}
		default:
			t.Errorf("%s: unexpected tool %s", ev.name, e.ToolName)
			continue
		}
		afterDir := filepath.Join(eventsDir(), ev.name+".after")
		var afterFiles []string
		_ = filepath.WalkDir(afterDir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				r, _ := filepath.Rel(afterDir, p)
				afterFiles = append(afterFiles, filepath.ToSlash(r))
			}
			return nil
		})
		if len(afterFiles) != 1 || afterFiles[0] != rel {
			t.Errorf("%s.after holds %v, want just %s", ev.name, afterFiles, rel)
		} else if got := mustRead(t, filepath.Join(afterDir, rel)); got != after {
			t.Errorf("%s.after/%s is not what the %s produces", ev.name, rel, e.ToolName)
		}
		state[rel] = after
	}
}
