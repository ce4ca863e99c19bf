package soak

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// hookTimeout bounds one hook process: far above its own cold budget, so a
// hung hook is reported as a failed call instead of hanging the soak.
const hookTimeout = 45 * time.Second

// moduleRoot is the directory holding lsp-hook's go.mod, found from the
// test's working directory (the soak package directory).
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			t.Fatalf("no go.mod above %s", dir)
		}
	}
}

// toolPath is the PATH of every program the soak runs: the pinned servers
// `make tools` installs (.tools/bin, .tools/npm/node_modules/.bin), then
// this process's PATH.
func toolPath(root string) string {
	return strings.Join([]string{
		filepath.Join(root, ".tools", "bin"),
		filepath.Join(root, ".tools", "npm", "node_modules", ".bin"),
		os.Getenv("PATH"),
	}, string(os.PathListSeparator))
}

// missingTools returns the programs of exes that are not on path.
func missingTools(path string, exes []string) []string {
	var missing []string
	for _, exe := range exes {
		found := false
		for _, dir := range filepath.SplitList(path) {
			fi, err := os.Stat(filepath.Join(dir, exe))
			if err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, exe)
		}
	}
	return missing
}

// requireTools skips t when a program of exes is missing, or fails it when
// LSP_HOOK_REQUIRE_SERVERS=1 (as `make test` sets).
func requireTools(t *testing.T, path string, exes []string) {
	t.Helper()
	missing := missingTools(path, exes)
	if len(missing) == 0 {
		return
	}
	if os.Getenv("LSP_HOOK_REQUIRE_SERVERS") == "1" {
		t.Fatalf("%s required (LSP_HOOK_REQUIRE_SERVERS=1) but not on PATH or in .tools; run `make tools`", strings.Join(missing, ", "))
	}
	t.Skipf("%s not installed (run `make tools`)", strings.Join(missing, ", "))
}

// buildBinary builds ./cmd/lsp-hook of the module at root into a temp dir.
func buildBinary(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lsp-hook")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/lsp-hook")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building lsp-hook: %v\n%s", err, out)
	}
	return bin
}

// workspace is one project under test: a git repository of its own (so it
// is its own workspace root and daemon), with a private, short
// XDG_RUNTIME_DIR for the daemon's socket and log.
type workspace struct {
	root    string   // absolute and symlink-free, as the daemon names files
	runtime string   // XDG_RUNTIME_DIR of every process run here
	bin     string   // the lsp-hook binary
	env     []string // environment of every process run here
	base    string   // the commit of the project every session starts from
}

// newWorkspace writes files (slash-separated relative path → content) into
// a temp dir, commits them, and registers a cleanup that stops the daemon
// and kills what survives it.
func newWorkspace(t *testing.T, bin, path string, files map[string]string) *workspace {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rt, err := os.MkdirTemp("/tmp", "lhs") // sun_path holds 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	w := &workspace{root: root, runtime: rt, bin: bin, env: childEnv(rt, path)}
	t.Cleanup(func() { w.stop(t); os.RemoveAll(rt) })
	if err := writeFiles(root, files); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=soak", "-c", "user.email=soak@example.invalid", "commit", "-qm", "base"},
	} {
		if out, err := w.command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", args[0], err, out)
		}
	}
	out, err := w.command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	w.base = strings.TrimSpace(string(out))
	return w
}

// writeFiles writes each file of files under dir, making directories.
func writeFiles(dir string, files map[string]string) error {
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// childEnv is this process's environment with XDG_RUNTIME_DIR set to rt,
// the user's config and state out of the way, lsp-hook's socket override
// and log level removed (SOAK_LOG_LEVEL sets the latter), and PATH set to
// path.
func childEnv(rt, path string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "LSP_HOOK_SOCKET", "LSP_HOOK_LOG_LEVEL", "PATH", "GOFLAGS":
			continue
		}
		env = append(env, kv)
	}
	if lvl := os.Getenv("SOAK_LOG_LEVEL"); lvl != "" { // the daemon's log level, for SOAK_LOGDIR
		env = append(env, "LSP_HOOK_LOG_LEVEL="+lvl)
	}
	return append(env, "PATH="+path, "XDG_RUNTIME_DIR="+rt,
		"XDG_CONFIG_HOME="+filepath.Join(rt, "config"), "XDG_STATE_HOME="+filepath.Join(rt, "state"))
}

// command is name run in the workspace root with its environment.
func (w *workspace) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = w.root, w.env
	return cmd
}

// path is the absolute path of a workspace-relative file.
func (w *workspace) path(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

// logFile is the daemon's log: $XDG_RUNTIME_DIR/lsp-hook/<first 16 hex of
// sha256(root)>.log (DESIGN.md "Socket and wire protocol").
func (w *workspace) logFile() string {
	sum := sha256.Sum256([]byte(w.root))
	return filepath.Join(w.runtime, "lsp-hook", hex.EncodeToString(sum[:])[:16]+".log")
}

// runTool runs name, found on env's PATH, in dir and returns its combined
// output and exit code; err is set only when it could not run or was
// killed.
func runTool(ctx context.Context, dir string, env []string, name string, args ...string) (string, int, error) {
	cmd := exec.CommandContext(ctx, lookPath(env, name), args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ctx.Err() == nil {
		return string(out), ee.ExitCode(), nil
	}
	if err != nil {
		return string(out), -1, fmt.Errorf("running %s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out), 0, nil
}

// lookPath returns the first executable name in a directory of env's
// PATH (exec.Command looks on this process's PATH), else name.
func lookPath(env []string, name string) string {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return name
}

// hookRun is what one `lsp-hook hook claude` process did.
type hookRun struct {
	stdout, stderr string
	exit           int
	err            error     // the process could not run or was killed at hookTimeout
	begin          time.Time // when the process started; matches the daemon log's times
	elapsed        time.Duration
}

// startHook starts `lsp-hook hook claude` with event on stdin and returns
// a func that waits for it; that func may be called from another
// goroutine.
func (w *workspace) startHook(event string) func() hookRun {
	return w.startHookAs("claude", event)
}

// startHookAs is startHook for the agent's adapter (`lsp-hook hook
// <agent>`).
func (w *workspace) startHookAs(agent, event string) func() hookRun {
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	cmd := exec.CommandContext(ctx, w.bin, "hook", agent)
	cmd.Dir, cmd.Env = w.root, w.env
	cmd.Stdin = strings.NewReader(event)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		return func() hookRun { return hookRun{err: fmt.Errorf("starting lsp-hook hook %s: %w", agent, err)} }
	}
	return func() hookRun {
		defer cancel()
		err := cmd.Wait()
		r := hookRun{stdout: stdout.String(), stderr: stderr.String(), begin: begin, elapsed: time.Since(begin)}
		if ee, ok := err.(*exec.ExitError); ok && ctx.Err() == nil {
			r.exit = ee.ExitCode()
		} else if err != nil {
			r.err = fmt.Errorf("running lsp-hook hook %s: %w", agent, err)
		}
		return r
	}
}

// stop runs `lsp-hook stop`, then waits for the daemon and its servers
// to be gone (awaitGone).
func (w *workspace) stop(t *testing.T) {
	if out, err := w.command(w.bin, "stop").CombinedOutput(); err != nil {
		t.Errorf("lsp-hook stop: %v\n%s", err, out)
	}
	w.awaitGone(t, "`lsp-hook stop`")
}

// kill kills the workspace's daemon with SIGKILL (TerminateProcess on
// Windows), as the OOM killer would, and waits for it and its servers to
// be gone (awaitGone); with no daemon running it does nothing.
func (w *workspace) kill(t *testing.T) {
	for pid, cmdline := range procsIn(w.root) {
		if strings.Contains(cmdline, " serve ") {
			killPid(pid)
		}
	}
	w.awaitGone(t, "their daemon's kill")
}

// awaitGone waits for every process whose working directory is in the
// workspace (the daemon and the servers it started) to exit, killing by
// pid those that outstay 10 s after what (for the report); a survivor is
// reported.
func (w *workspace) awaitGone(t *testing.T, what string) {
	end := time.Now().Add(10 * time.Second)
	for left := procsIn(w.root); len(left) > 0; left = procsIn(w.root) {
		if time.Now().After(end) {
			for pid, cmdline := range left {
				t.Errorf("process %d (%s) survived %s; killing it", pid, cmdline, what)
				killPid(pid)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// killPid kills the process pid: SIGKILL, TerminateProcess on Windows.
func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// procsIn maps the pid of every live process (not a zombie) whose working
// directory is dir or below it to its command line (gopsutil: /proc on
// Linux, libproc on macOS).
func procsIn(dir string) map[int]string {
	pids, _ := process.Pids()
	out := make(map[int]string)
	for _, pid := range pids {
		if int(pid) == os.Getpid() {
			continue
		}
		p, err := process.NewProcess(pid)
		if err != nil {
			continue
		}
		cwd, err := p.Cwd()
		if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+string(filepath.Separator))) || !proc.Alive(int(pid)) {
			continue
		}
		args, _ := p.CmdlineSlice()
		out[int(pid)] = strings.TrimSpace(strings.Join(args, " "))
	}
	return out
}
