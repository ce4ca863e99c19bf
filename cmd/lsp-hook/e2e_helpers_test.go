package main_test

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/lsp-hook/lsp-hook/internal/proc"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

// The e2e tests run the real binary as Claude Code runs a PostToolUse hook:
// `lsp-hook hook claude`, the event JSON on stdin, the workspace as working
// directory. The binary, the module root and the environment are set up
// once by TestMain.
var (
	lspHook    string // the lsp-hook binary built by TestMain
	fakeLSP    string // testdata/fakelsp, the scripted language server, built by TestMain
	moduleRoot string // the directory holding this module's go.mod
)

// hookTimeout bounds one hook process: above the largest cold budget a
// test gives it (hookColdBudget; its own default is 12 s), so a hung hook
// fails the test instead of hanging it.
const hookTimeout = 60 * time.Second

// hookColdBudget is w.hook's cold budget: the hook's own default (12 s)
// is for a user's machine, not two cores running make test's packages
// side by side; newWorkspaceOf lifts the first-touch wait to match.
const hookColdBudget = 40 * time.Second

// npmBin is where `make tools` installs pyright-langserver and
// typescript-language-server.
func npmBin() string { return filepath.Join(moduleRoot, ".tools", "npm", "node_modules", ".bin") }

// langPath is the PATH of the tests' hooks and daemons: the npm servers,
// then this process's PATH (which TestMain starts with .tools/bin).
func langPath() string {
	return npmBin() + string(os.PathListSeparator) + os.Getenv("PATH")
}

// requireExe skips the test when exe is not on langPath, or fails it when
// LSP_HOOK_REQUIRE_SERVERS=1 (as `make test` sets).
func requireExe(t *testing.T, exe string) {
	t.Helper()
	for _, dir := range filepath.SplitList(langPath()) {
		if fi, err := os.Stat(filepath.Join(dir, exe)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return
		}
	}
	if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
		t.Fatalf("%s is required (LSP_HOOK_REQUIRE_SERVERS=1) but not on PATH or in .tools; run `make tools`", exe)
	}
	t.Skipf("%s not installed (run `make tools`)", exe)
}

// findModuleRoot walks up from dir to the directory holding go.mod.
func findModuleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if d == filepath.Dir(d) {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// workspace is one sample project with its own daemon: a copy of a
// project under testdata (a git repository, so it is its own workspace
// root) and a private, short XDG_RUNTIME_DIR for the socket and the log.
type workspace struct {
	t       *testing.T
	root    string   // absolute and symlink-free, as the daemon names files
	cwd     string   // where processes run and events say the agent is, spelled as the agent does; root when ""
	runtime string   // XDG_RUNTIME_DIR of every process run here
	extra   []string // KEY=VALUE added to the environment of every process run here
}

// newWorkspace copies testdata/demo into a temp dir; see newWorkspaceOf.
func newWorkspace(t *testing.T) *workspace {
	t.Helper()
	return newWorkspaceOf(t, "demo", "", nil)
}

// newWorkspaceOf copies testdata/<project> (slash-separated) into the
// subdirectory sub of a temp dir ("" for the temp dir itself), with extra
// in the environment of every process run there, and registers a cleanup
// that stops the daemon and makes sure no process of this workspace
// survives the test.
func newWorkspaceOf(t *testing.T, project, sub string, extra []string) *workspace {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(root, sub)
	if err := os.CopyFS(root, os.DirFS(filepath.Join(moduleRoot, "testdata", filepath.FromSlash(project)))); err != nil {
		t.Fatal(err)
	}
	w := &workspace{t: t, root: root, runtime: testdaemon.ShortDir(t), extra: extra}
	// A server's first check here judges truth, not speed (make bench
	// measures that): the user config lifts the first-touch wait (10 s by
	// default), and w.hook the hook's cold budget, so a cold server on a
	// loaded machine answers instead of noting a timeout. CI, beside make
	// test's other packages: typescript-language-server's first check of
	// a three-file project took over 10 s, twice in one run. A test that
	// writes its own user config replaces this one.
	writeUserConfig(t, w.runtime, "")
	if git, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command(git, "-C", root, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	} else if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil { // what workspace.Find looks for
		t.Fatal(err)
	}
	t.Cleanup(w.stopAll)
	return w
}

// childEnv is this process's environment with XDG_RUNTIME_DIR set to rt,
// user config out of the way, and the socket override removed; extra
// entries (KEY=VALUE) come last and win.
func childEnv(rt string, extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", wire.SocketEnv, "LSP_HOOK_LOG_LEVEL":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "XDG_RUNTIME_DIR="+rt, "XDG_CONFIG_HOME="+filepath.Join(rt, "config"), "XDG_STATE_HOME="+filepath.Join(rt, "state"))
	return append(env, extra...)
}

// use makes t the test that w reports to, for a subtest; the returned
// func restores the previous one.
func (w *workspace) use(t *testing.T) func() {
	prev := w.t
	w.t = t
	return func() { w.t = prev }
}

// socket and logFile follow DESIGN.md: $XDG_RUNTIME_DIR/lsp-hook/<first 16
// hex of sha256(root)>.sock, the log beside it.
func (w *workspace) socket() string {
	sum := sha256.Sum256([]byte(w.root))
	return filepath.Join(w.runtime, "lsp-hook", hex.EncodeToString(sum[:])[:16]+".sock")
}

func (w *workspace) logFile() string { return strings.TrimSuffix(w.socket(), ".sock") + ".log" }

// dir is the directory processes run in and events name as the agent's:
// cwd, else root.
func (w *workspace) dir() string { return cmp.Or(w.cwd, w.root) }

// path returns the absolute path of a workspace-relative file.
func (w *workspace) path(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

func (w *workspace) writeFile(rel, content string) {
	w.t.Helper()
	p := w.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *workspace) readFile(rel string) string {
	w.t.Helper()
	b, err := os.ReadFile(w.path(rel))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// result is what one lsp-hook process did.
type result struct {
	exit           int
	stdout, stderr string
	elapsed        time.Duration
}

// run runs lsp-hook with args in the workspace, stdin as its input, and
// extraEnv added to its environment.
func (w *workspace) run(stdin string, extraEnv []string, args ...string) result {
	w.t.Helper()
	r, err := w.start(stdin, extraEnv, args...)()
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// start starts what run runs, and returns a func that waits for it to
// exit; that func may be called from another goroutine.
func (w *workspace) start(stdin string, extraEnv []string, args ...string) (wait func() (result, error)) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	w.t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, lspHook, args...)
	cmd.Dir = w.dir()
	cmd.Env = childEnv(w.runtime, append(slices.Clip(w.extra), extraEnv...))
	if w.cwd != "" {
		cmd.Env = append(cmd.Env, "PWD="+w.cwd) // as a shell sets it: os.Getwd keeps its spelling
	}
	cmd.Stdin = strings.NewReader(stdin)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		w.t.Fatalf("starting lsp-hook %s: %v", strings.Join(args, " "), err)
	}
	return func() (result, error) {
		err := cmd.Wait()
		r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(begin)}
		if err := r.setExit(err); err != nil {
			return r, fmt.Errorf("running lsp-hook %s: %w", strings.Join(args, " "), err)
		}
		return r, nil
	}
}

// setExit records in r the exit status that err, what exec.Cmd.Wait
// returned, carries; an error other than an exit status is returned.
func (r *result) setExit(err error) error {
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.exit = ee.ExitCode()
	default:
		return err
	}
	return nil
}

// hook runs `lsp-hook hook claude` with the event on stdin and checks what
// every hook run must do: exit 0, and print nothing or one answer object.
// It returns the lint block (additionalContext; "" when nothing was
// printed).
func (w *workspace) hook(event string) string {
	w.t.Helper()
	r := w.run(event, nil, "hook", "claude", "--cold-budget", hookColdBudget.String())
	return w.checkHook(r)
}

func (w *workspace) checkHook(r result) string {
	w.t.Helper()
	w.t.Logf("hook: %v, exit %d", r.elapsed.Round(time.Millisecond), r.exit)
	if r.exit != 0 {
		w.t.Fatalf("hook exited %d, want 0 always; stderr:\n%s", r.exit, r.stderr)
	}
	if r.stdout == "" {
		return ""
	}
	block, err := decodeClaudeAnswer(r.stdout)
	if err != nil {
		w.t.Fatal(err)
	}
	if block == "" {
		w.t.Fatalf("hook answer = %s, want a lint block", r.stdout)
	}
	return block
}

// status asks the daemon for `status --json`; ok is false when no daemon
// answers.
func (w *workspace) status() (st sidecar.StatusResult, ok bool) {
	w.t.Helper()
	r := w.run("", nil, "status", "--json")
	if r.exit != 0 {
		w.t.Fatalf("status exited %d: %s", r.exit, r.stderr)
	}
	if strings.HasPrefix(r.stdout, "no daemon running") {
		return st, false
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		w.t.Fatalf("decoding status --json: %v\n%s", err, r.stdout)
	}
	return st, true
}

// gopls returns the gopls entry of the daemon's status, failing the test
// unless there is exactly one, running, at the workspace root.
func (w *workspace) gopls(st sidecar.StatusResult) sidecar.ServerStatus {
	w.t.Helper()
	return w.oneServer(st, "gopls")
}

// oneServer returns the entry of the server named name in the daemon's
// status, failing the test unless there is exactly one, running, and
// rooted at the workspace root (a monorepo's: one server sees every
// package).
func (w *workspace) oneServer(st sidecar.StatusResult, name string) sidecar.ServerStatus {
	w.t.Helper()
	var found []sidecar.ServerStatus
	for _, s := range st.Servers {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 || found[0].Pid == 0 || found[0].State != "active" {
		w.t.Fatalf("status servers = %+v, want one active %s with a pid", st.Servers, name)
	}
	if found[0].Root != w.root {
		w.t.Errorf("%s root = %s, want %s", name, found[0].Root, w.root)
	}
	return found[0]
}

// stopAll stops the daemon (`lsp-hook stop`), then waits for every process
// running in the workspace (daemon, gopls, the go commands it runs) to be
// gone, killing the ones that outstay the deadline; a leftover fails the
// test.
func (w *workspace) stopAll() {
	r := w.run("", nil, "stop")
	if r.exit != 0 {
		w.t.Errorf("lsp-hook stop exited %d: %s", r.exit, r.stderr)
	}
	left := waitFor(10*time.Second, func() []procInfo { return procsIn(w.root, "") })
	for _, p := range left {
		w.t.Errorf("process %d (%s) survived `lsp-hook stop`; killing it", p.pid, p.cmdline)
		_ = killProcess(p.pid)
	}
	if len(left) > 0 {
		waitFor(5*time.Second, func() []procInfo { return procsIn(w.root, "") })
	}
}

// procInfo is a live (not zombie) process.
type procInfo struct {
	pid     int
	ppid    int
	comm    string // the executable's base name (gopsutil's Name: /proc/PID/comm on Linux)
	cmdline string
	cwd     string
}

// daemons lists the live `lsp-hook serve` processes of the workspace.
func (w *workspace) daemons() []procInfo {
	var out []procInfo
	for _, p := range procsIn(w.root, "") {
		if strings.Contains(p.cmdline, " serve ") {
			out = append(out, p)
		}
	}
	return out
}

// killDaemonAfter kills the workspace's daemon with SIGKILL, as the
// kernel's OOM killer would, a second after t, the end of the last hook
// it served (a running daemon writes its sessions' record within 500 ms
// of each request's end); then it waits for the daemon and its servers to
// be gone. The test fails when no record is there then, or no single
// daemon runs.
func (w *workspace) killDaemonAfter(t time.Time) {
	w.t.Helper()
	time.Sleep(time.Until(t.Add(time.Second)))
	if record := wire.SessionsPath(w.socket()); !fileExists(record) {
		w.t.Fatalf("the running daemon keeps no sessions' record at %s a second after its last hook", record)
	}
	w.killAll(w.daemon().pid)
}

// daemon returns the workspace's daemon process; the test fails unless
// exactly one runs.
func (w *workspace) daemon() procInfo {
	w.t.Helper()
	ds := w.daemons()
	if len(ds) != 1 {
		w.t.Fatalf("%d daemons run in %s, want 1", len(ds), w.root)
	}
	return ds[0]
}

// killAll kills the processes pids (SIGKILL) and waits for every process
// of the workspace to be gone (a killed daemon's servers exit as their
// stdin closes); the test fails when one is left.
func (w *workspace) killAll(pids ...int) {
	w.t.Helper()
	for _, pid := range pids {
		if err := killProcess(pid); err != nil {
			w.t.Fatalf("killing pid %d: %v", pid, err)
		}
	}
	if !pollUntil(10*time.Second, func() bool { return len(procsIn(w.root, "")) == 0 }) {
		w.t.Fatalf("processes left in %s after killing %v: %v", w.root, pids, procsIn(w.root, ""))
	}
}

// procsIn lists live processes whose working directory is dir or below it,
// and whose name is comm when comm is not "". The daemon and its language
// servers run in the workspace root; no test process does.
func procsIn(dir, comm string) []procInfo {
	var out []procInfo
	for _, p := range procs() {
		if (p.cwd == dir || strings.HasPrefix(p.cwd, dir+"/")) && (comm == "" || p.comm == comm) {
			out = append(out, p)
		}
	}
	return out
}

// procs lists every process but this one (gopsutil: /proc on Linux,
// libproc on macOS). Processes that vanish while being read, zombies, and
// processes whose working directory cannot be read (other users') are
// left out.
func procs() []procInfo {
	pids, _ := process.Pids()
	var out []procInfo
	for _, pid := range pids {
		if int(pid) == os.Getpid() {
			continue
		}
		if p, ok := procByPid(int(pid)); ok {
			out = append(out, p)
		}
	}
	return out
}

// procByPid reads one process; ok is false when it is gone or a zombie.
func procByPid(pid int) (procInfo, bool) {
	p, err := process.NewProcess(int32(pid))
	if err != nil || !proc.Alive(pid) {
		return procInfo{}, false
	}
	cwd, err := p.Cwd()
	if err != nil {
		return procInfo{}, false
	}
	ppid, _ := p.Ppid()
	comm, _ := p.Name()
	args, _ := p.CmdlineSlice()
	return procInfo{
		pid: pid, ppid: int(ppid), comm: comm, cwd: cwd,
		cmdline: strings.TrimSpace(strings.Join(args, " ")),
	}, true
}

// killProcess kills pid alone: SIGKILL (kill(2)), TerminateProcess on
// Windows.
func killProcess(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Kill()
}

// goplsServers lists the gopls processes running in dir, leaving out
// helpers a gopls starts itself (its telemetry child is also called gopls).
func goplsServers(dir string) []procInfo {
	ps := procsIn(dir, "gopls")
	isGopls := make(map[int]bool)
	for _, p := range ps {
		isGopls[p.pid] = true
	}
	var out []procInfo
	for _, p := range ps {
		if !isGopls[p.ppid] {
			out = append(out, p)
		}
	}
	return out
}

// alive reports whether pid is a live process (not gone, not a zombie).
func alive(pid int) bool {
	_, ok := procByPid(pid)
	return ok
}

// waitFor polls f until it returns nothing or the deadline passes, and
// returns its last answer.
func waitFor[T any](deadline time.Duration, f func() []T) []T {
	end := time.Now().Add(deadline)
	for delay := 10 * time.Millisecond; ; delay = min(delay*2, 200*time.Millisecond) {
		got := f()
		if len(got) == 0 || time.Now().After(end) {
			return got
		}
		time.Sleep(delay)
	}
}

// pollUntil polls cond until it holds or the deadline passes, and reports
// whether it held.
func pollUntil(deadline time.Duration, cond func() bool) bool {
	return len(waitFor(deadline, func() []bool {
		if cond() {
			return nil
		}
		return []bool{false}
	})) == 0
}

// Recorded events (testdata/demo-events, see its README.md).

func eventsDir() string { return filepath.Join(moduleRoot, "testdata", "demo-events") }

// recordedEvent is one line of events.tsv.
type recordedEvent struct{ name, header string }

func recordedEvents(t *testing.T) []recordedEvent {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(eventsDir(), "events.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []recordedEvent
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, header, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("events.tsv: line %q has no tab", line)
		}
		out = append(out, recordedEvent{name, header})
	}
	return out
}

// replay does what the agent's tool did — writes the event's .after files
// into the workspace — and returns the event with {{ROOT}} filled in.
func (w *workspace) replay(name string) string {
	w.t.Helper()
	after := filepath.Join(eventsDir(), name+".after")
	if _, err := os.Stat(after); err == nil {
		err := filepath.WalkDir(after, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(after, p)
			w.writeFile(filepath.ToSlash(rel), string(b))
			return nil
		})
		if err != nil {
			w.t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(eventsDir(), name+".json"))
	if err != nil {
		w.t.Fatal(err)
	}
	return w.fill(string(b))
}

// fill replaces {{ROOT}} with the workspace root, escaped for a JSON string.
func (w *workspace) fill(event string) string {
	q, _ := json.Marshal(w.root)
	return strings.ReplaceAll(event, "{{ROOT}}", string(q[1:len(q)-1]))
}

// claudeEvent builds a PostToolUse event as Claude Code sends it. input is
// tool_input; tool_response is left minimal (lsp-hook does not read it).
func (w *workspace) claudeEvent(session, tool string, input map[string]any) string {
	w.t.Helper()
	ev := map[string]any{
		"session_id":      session,
		"transcript_path": "/home/dev/.claude/projects/-demo/" + session + ".jsonl",
		"cwd":             w.dir(),
		"hook_event_name": "PostToolUse",
		"tool_name":       tool,
		"tool_input":      input,
		"tool_response":   map[string]any{"filePath": input["file_path"], "success": true},
	}
	b, err := json.Marshal(ev)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// edit writes content to rel, as Claude Code's Edit tool does before the
// hook runs, and returns the Edit event for it.
func (w *workspace) edit(session, rel, content string) string {
	w.t.Helper()
	w.writeFile(rel, content)
	return w.claudeEvent(session, "Edit", map[string]any{
		"file_path": w.path(rel), "old_string": "…", "new_string": "…", "replace_all": false,
	})
}

// Lint block parsing.

// lintLine is one diagnostic line of a lint block, with the section and
// file it appeared under.
type lintLine struct {
	other bool   // under "LSP errors detected in other files:"
	file  string // the <diagnostics file="…"> it is in
	text  string // "ERROR [13:16] message (code)"
}

const (
	headerThisFile = "LSP errors detected in this file, please fix:"
	headerOther    = "LSP errors detected in other files:"
)

var diagLineRE = regexp.MustCompile(`^(ERROR|WARN|INFO|HINT) \[\d+:\d+\] `)

// parseLint splits a lint block into its diagnostic lines, failing the test
// on any line that is not part of the documented shape.
func parseLint(t *testing.T, block string) []lintLine {
	t.Helper()
	if block == "" {
		return nil
	}
	var out []lintLine
	var other bool
	file := ""
	for _, l := range strings.Split(block, "\n") {
		switch {
		case l == headerThisFile || l == "LSP errors detected in these files, please fix:":
			other = false
		case l == headerOther:
			other = true
		case strings.HasPrefix(l, `<diagnostics file="`) && strings.HasSuffix(l, `">`):
			file = strings.TrimSuffix(strings.TrimPrefix(l, `<diagnostics file="`), `">`)
		case l == "</diagnostics>":
			file = ""
		case diagLineRE.MatchString(l) && file != "":
			out = append(out, lintLine{other: other, file: file, text: l})
		default:
			t.Fatalf("unexpected line %q in lint block:\n%s", l, block)
		}
	}
	return out
}

// wantDiag is one expected lint line: the file and section, the exact
// position, a substring of the message and the exact code ("" for none).
type wantDiag struct {
	other     bool
	file      string
	line, col int
	msg       string
	code      string
}

var codeSuffixRE = regexp.MustCompile(` \([A-Za-z0-9_.-]+\)$`)

func (d wantDiag) matches(l lintLine) bool {
	prefix := fmt.Sprintf("ERROR [%d:%d] ", d.line, d.col)
	if l.other != d.other || l.file != d.file || !strings.HasPrefix(l.text, prefix) || !strings.Contains(l.text, d.msg) {
		return false
	}
	if d.code == "" {
		return !codeSuffixRE.MatchString(l.text)
	}
	return strings.HasSuffix(l.text, " ("+d.code+")")
}

func (d wantDiag) String() string {
	sec := "this file"
	if d.other {
		sec = "other files"
	}
	return fmt.Sprintf("%s: %s ERROR [%d:%d] …%s… (%s)", sec, d.file, d.line, d.col, d.msg, d.code)
}

// checkLint checks that block holds exactly the wanted diagnostics, in the
// sections they belong to.
func checkLint(t *testing.T, block string, want []wantDiag) {
	t.Helper()
	got := parseLint(t, block)
	used := make([]bool, len(got))
	ok := len(got) == len(want)
	for _, d := range want {
		found := false
		for i, l := range got {
			if !used[i] && d.matches(l) {
				used[i], found = true, true
				break
			}
		}
		ok = ok && found
	}
	if !ok {
		var ws []string
		for _, d := range want {
			ws = append(ws, "  "+d.String())
		}
		t.Errorf("lint block:\n%s\nwant exactly:\n%s", indent(block), strings.Join(ws, "\n"))
		return
	}
	hasOther := false
	for _, d := range want {
		hasOther = hasOther || d.other
	}
	if hasOther != strings.Contains(block, headerOther) {
		t.Errorf("lint block other-files header presence = %v, want %v:\n%s", !hasOther, hasOther, indent(block))
	}
}

func indent(s string) string {
	if s == "" {
		return "  (nothing)"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// logSince returns what was appended to the workspace's log file after
// offset, and the new end.
func (w *workspace) logSince(offset int64) (string, int64) {
	b, err := os.ReadFile(w.logFile())
	if err != nil {
		return "", offset
	}
	if int64(len(b)) < offset {
		offset = 0
	}
	return string(b[offset:]), int64(len(b))
}

// awaitCheckBegun waits, polling every 5 ms for 10 s at most, for the
// daemon's log after offset (logSince) to say that a notify_change of
// session has begun (it logs at debug); the test fails past that.
func (w *workspace) awaitCheckBegun(offset int64, session string) {
	w.t.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) { // pollUntil backs off too far
		if log, _ := w.logSince(offset); strings.Contains(log, "notify_change begun") && strings.Contains(log, "session="+session+" ") {
			return
		}
		if time.Now().After(end) {
			w.t.Fatalf("the daemon did not log session %s's notify_change as begun", session)
		}
	}
}

// decodeClaudeAnswer returns the lint block of a Claude Code PostToolUse
// answer: stdout must be exactly one object with only
// hookSpecificOutput.{hookEventName: PostToolUse, additionalContext}.
func decodeClaudeAnswer(stdout string) (string, error) {
	var out struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil || dec.More() || out.HookSpecificOutput.HookEventName != "PostToolUse" {
		return "", fmt.Errorf("stdout is not one PostToolUse answer (%v): %q", err, stdout)
	}
	return out.HookSpecificOutput.AdditionalContext, nil
}

// fileExists reports whether path names a file (of any kind).
func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
