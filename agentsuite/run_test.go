package agentsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runTimeout bounds one CLI run: the whole scripted session.
const runTimeout = 100 * time.Second

// A session is one CLI's run: its directories, its environment and what
// it printed.
type session struct {
	t       *testing.T
	ws      string // the workspace: a Go module
	home    string // HOME, with the XDG directories under it
	binDir  string // first on PATH: the lsp-hook wrapper that records hook payloads
	capture string // where the wrapper writes each payload
	logDir  string // model request bodies
	env     []string
}

// newSession makes the workspace (go.mod and a helper file), the home
// directories, the recording lsp-hook wrapper and the base environment.
func newSession(t *testing.T) *session {
	t.Helper()
	root := t.TempDir()
	s := &session{t: t, ws: filepath.Join(root, "ws"), home: filepath.Join(root, "home"),
		binDir: filepath.Join(root, "bin"), capture: filepath.Join(root, "hook-payloads"), logDir: filepath.Join(root, "model")}
	if d := os.Getenv("AGENTSUITE_MODEL_LOG"); d != "" {
		// Keep the model's requests after the test, for the reader of a failure.
		s.logDir = filepath.Join(d, strings.ReplaceAll(t.Name(), "/", "_"))
	}
	for _, d := range []string{s.ws, s.home, s.binDir, s.capture, s.logDir,
		filepath.Join(s.home, ".config"), filepath.Join(s.home, ".local", "share"), filepath.Join(s.home, ".cache"),
		filepath.Join(s.home, ".local", "state"), filepath.Join(root, "run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// A check's wait on a server that has answered once is lsp.timeout, 3 s
	// by default: make test's agents-test, run straight after the other
	// packages, once had Claude Code's first Write (a new file: gopls loads
	// its package again) time out at 3.03 s, where it takes 0.4-0.7 s alone.
	// This suite proves the block reaches the model; the hook's own budget
	// still bounds the wait.
	writeFile(t, filepath.Join(s.home, ".config", "lsp-hook", "config.yaml"), "lsp:\n  timeout: 10s\n")
	writeFile(t, filepath.Join(s.ws, "go.mod"), "module example.com/agentdemo\n\ngo 1.22\n")
	writeFile(t, filepath.Join(s.ws, "helper.go"), "package main\n\n// greeting is what main prints.\nfunc greeting() string { return \"hello\" }\n")
	// The wrapper keeps each payload, its arguments, the real binary's
	// answer on stdout and its start and end (ns), and runs the real binary on the same stdin: the
	// agent's hook runs `lsp-hook hook <agent>` by name, and this is the
	// lsp-hook on its PATH.
	wrapper := "#!/bin/sh\nf=\"" + s.capture + "/$(date +%s%N)-$$\"\ncat > \"$f.json\"\nprintf '%s\\n' \"$*\" > \"$f.args\"\n" +
		"start=$(date +%s%N)\n" + realBin + " \"$@\" < \"$f.json\" > \"$f.out\"\nrc=$?\necho \"$start $(date +%s%N)\" > \"$f.time\"\n" +
		"cat \"$f.out\"\nexit $rc\n"
	if err := os.WriteFile(filepath.Join(s.binDir, "lsp-hook"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	path := strings.Join([]string{s.binDir, agentsBin, filepath.Join(moduleRoot, ".tools", "bin"), hostGo.goBinDir,
		"/usr/local/bin", "/usr/bin", "/bin"}, string(os.PathListSeparator))
	s.env = []string{
		"PATH=" + path,
		"HOME=" + s.home,
		"USER=" + envOr("USER", "agent"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(s.home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(s.home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + filepath.Join(root, "run"),
		"GOCACHE=" + hostGo.gocache,
		"GOMODCACHE=" + hostGo.gomodcache,
		"GOPLSCACHE=" + hostGo.goplscache,
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
		"NO_PROXY=127.0.0.1,localhost",
		"DO_NOT_TRACK=1",
		"NO_UPDATE_NOTIFIER=1",
	}
	t.Cleanup(s.stopDaemon)
	return s
}

// envOr returns $key, or def when it is empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// writeFile writes content to path, failing the test on error.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lspHook runs the real lsp-hook with args in the workspace and returns
// what it printed, with an error when it fails.
func (s *session) lspHook(args ...string) (string, error) {
	s.t.Helper()
	cmd := exec.Command(realBin, args...)
	cmd.Dir = s.ws
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("running lsp-hook %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// stopDaemon stops the workspace's daemon (and its gopls), if one started.
func (s *session) stopDaemon() {
	cmd := exec.Command(realBin, "stop")
	cmd.Dir = s.ws
	cmd.Env = s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Logf("lsp-hook stop: %v\n%s", err, out)
	}
}

// gitCommit makes the workspace a git repository and commits all of it.
func (s *session) gitCommit() {
	s.t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=agentsuite", "-c", "user.email=agentsuite@example.com", "commit", "-q", "-m", "before the session"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = s.ws
		cmd.Env = s.env
		if out, err := cmd.CombinedOutput(); err != nil {
			s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// result is what a CLI run printed.
type result struct {
	stdout, stderr string
	err            error
	elapsed        time.Duration
}

// run runs the CLI exe with args and extra environment in the workspace,
// in its own process group, killed with the group at runTimeout.
func (s *session) run(exe string, args []string, extra []string, stdin string) result {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = s.ws
	cmd.Env = append(append(append([]string(nil), s.env...), "PWD="+s.ws), extra...)
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	killGroup(cmd) // leftovers of the CLI's group
	return result{stdout: out.String(), stderr: errb.String(), err: err, elapsed: time.Since(start)}
}

// payload is one hook call the wrapper recorded.
type payload struct {
	Args  string        // the lsp-hook arguments
	JSON  []byte        // stdin
	Out   string        // what the hook printed on stdout: its answer
	Took  time.Duration // the hook process's run time (0 when unknown)
	Event string        // hook_event_name or hookEventName ("" when absent)
	Tool  bool          // a tool's event: it names a tool
}

// payloads returns the recorded hook calls in order.
func (s *session) payloads() []payload {
	s.t.Helper()
	files, err := filepath.Glob(filepath.Join(s.capture, "*.json"))
	if err != nil {
		s.t.Fatal(err)
	}
	var out []payload
	for _, f := range files { // names start with the time in ns: sorted is in order
		b, err := os.ReadFile(f)
		if err != nil {
			s.t.Fatal(err)
		}
		base := strings.TrimSuffix(f, ".json")
		a, _ := os.ReadFile(base + ".args")
		answer, _ := os.ReadFile(base + ".out")
		p := payload{Args: strings.TrimSpace(string(a)), JSON: b, Out: string(answer)}
		var ev map[string]any
		if json.Unmarshal(b, &ev) == nil {
			p.Event = firstString(ev, "hook_event_name", "hookEventName")
			p.Tool = ev["tool_name"] != nil || ev["toolName"] != nil || ev["tool"] != nil
		}
		if tm, err := os.ReadFile(base + ".time"); err == nil {
			var start, end int64
			if _, err := fmt.Sscan(string(tm), &start, &end); err == nil {
				p.Took = time.Duration(end - start)
			}
		}
		out = append(out, p)
	}
	return out
}
