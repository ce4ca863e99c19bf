package main_test

// Fault tests (issue 7, part 2): the real binary, a real daemon, real gopls
// where a real server can be made to fail at the right moment, and
// testdata/fakelsp for the faults only a scripted server produces on
// demand. Each fault is injected while a hook is waiting, or just before
// one runs, and every case asserts the same contract: the hook answers
// within its budget and exits 0; its lint block says which server failed
// and how, never an empty "clean" block for a file that was not checked;
// `lsp-hook status` tells the truth about the server (broken, and why);
// and the next edit works, after `lsp-hook restart` where DESIGN.md asks
// for it.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsp-hook/lsp-hook/sidecar"
	"github.com/lsp-hook/lsp-hook/wire"
)

// faultSlack is added to a hook's budget before its elapsed time counts
// as over: process start and scheduling on a loaded two-core machine.
const faultSlack = 3 * time.Second

// faultCase is one fault. The runner sets the workspace up (setup), runs
// the faulted hook with the fault injected (fault), checks the answer
// against budget, block and forbid, the daemon's status (status), recovers
// as a user would (recover: nil when nothing is needed), checks that the
// next edit is answered as wanted (next), and what follows it (after).
type faultCase struct {
	name  string
	needs []string // executables the case needs on langPath
	setup func(t *testing.T, w *workspace)
	// fault injects the fault and returns the faulted hook's run.
	fault func(t *testing.T, w *workspace) result
	// budget is what the faulted hook may take: its warm budget, or the
	// cold one when it had to start a daemon or a server.
	budget time.Duration
	// block lists substrings the faulted hook's lint block must hold, and
	// forbid those it must not.
	block, forbid []string
	// status checks `lsp-hook status` after the fault.
	status  func(t *testing.T, w *workspace)
	recover func(t *testing.T, w *workspace)
	// next makes the next edit and returns its event, what its lint block
	// must hold, and its budget.
	next func(t *testing.T, w *workspace) (event string, want []string, budget time.Duration)
	// after checks what follows the next edit; nil: nothing more.
	after func(t *testing.T, w *workspace)
}

// TestFaults injects each fault of issue 7 under a real daemon.
func TestFaults(t *testing.T) {
	e2e(t)
	mainBroken := func(w *workspace) string {
		return strings.Replace(w.readFile("main.go"), `inv.Add("pear", 5)`, `inv.Add("pear", "5")`, 1)
	}
	const mainError = `ERROR [16:18] cannot use "5" (untyped string constant) as int value in argument to inv.Add (IncompatibleAssign)`
	reportError := func(n int) string {
		d := reportTypeError(n)
		return fmt.Sprintf("ERROR [%d:%d] %s (%s)", d.line, d.col, d.msg, d.code)
	}
	jsonError := []string{"ERROR [8:3] ", "trailing commas are not allowed in JSON"}
	var killedDaemon int // the daemon the daemon-kill case killed

	cases := []faultCase{
		{
			name:  "gopls SIGKILL mid-request",
			needs: []string{"gopls"},
			setup: warmGopls,
			fault: func(t *testing.T, w *workspace) result {
				g := w.gopls(w.daemonStatus())
				// Hold the request in gopls: a stopped gopls cannot
				// answer, so the hook is surely waiting when it dies.
				sigstop(t, g.Pid)
				wait := w.start(w.edit("s", "main.go", mainBroken(w)), nil, "hook", "claude")
				w.waitServer("gopls", func(s sidecar.ServerStatus) bool { return s.Documents == 2 }) // main.go's didOpen sent
				killed := time.Now()
				if err := killProcess(g.Pid); err != nil {
					t.Fatal(err)
				}
				r := waitResult(t, wait)
				t.Logf("the hook answered %v after gopls was killed", time.Since(killed).Round(time.Millisecond))
				if !pollUntil(5*time.Second, func() bool { return !alive(g.Pid) }) {
					t.Errorf("gopls %d still alive 5s after SIGKILL", g.Pid)
				}
				return r
			},
			budget: wire.DefaultBudget,
			block: []string{"no fresh diagnostics from gopls (not running)",
				"gopls is broken (server process exited: signal: killed); it restarts on the next change after "},
			forbid: []string{"ERROR ["}, // nothing from before the change passes for its answer
			status: func(t *testing.T, w *workspace) {
				s := w.serverNamed("gopls")
				if s.State != "broken" || !strings.Contains(s.LastError, "signal: killed") {
					t.Errorf("status gopls = %+v, want broken with last_error naming signal: killed", s)
				}
			},
			recover: restartServer("gopls"),
			next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
				return w.edit("s", "main.go", mainBroken(w)), []string{mainError}, wire.DefaultColdBudget
			},
		},
		{
			name:  "gopls hung by SIGSTOP, then restart",
			needs: []string{"gopls"},
			setup: warmGopls,
			fault: func(t *testing.T, w *workspace) result {
				g := w.gopls(w.daemonStatus())
				sigstop(t, g.Pid)
				r := w.run(w.edit("s", "report.go", reportBroken(t, 1)), nil, "hook", "claude")
				return r
			},
			budget: wire.DefaultBudget,
			block:  []string{"no fresh diagnostics from gopls (timeout)"},
			forbid: []string{"ERROR ["}, // the error before the change (line 13) is not its answer
			status: func(t *testing.T, w *workspace) {
				s := w.serverNamed("gopls")
				if s.State != "active" || !strings.Contains(s.LastError, "no answer") {
					t.Errorf("status gopls = %+v, want active with last_error saying it did not answer", s)
				}
			},
			recover: func(t *testing.T, w *workspace) {
				pid := w.serverNamed("gopls").Pid
				restartServer("gopls")(t, w)
				if !pollUntil(10*time.Second, func() bool { return !alive(pid) }) {
					t.Errorf("the stopped gopls %d survived `lsp-hook restart gopls`", pid)
				}
			},
			next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
				return w.edit("s", "report.go", reportBroken(t, 2)), []string{reportError(2)}, wire.DefaultColdBudget
			},
		},
		{
			name:  "gopls hung by SIGSTOP, then SIGCONT, then stop",
			needs: []string{"gopls"},
			setup: warmGopls,
			fault: func(t *testing.T, w *workspace) result {
				g := w.gopls(w.daemonStatus())
				sigstop(t, g.Pid)
				return w.run(w.edit("s", "report.go", reportBroken(t, 1)), nil, "hook", "claude")
			},
			budget: wire.DefaultBudget,
			block:  []string{"no fresh diagnostics from gopls (timeout)"},
			forbid: []string{"ERROR ["}, // the error before the change (line 13) is not its answer
			status: func(t *testing.T, w *workspace) {
				if s := w.serverNamed("gopls"); s.State != "active" || !strings.Contains(s.LastError, "no answer") {
					t.Errorf("status gopls = %+v, want active with last_error saying it did not answer", s)
				}
			},
			recover: func(t *testing.T, w *workspace) {
				if err := sigcont(w.serverNamed("gopls").Pid); err != nil {
					t.Fatal(err)
				}
			},
			next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
				return w.edit("s", "report.go", reportBroken(t, 2)), []string{reportError(2)}, wire.DefaultBudget
			},
			after: stopWhileStopped,
		},
		{
			name: "daemon SIGKILL mid-request",
			setup: func(t *testing.T, w *workspace) {
				w.userConfig(fakeServers("5s", "5s", fakeSpec{name: "fake", mode: "normal", exts: ".json"}))
				if block := w.hook(w.edit("s", "config.json", w.readFile("config.json"))); block != "" {
					t.Fatalf("clean config.json reported:\n%s", block)
				}
			},
			fault: func(t *testing.T, w *workspace) result {
				st := w.daemonStatus()
				fake := w.serverNamed("fake")
				sigstop(t, fake.Pid) // holds the request in the daemon
				wait := w.start(w.replay("05-write-config-json-trailing-comma"), nil, "hook", "claude")
				if !pollUntil(20*time.Second, func() bool { return w.daemonStatus().Counters[wire.MethodNotifyChange] == 2 }) {
					t.Fatal("the second notify_change never reached the daemon")
				}
				if err := killProcess(st.Pid); err != nil {
					t.Fatal(err)
				}
				r := waitResult(t, wait)
				if !pollUntil(5*time.Second, func() bool { return !alive(fake.Pid) }) {
					_ = killProcess(fake.Pid)
					t.Errorf("fake server %d outlived its daemon's SIGKILL by 5s (orphan)", fake.Pid)
				}
				killedDaemon = st.Pid
				return r
			},
			budget: wire.DefaultBudget,
			block:  append(jsonError, "the lsp-hook daemon was lost during this check, so fake did not check this change"),
			status: func(t *testing.T, w *workspace) {
				if st, _ := w.status(); st.Running {
					t.Errorf("status answers after the daemon was killed: pid %d (killed %d)", st.Pid, killedDaemon)
				}
			},
			next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
				return w.replay("05-write-config-json-trailing-comma"), jsonError, wire.DefaultColdBudget
			},
			after: func(t *testing.T, w *workspace) {
				if st := w.daemonStatus(); st.Pid == killedDaemon || w.serverNamed("fake").State != "active" {
					t.Errorf("after the next hook status = pid %d, servers %+v; want a new daemon with fake active", st.Pid, st.Servers)
				}
			},
		},
		socketGone("socket file deleted under the daemon", func(w *workspace) error { return os.Remove(w.socket()) }),
		socketGone("socket directory deleted under the daemon", func(w *workspace) error { return os.RemoveAll(filepath.Dir(w.socket())) }),
		logUnwritable("default log path is a directory", jsonError),
		logUnwritable("serve --log-file under a regular file", jsonError),
		stderrFlood(),
		garbageStdout(),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, exe := range c.needs {
				requireExe(t, exe)
			}
			w := newWorkspace(t)
			defer w.use(t)()
			if c.setup != nil {
				c.setup(t, w)
			}
			r := c.fault(t, w)
			block := w.checkHook(r)
			t.Logf("faulted hook: %v (budget %v); its block:\n%s", r.elapsed.Round(time.Millisecond), c.budget, indent(block))
			if r.elapsed > c.budget+faultSlack {
				t.Errorf("the faulted hook took %v, over its %v budget (+%v slack)", r.elapsed, c.budget, faultSlack)
			}
			if block == "" {
				t.Errorf("the faulted hook printed nothing: an empty block reads as clean")
			}
			for _, s := range c.block {
				if !strings.Contains(block, s) {
					t.Errorf("the faulted hook's block lacks %q:\n%s", s, indent(block))
				}
			}
			for _, s := range c.forbid {
				if strings.Contains(block, s) {
					t.Errorf("the faulted hook's block holds %q:\n%s", s, indent(block))
				}
			}
			if c.status != nil {
				c.status(t, w)
			}
			if c.recover != nil {
				c.recover(t, w)
			}
			ev, want, budget := c.next(t, w)
			r = w.run(ev, nil, "hook", "claude")
			block = w.checkHook(r)
			t.Logf("next hook: %v (budget %v)", r.elapsed.Round(time.Millisecond), budget)
			if r.elapsed > budget+faultSlack {
				t.Errorf("the next hook took %v, over its %v budget (+%v slack)", r.elapsed, budget, faultSlack)
			}
			for _, s := range want {
				if !strings.Contains(block, s) {
					t.Errorf("the next hook's block lacks %q:\n%s", s, indent(block))
				}
			}
			if strings.Contains(block, "lsp-hook:") {
				t.Errorf("the next hook still reports a problem:\n%s", indent(block))
			}
			if c.after != nil {
				c.after(t, w)
			}
		})
	}
}

// warmGopls starts the daemon and gopls with an edit of report.go that
// gopls answers fresh.
func warmGopls(t *testing.T, w *workspace) {
	t.Helper()
	checkLint(t, w.hook(w.edit("s", "report.go", reportBroken(t, 0))), []wantDiag{reportTypeError(0)})
}

// restartServer returns a recover step that runs `lsp-hook restart server`.
func restartServer(server string) func(t *testing.T, w *workspace) {
	return func(t *testing.T, w *workspace) {
		t.Helper()
		r := w.run("", nil, "restart", server)
		if r.exit != 0 || !strings.Contains(r.stdout, "restarted "+server) {
			t.Fatalf("restart %s: exit %d\n%s%s", server, r.exit, r.stdout, r.stderr)
		}
	}
}

// stopWhileStopped stops gopls with SIGSTOP again and then the daemon with
// `lsp-hook stop`: the daemon must kill what does not exit, leaving no
// process behind.
func stopWhileStopped(t *testing.T, w *workspace) {
	t.Helper()
	g := w.gopls(w.daemonStatus())
	sigstop(t, g.Pid)
	begin := time.Now()
	if r := w.run("", nil, "stop"); r.exit != 0 {
		t.Errorf("stop with gopls stopped: exit %d: %s", r.exit, r.stderr)
	}
	t.Logf("lsp-hook stop with gopls stopped took %v", time.Since(begin).Round(time.Millisecond))
	if left := waitFor(10*time.Second, func() []procInfo { return procsIn(w.root, "") }); len(left) > 0 {
		t.Errorf("processes left after `lsp-hook stop` with gopls stopped: %+v", left)
	}
}

func waitResult(t *testing.T, wait func() (result, error)) result {
	t.Helper()
	r, err := wait()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// daemonStatus is status, failing the test when no daemon answers.
func (w *workspace) daemonStatus() sidecar.StatusResult {
	w.t.Helper()
	st, ok := w.status()
	if !ok {
		w.t.Fatal("no daemon answers status")
	}
	return st
}

// serverNamed returns the status line of the server named name, failing the
// test unless there is exactly one.
func (w *workspace) serverNamed(name string) sidecar.ServerStatus {
	w.t.Helper()
	var found []sidecar.ServerStatus
	for _, s := range w.daemonStatus().Servers {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		w.t.Fatalf("status has %d %s servers: %+v", len(found), name, found)
	}
	return found[0]
}

// waitServer polls status until the server named name satisfies cond.
func (w *workspace) waitServer(name string, cond func(sidecar.ServerStatus) bool) {
	w.t.Helper()
	var last sidecar.ServerStatus
	if !pollUntil(20*time.Second, func() bool { last = w.serverNamed(name); return cond(last) }) {
		w.t.Fatalf("status %s = %+v, never as wanted", name, last)
	}
}

// userConfig writes the user-level config ($XDG_CONFIG_HOME/lsp-hook/
// config.yaml of every process run in w), which needs no trust.
func (w *workspace) userConfig(yaml string) {
	w.t.Helper()
	p := filepath.Join(w.runtime, "config", "lsp-hook", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// fakeSpec is one testdata/fakelsp server of a config: its name, mode,
// extensions (comma-separated) and extra flags.
type fakeSpec struct {
	name, mode, exts string
	flags            []string
}

// fakeServers renders an lsp section with the given timeouts and fake
// servers.
func fakeServers(timeout, firstTouch string, specs ...fakeSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lsp:\n  timeout: %s\n  first_touch_timeout: %s\n  servers:\n", timeout, firstTouch)
	for _, s := range specs {
		cmd := []string{strconv.Quote(fakeLSP), "-mode=" + s.mode}
		for _, f := range s.flags {
			cmd = append(cmd, strconv.Quote(f))
		}
		var exts []string
		for _, e := range strings.Split(s.exts, ",") {
			exts = append(exts, strconv.Quote(e))
		}
		fmt.Fprintf(&b, "    %s:\n      command: [%s]\n      extensions: [%s]\n", s.name, strings.Join(cmd, ", "), strings.Join(exts, ", "))
	}
	return b.String()
}

// socketGone is the fault case of a socket that remove deletes under a
// running daemon, between two hooks. The next hook must be answered by a
// daemon, not by the in-process fallback: the fake server's diagnostics
// come only from a daemon. The daemon re-creates its socket (relisten.go)
// and keeps its warm server; when the socket directory went too, the
// daemon the hook starts may take a fresh lock first, and then the old
// one leaves: either way exactly one daemon serves the workspace, and
// nothing of the other is left.
func socketGone(name string, remove func(w *workspace) error) faultCase {
	var before sidecar.StatusResult // the daemon that lost its socket
	return faultCase{
		name: name,
		setup: func(t *testing.T, w *workspace) {
			w.userConfig(fakeServers("5s", "5s", fakeSpec{name: "fake", mode: "normal", exts: ".fake"}))
			if block := w.hook(w.edit("s", "a.fake", "ERROR(F1): one\n")); !strings.Contains(block, "ERROR [1:1] one (F1)") {
				t.Fatalf("first hook:\n%s", block)
			}
			before = w.daemonStatus()
		},
		fault: func(t *testing.T, w *workspace) result {
			if err := remove(w); err != nil {
				t.Fatal(err)
			}
			return w.run(w.edit("s", "a.fake", "ERROR(F2): two\n"), nil, "hook", "claude")
		},
		budget: wire.DefaultColdBudget, // it finds no socket, so it starts a daemon
		block:  []string{"ERROR [1:1] two (F2)"},
		status: func(t *testing.T, w *workspace) {
			st := w.daemonStatus()
			if s := w.serverNamed("fake"); s.State != "active" || s.LastError != "" {
				t.Errorf("status fake = %+v, want active", s)
			}
			if st.Pid == before.Pid {
				t.Logf("the daemon (pid %d) listens again on its socket", st.Pid)
			} else {
				t.Logf("a new daemon (pid %d) took the workspace over; the old one (pid %d) left", st.Pid, before.Pid)
				if !pollUntil(10*time.Second, func() bool { return !alive(before.Pid) }) {
					t.Errorf("the old daemon %d still runs beside the new one %d", before.Pid, st.Pid)
				}
			}
			if !pollUntil(10*time.Second, func() bool { return len(w.daemons()) == 1 }) {
				t.Errorf("daemons in the workspace: %+v, want exactly one", w.daemons())
			}
			if fi, err := os.Stat(w.socket()); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("socket after the fault: %v (mode %v), want a 0600 socket", err, fi.Mode().Perm())
			}
		},
		next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
			return w.edit("s", "a.fake", "ERROR(F3): three\n"), []string{"ERROR [1:1] three (F3)"}, wire.DefaultBudget
		},
	}
}

// logUnwritable is the fault case of a daemon whose log file cannot be
// opened: the default one beside the socket is a directory (EISDIR, which
// root cannot write through either), or `serve --log-file` names a file
// under a regular file (ENOTDIR). The daemon serves on; status says the
// log is not written, and serve's stderr says so once.
func logUnwritable(name string, jsonError []string) faultCase {
	var serve func() (result, error) // the serve the test started, for --log-file
	var logFile string
	return faultCase{
		name: name,
		setup: func(t *testing.T, w *workspace) {
			if err := os.Mkdir(filepath.Dir(w.socket()), 0o700); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(name, "--log-file") {
				logFile = w.logFile()
				if err := os.Mkdir(logFile, 0o700); err != nil {
					t.Fatal(err)
				}
				return
			}
			blocker := filepath.Join(w.runtime, "blocker")
			if err := os.WriteFile(blocker, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			logFile = filepath.Join(blocker, "daemon.log")
			serve = w.start("", nil, "serve", "--log-file", logFile)
			if !pollUntil(20*time.Second, func() bool { st, _ := w.status(); return st.Running }) {
				t.Fatal("lsp-hook serve never answered")
			}
		},
		fault: func(t *testing.T, w *workspace) result {
			return w.run(w.replay("05-write-config-json-trailing-comma"), nil, "hook", "claude")
		},
		budget: wire.DefaultColdBudget,
		block:  jsonError,
		status: func(t *testing.T, w *workspace) {
			st := w.daemonStatus()
			if n := st.Counters[wire.MethodNotifyChange]; n != 1 {
				t.Errorf("the daemon counted %d notify_change, want 1: the hook did not go through it", n)
			}
			if st.LogFile != logFile || !strings.Contains(st.LogError, logFile) {
				t.Errorf("status log_file %q, log_error %q; want %s and why it is not written", st.LogFile, st.LogError, logFile)
			}
			if r := w.run("", nil, "status"); !strings.Contains(r.stdout, "log     NOT WRITTEN: opening log file "+logFile) {
				t.Errorf("lsp-hook status does not say the log is not written:\n%s", r.stdout)
			}
		},
		next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
			if serve != nil {
				t.Cleanup(func() {
					if r := w.run("", nil, "stop"); r.exit != 0 {
						t.Errorf("stop: exit %d: %s", r.exit, r.stderr)
					}
					r := waitResult(t, serve)
					want := "lsp-hook serve: opening log file " + logFile + ": "
					if n := strings.Count(r.stderr, want); n != 1 || r.exit != 0 {
						t.Errorf("serve exited %d and said %d times %q; want 0 and once:\n%s", r.exit, n, want, r.stderr)
					}
				})
			}
			return w.replay("06-edit-settings-yaml-duplicate-key"),
				[]string{`ERROR [26:1] duplicate key "replicas" (first at 16:1)`}, wire.DefaultBudget
		},
	}
}

// stderrFlood is the fault case of a server that writes 64 MiB to stderr
// at start and 1 MiB before every publication: hooks are answered, the
// daemon's peak memory stays far below the flood, and status keeps only a
// few short lines of it.
func stderrFlood() faultCase {
	const floodMiB = 64
	var base int // the daemon's RSS in KiB before the server started
	var daemon int
	return faultCase{
		name: "server floods stderr",
		setup: func(t *testing.T, w *workspace) {
			w.userConfig(fakeServers("5s", "5s", fakeSpec{name: "fake", mode: "stderr-flood", exts: ".fake",
				flags: []string{fmt.Sprintf("-stderr-mib=%d", floodMiB)}}))
			if block := w.hook(w.edit("s", "config.json", w.readFile("config.json"))); block != "" {
				t.Fatalf("clean config.json reported:\n%s", block)
			}
			daemon = w.daemonStatus().Pid
			base = procKiB(t, daemon, "VmRSS")
			if block := w.hook(w.edit("s", "a.fake", "ERROR(F1): one\n")); !strings.Contains(block, "ERROR [1:1] one (F1)") {
				t.Fatalf("first hook:\n%s", block)
			}
			fake := w.serverNamed("fake")
			if !pollUntil(30*time.Second, func() bool { return procKiB(t, fake.Pid, "wchar") >= floodMiB<<10 }) {
				t.Fatalf("the fake server did not write its %d MiB flood", floodMiB)
			}
		},
		fault: func(t *testing.T, w *workspace) result {
			return w.run(w.edit("s", "a.fake", "ERROR(F2): two\n"), nil, "hook", "claude")
		},
		budget: wire.DefaultBudget,
		block:  []string{"ERROR [1:1] two (F2)"},
		status: func(t *testing.T, w *workspace) {
			peak := procKiB(t, daemon, "VmHWM")
			t.Logf("daemon RSS %d KiB before the server, peak %d KiB after %d MiB of its stderr", base, peak, floodMiB+2)
			if peak-base > floodMiB<<10/4 {
				t.Errorf("the daemon's peak RSS grew by %d KiB with a %d MiB stderr flood: stderr is not bounded", peak-base, floodMiB)
			}
			fake := w.serverNamed("fake")
			if fake.State != "active" {
				t.Errorf("status fake = %+v, want active", fake)
			}
			// A broken server's stderr lines show in status: a few, short.
			if err := killProcess(fake.Pid); err != nil {
				t.Fatal(err)
			}
			w.waitServer("fake", func(s sidecar.ServerStatus) bool { return s.State == "broken" })
			lines := w.serverNamed("fake").Stderr
			size := 0
			for _, l := range lines {
				size += len(l)
				if strings.ContainsFunc(l, func(r rune) bool { return r < ' ' && r != '\t' }) {
					t.Errorf("status stderr line holds control characters: %q", l)
				}
			}
			if len(lines) == 0 || len(lines) > 5 || size > 5*210 {
				t.Errorf("status stderr = %d lines, %d bytes; want 1 to 5 short lines", len(lines), size)
			}
		},
		recover: restartServer("fake"),
		next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
			return w.edit("s", "a.fake", "ERROR(F3): three\n"), []string{"ERROR [1:1] three (F3)"}, wire.DefaultColdBudget
		},
	}
}

// garbageStdout is the fault case of a server that writes bytes that are
// not a framed message to its stdout: it is broken at once and killed,
// and reported so; another language's server is unaffected; after
// `lsp-hook restart` the server is started and tried again.
func garbageStdout() faultCase {
	var trace string
	starts := func(t *testing.T) int {
		b, err := os.ReadFile(trace)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		n := 0
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "start ") {
				n++
			}
		}
		return n
	}
	const brokenNote = "no fresh diagnostics from fake (not running)"
	return faultCase{
		name: "server writes garbage on stdout",
		setup: func(t *testing.T, w *workspace) {
			trace = filepath.Join(w.runtime, "fake.trace")
			w.userConfig(fakeServers("5s", "5s",
				fakeSpec{name: "fake", mode: "garbage-stdout", exts: ".fake", flags: []string{"-trace=" + trace}},
				fakeSpec{name: "healthy", mode: "normal", exts: ".ok"}))
		},
		fault: func(t *testing.T, w *workspace) result {
			return w.run(w.edit("s", "a.fake", "ERROR(G1): one\n"), nil, "hook", "claude")
		},
		budget: wire.DefaultColdBudget,
		block: []string{brokenNote, "fake is broken (server wrote something other than an LSP message on stdout: ",
			"; it restarts on the next change after "},
		status: func(t *testing.T, w *workspace) {
			s := w.serverNamed("fake")
			if s.State != "broken" || !strings.Contains(s.LastError, "other than an LSP message") {
				t.Errorf("status fake = %+v, want broken by what it wrote on stdout", s)
			}
			if s.Pid != 0 && !pollUntil(5*time.Second, func() bool { return !alive(s.Pid) }) {
				t.Errorf("the garbage-writing server %d still runs", s.Pid)
			}
		},
		recover: func(t *testing.T, w *workspace) {
			if block := w.hook(w.edit("s", "b.ok", "ERROR(H1): healthy\n")); !strings.Contains(block, "ERROR [1:1] healthy (H1)") {
				t.Errorf("the healthy server's edit while fake is broken:\n%s", indent(block))
			}
			restartServer("fake")(t, w)
			block := w.hook(w.edit("s", "a.fake", "ERROR(G2): two\n"))
			if n := starts(t); n != 2 {
				t.Errorf("fake started %d times, want 2: restart did not try it again", n)
			}
			if !strings.Contains(block, brokenNote) {
				t.Errorf("fake tried again after restart:\n%s", indent(block))
			}
		},
		next: func(t *testing.T, w *workspace) (string, []string, time.Duration) {
			return w.edit("s", "b.ok", "ERROR(H2): still healthy\n"), []string{"ERROR [1:1] still healthy (H2)"}, wire.DefaultBudget
		},
	}
}

// procKiB reads a size field of /proc/PID: a "Vm…" line of status in KiB,
// or a byte counter of io ("wchar") in KiB.
func procKiB(t *testing.T, pid int, field string) int {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	t.Helper()
	file := "status"
	if !strings.HasPrefix(field, "Vm") {
		file = "io"
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file))
	if err != nil {
		t.Fatalf("reading %s of %d: %v", file, pid, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok || k != field {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		if err != nil {
			t.Fatalf("/proc/%d/%s %s: %v", pid, file, field, err)
		}
		if file == "io" {
			n >>= 10
		}
		return n
	}
	t.Fatalf("/proc/%d/%s has no %s", pid, file, field)
	return 0
}
