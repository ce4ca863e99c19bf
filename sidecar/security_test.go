//go:build unix

// The security tests run on unix: they need another uid, FIFOs, device
// nodes and /proc. On Windows the socket's guard is its directory's ACL
// (internal/privdir's tests).

package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/fakelsptest"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// nobody is the uid and gid a client of another user runs as.
const nobody = 65534

// peerEnv, when set, makes TestPeerHelper a client of the daemon on the
// socket it names (see TestPeerRefused).
const peerEnv = "LSP_HOOK_TEST_PEER_SOCKET"

// TestPeerHelper is not a test: run by TestPeerRefused as another user, it
// greets the daemon at $LSP_HOOK_TEST_PEER_SOCKET and prints "ok pid=N"
// with the daemon's pid, or "error: …".
func TestPeerHelper(t *testing.T) {
	socket := os.Getenv(peerEnv)
	if socket == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := wire.Dial(ctx, socket, "peer")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer c.Close()
	var st StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Printf("ok pid=%d\n", st.Pid)
}

// TestPeerRefused runs a real client process as uid 65534 (nobody) against
// the daemon. With the socket as Listen makes it (0600 in a 0700
// directory) the client cannot even connect. With the socket loosened by
// the test to 0666 in a 0711 directory, it connects, and the daemon's
// SO_PEERCRED check refuses it: the connection is closed unanswered and the
// log names the uid. The same client binary as root gets an answer, and so
// does an in-process client after the refusal.
func TestPeerRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a client as another user (uid 65534) needs root; the tests run as root in CI")
	}
	base := testdaemon.ShortDir(t)
	if err := os.Chmod(base, 0o711); err != nil { // nobody may pass through, not list
		t.Fatal(err)
	}
	peer := filepath.Join(base, "peer")
	copyFile(t, os.Args[0], peer, 0o755) // this test binary: its TestPeerHelper is the client

	logs := &fakelsptest.LockedBuffer{}
	cfg := config.Default()
	cfg.LSP.Enabled = false
	e := engine.NewEngine(base, cfg, nil, testdaemon.CaptureLog(t, logs))
	socket := filepath.Join(base, "run", "d.sock")
	serveAt(t, e, socket)

	tests := []struct {
		name    string
		uid     uint32
		loosen  bool   // make the socket reachable by other users first
		want    string // in the client's output
		wantLog string // in the daemon's log ("" : no refusal logged)
	}{
		{name: "other uid, socket as made", uid: nobody, want: "permission denied"},
		{name: "other uid, socket reachable", uid: nobody, loosen: true, want: "error: ",
			wantLog: fmt.Sprintf("has uid %d, not 0", nobody)},
		{name: "same uid, same client", uid: 0, loosen: true, want: fmt.Sprintf("ok pid=%d", os.Getpid())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.loosen {
				if err := os.Chmod(filepath.Dir(socket), 0o711); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(socket, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			logged := len(logs.String())
			out := runAs(t, tt.uid, peer, socket)
			if !strings.Contains(out, tt.want) || (tt.want == "error: " && strings.Contains(out, "ok pid")) {
				t.Errorf("client as uid %d said %q, want %q", tt.uid, out, tt.want)
			}
			newLog := logs.String()[logged:]
			if tt.wantLog != "" && !fakelsptest.HasLine(newLog, `msg="refusing connection"`, tt.wantLog) {
				t.Errorf("daemon log after the client:\n%s\nwant a refusal naming %q", newLog, tt.wantLog)
			}
			if tt.wantLog == "" && strings.Contains(newLog, "refusing connection") {
				t.Errorf("daemon refused a connection it should not have:\n%s", newLog)
			}
		})
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var st StatusResult
	if err := testdaemon.Dial(ctx, t, socket).Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil || st.Pid != os.Getpid() {
		t.Errorf("same-uid client after the refusal: %+v, %v", st, err)
	}
}

// runAs runs the test binary bin as uid (its gid the same, no
// supplementary groups) as a client of socket, and returns what it printed.
func runAs(t *testing.T, uid uint32, bin, socket string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run=^TestPeerHelper$", "-test.count=1")
	cmd.Dir = "/"
	cmd.Env = []string{peerEnv + "=" + socket, "PATH=/usr/bin:/bin", "HOME=/"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid, Groups: []uint32{}}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running the client as uid %d: %v\n%s", uid, err, out)
	}
	return string(out)
}

// copyFile copies src to dst with mode perm.
func copyFile(t *testing.T, src, dst string, perm os.FileMode) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestWorkspaceBoundary sends the daemon, over its socket, changes that
// point outside the workspace or at something that is not a source file,
// with a language server configured for every one of those names. None is
// read (a FIFO with no writer would block a reader forever: the request
// returns, and no process holds the FIFO open afterwards), no server is
// started (fakelsp's trace file stays absent, status lists no server), and
// the Result's note names the path and the reason. The last case, an
// ordinary file, starts the server: the setup would have caught a start.
func TestWorkspaceBoundary(t *testing.T) {
	base, err := filepath.EvalSymlinks(testdaemon.ShortDir(t))
	if err != nil {
		t.Fatal(err)
	}
	root, outside := filepath.Join(base, "ws"), filepath.Join(base, "out")
	for _, d := range []string{root, outside, filepath.Join(root, "sub"), filepath.Join(root, "dir.fake")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testdaemon.WriteFile(t, outside, "secret.fake", "ERROR: secret\n")
	testdaemon.WriteFile(t, root, "ok.fake", "ERROR: inside\n")
	mustSymlink(t, filepath.Join(outside, "secret.fake"), filepath.Join(root, "link.fake"))
	mustSymlink(t, outside, filepath.Join(root, "linkdir"))
	mustSymlink(t, "/proc/self/environ", filepath.Join(root, "environ.fake"))
	fifo := filepath.Join(root, "pipe.fake")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	device := filepath.Join(root, "zero.fake")
	mknodErr := syscall.Mknod(device, syscall.S_IFCHR|0o644, 1<<8|5) // /dev/zero's numbers: 1, 5

	trace := filepath.Join(base, "trace")
	cfg := fakelsptest.Config(t, "normal", "-trace="+trace)
	cfg.LSP.Timeout, cfg.LSP.FirstTouchTimeout = 20*time.Second, 20*time.Second // a loaded machine
	fake := cfg.LSP.Servers["fake"]
	fake.FileNames = []string{"environ", "zero", "passwd"}
	fake.LanguageIDs = map[string]string{".fake": "fake", "environ": "fake", "zero": "fake", "passwd": "fake"}
	cfg.LSP.Servers["fake"] = fake
	log := testdaemon.Log(t)
	m := lsp.NewManager(cfg, root, log)
	t.Cleanup(m.Shutdown)
	socket := serve(t, engine.NewEngine(root, cfg, m, log))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)

	secret := "ERROR: sent\n"
	tests := []struct {
		name, path string
		content    *string
		want       string // the reason, in the note after the path
		skip       string
	}{
		{name: "dot dot", path: "../out/secret.fake", want: "outside the workspace"},
		{name: "dot dot mid path", path: "sub/../../out/secret.fake", want: "outside the workspace"},
		{name: "dot dot with content", path: "../out/new.fake", content: &secret, want: "outside the workspace"},
		{name: "absolute elsewhere", path: filepath.Join(outside, "secret.fake"), want: "outside the workspace"},
		{name: "etc passwd", path: "/etc/passwd", want: "outside the workspace"},
		{name: "symlinked file", path: "link.fake", want: "outside the workspace (symlink to " + outside},
		{name: "file under symlinked dir", path: "linkdir/secret.fake", want: "outside the workspace (symlink to " + outside},
		{name: "new file under symlinked dir", path: "linkdir/new.fake", content: &secret, want: "outside the workspace (directory links to " + outside},
		{name: "proc environ", path: "/proc/self/environ", want: "outside the workspace"},
		{name: "symlink to proc environ", path: "environ.fake", want: "outside the workspace (symlink to /proc/"},
		{name: "dev zero", path: "/dev/zero", want: "outside the workspace"},
		{name: "fifo", path: "pipe.fake", want: "not a regular file: a named pipe (FIFO)"},
		{name: "character device", path: "zero.fake", want: "not a regular file: a character device",
			skip: skipIf(mknodErr != nil, fmt.Sprintf("cannot make a device node here: %v", mknodErr))},
		{name: "directory", path: "dir.fake", want: "not a regular file: a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip != "" {
				t.Skip(tt.skip)
			}
			var res wire.Result
			if err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: tt.path, Content: tt.content}}}, &res); err != nil {
				t.Fatalf("notify_change: %v (a reader blocked on the FIFO would end here, at the deadline)", err)
			}
			wantNote := fmt.Sprintf("skipped %s: %s", tt.path, tt.want)
			if len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], wantNote) {
				t.Errorf("notes = %q, want one starting %q", res.Notes, wantNote)
			}
			// A path outside the workspace is never checked, and the lint
			// block says so: silence would read as clean.
			wantLint := ""
			if strings.HasPrefix(tt.want, "outside the workspace") && len(res.Notes) == 1 {
				wantLint = "lsp-hook: " + res.Notes[0]
			}
			if len(res.Files) != 0 || len(res.Servers) != 0 || res.Lint != wantLint {
				t.Errorf("something was checked: files %+v, servers %+v, lint %q (want %q)", res.Files, res.Servers, res.Lint, wantLint)
			}
			assertNoServer(ctx, t, c, trace)
		})
	}
	// Nothing holds the FIFO open: a non-blocking open for writing fails
	// with ENXIO exactly when the FIFO has no reader (fifo(7)).
	if fd, err := syscall.Open(fifo, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); !errors.Is(err, syscall.ENXIO) {
		if err == nil {
			syscall.Close(fd)
		}
		t.Errorf("opening the FIFO for writing: %v, want ENXIO (no reader)", err)
	}

	t.Run("inside, the control", func(t *testing.T) {
		var res wire.Result
		if err := c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: "ok.fake"}}}, &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Servers) != 1 || res.Servers[0].Name != "fake" || len(testdaemon.LintLines(res.Lint)) != 1 {
			t.Errorf("servers %+v, lint %q: want fake's one error", res.Servers, res.Lint)
		}
		if b, err := os.ReadFile(trace); err != nil || !strings.HasPrefix(string(b), "start ") {
			t.Errorf("fakelsp trace = %q, %v: want it started", b, err)
		}
	})
}

// assertNoServer fails t if fakelsp was ever started (its trace file
// exists) or status lists a language server.
func assertNoServer(ctx context.Context, t *testing.T, c *wire.Client, trace string) {
	t.Helper()
	if b, err := os.ReadFile(trace); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("fakelsp was started: trace %q, %v", b, err)
	}
	var st StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Servers) != 0 {
		t.Errorf("status lists servers: %+v", st.Servers)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// skipIf returns why when cond holds, else "".
func skipIf(cond bool, why string) string {
	if cond {
		return why
	}
	return ""
}

// TestRepositoryProgramNeedsTrust: a repository with no lsp-hook config at
// all, but an eslint config and a program of its own at
// node_modules/.bin/eslint, must not get that program run by the first
// edit of a JavaScript file before `lsp-hook trust`, as a workspace
// config's linter command would not be. Untrusted, an eslint installed
// outside the workspace runs instead; with none, the linter is skipped and
// the lint block says so once, naming the program and `lsp-hook trust`.
// The same holds for a linter (here from the user's own config) whose
// command is a workspace-relative path.
func TestRepositoryProgramNeedsTrust(t *testing.T) {
	tests := []struct {
		name      string
		user      string // the user's config.yaml
		file      string // the edited file
		program   string // the workspace's own program, root-relative
		onPath    bool   // an eslint outside the workspace, on PATH
		configDir string // where eslint.config.js is, root-relative ("": the root)
		trust     bool
		wantRan   string // "workspace", "path" or "" (none ran)
		wantNote  string // in the lint block of the first check
		untrusted []string
	}{
		{name: "untrusted, none on PATH", file: "a.js", program: "node_modules/.bin/eslint",
			wantNote: "lsp-hook: linter eslint did not run: its program node_modules/.bin/eslint is the workspace's own and no eslint " +
				"is installed outside it; run `lsp-hook trust` here to allow it.",
			untrusted: []string{"node_modules/.bin/eslint (linter eslint)"}},
		{name: "untrusted, one on PATH", file: "a.js", program: "node_modules/.bin/eslint", onPath: true, wantRan: "path"},
		{name: "trusted", file: "a.js", program: "node_modules/.bin/eslint", onPath: true, trust: true, wantRan: "workspace"},
		{name: "monorepo package with its own eslint", file: "pkg/a.js", program: "pkg/node_modules/.bin/eslint", configDir: "pkg",
			trust: true, wantRan: "workspace"},
		{name: "monorepo package with the hoisted eslint", file: "pkg/a.js", program: "node_modules/.bin/eslint", configDir: "pkg",
			trust: true, wantRan: "workspace"},
		{name: "no eslint config from the file up to the root", file: "other/a.js", program: "node_modules/.bin/eslint", configDir: "pkg",
			trust: true, wantRan: ""},
		{name: "relative command, untrusted", file: "a.x", program: "tools/lint",
			user:      "linters:\n  mine: {command: [./tools/lint, \"{file}\"], parser: eslint, extensions: [.x], mode: always}\n",
			wantNote:  "lsp-hook: linter mine did not run: its program tools/lint is the workspace's own; run `lsp-hook trust` here to allow it.",
			untrusted: []string{"tools/lint (linter mine)"}},
		{name: "relative command, trusted", file: "a.x", program: "tools/lint", trust: true, wantRan: "workspace",
			user: "linters:\n  mine: {command: [./tools/lint, \"{file}\"], parser: eslint, extensions: [.x], mode: always}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", t.TempDir()) // no trust recorded
			user := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", user)
			t.Setenv("XDG_DATA_HOME", t.TempDir()) // no lsp-hook tools directory
			t.Setenv("GOBIN", "")
			t.Setenv("GOPATH", t.TempDir())
			bin := t.TempDir()
			t.Setenv("PATH", bin)
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			marker := filepath.Join(t.TempDir(), "ran")
			program := func(path, who string) {
				t.Helper()
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				// Shell built-ins only: PATH holds nothing else.
				if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+who+" >> "+marker+"\necho '[]'\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			program(filepath.Join(root, tt.program), "workspace")
			if tt.onPath {
				program(filepath.Join(bin, "eslint"), "path")
			}
			if tt.user != "" {
				if err := os.MkdirAll(filepath.Join(user, "lsp-hook"), 0o755); err != nil {
					t.Fatal(err)
				}
				testdaemon.WriteFile(t, filepath.Join(user, "lsp-hook"), "config.yaml", tt.user)
			}
			testdaemon.WriteFile(t, root, filepath.Join(tt.configDir, "eslint.config.js"), "export default [];\n")
			testdaemon.WriteFile(t, root, tt.file, "let x = 1;\n")
			if tt.trust {
				if _, err := config.Trust(root); err != nil {
					t.Fatal(err)
				}
			}
			cfg, problems := engine.LoadConfig(root)
			if len(problems) > 0 {
				t.Fatalf("config problems: %v", problems)
			}
			e := engine.NewEngine(root, cfg, nil, testdaemon.Log(t))
			var blocks []string
			for range 2 {
				res := e.Check(context.Background(), wire.NotifyChangeParams{Changes: []wire.Change{{Path: tt.file}}})
				t.Logf("servers %+v, lint %q", res.Servers, res.Lint)
				blocks = append(blocks, res.Lint)
			}
			ran, _ := os.ReadFile(marker)
			want := ""
			if tt.wantRan != "" {
				want = strings.Repeat(tt.wantRan+"\n", 2)
			}
			if string(ran) != want {
				t.Errorf("programs that ran: %q, want %q", ran, want)
			}
			if blocks[0] != tt.wantNote {
				t.Errorf("first lint block %q, want %q", blocks[0], tt.wantNote)
			}
			if blocks[1] != "" {
				t.Errorf("second lint block %q, want nothing: the note is said once", blocks[1])
			}
			if got := e.Untrusted(); !slices.Equal(got, tt.untrusted) {
				t.Errorf("Untrusted() = %q, want %q", got, tt.untrusted)
			}
		})
	}
}

// TestRequestRefusesFIFO: the request method (navigation for `lsp-hook
// mcp`) on a FIFO inside the workspace answers at once with a refusal, and
// the server still serves the next check: it must not open the FIFO, which
// would block on it forever while holding the server's document lock. The
// FIFO is named _pipe.go, a name the go command leaves out of the package:
// a FIFO gopls itself reads (pipe.go) blocks gopls, whatever lsp-hook does.
func TestRequestRefusesFIFO(t *testing.T) {
	e := goplsEngine(t)
	fifo := filepath.Join(e.Root, "_pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	c := testdaemon.Dial(context.Background(), t, serve(t, e))
	t.Cleanup(func() { unblockFIFO(fifo) }) // before the daemon stops: a reader blocked in open would keep it
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out json.RawMessage
	begin := time.Now()
	err := c.Call(ctx, wire.MethodRequest, wire.RequestParams{Path: "_pipe.go", Method: "textDocument/documentSymbol", Params: json.RawMessage(`{}`)}, &out)
	if err == nil || !strings.Contains(err.Error(), "not a regular file: a named pipe (FIFO)") {
		t.Errorf("request on a FIFO: %v, %s; want a refusal naming it", err, out)
	}
	t.Logf("request on a FIFO answered in %v: %v", time.Since(begin).Round(time.Millisecond), err)
	next, cancelNext := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelNext()
	var res wire.Result
	if err := c.Call(next, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{{Path: "main.go"}}, ColdBudgetMS: 25000}, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Servers) != 1 || res.Servers[0].Freshness != string(lsp.Fresh) {
		t.Errorf("the next check: servers %+v, want gopls fresh", res.Servers)
	}
}

// unblockFIFO opens path for writing without blocking and closes it, so a
// reader blocked opening it (a failing test's) goes on.
func unblockFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

// TestRequestRefusesNonRegular: the request method refuses, at once and
// before any server is asked, what notify_change would not read: a FIFO,
// a directory, a socket, a missing file, a file over MaxFileSize, a
// symlink to a device (outside the workspace).
func TestRequestRefusesNonRegular(t *testing.T) {
	e := fakeEngine(t, "normal")
	fifo := filepath.Join(e.Root, "pipe.fake")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unblockFIFO(fifo) })
	if err := os.Mkdir(filepath.Join(e.Root, "dir.fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(e.Root, "sock.fake"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	big := testdaemon.WriteFile(t, e.Root, "big.fake", "")
	if err := os.Truncate(big, wire.MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(e.Root, "zero.fake")); err != nil {
		t.Fatal(err)
	}
	c := testdaemon.Dial(context.Background(), t, serve(t, e))
	tests := []struct{ path, want string }{
		{"pipe.fake", "request: pipe.fake: not a regular file: a named pipe (FIFO)"},
		{"dir.fake", "request: dir.fake: not a regular file: a directory"},
		{"sock.fake", "request: sock.fake: not a regular file: a socket"},
		{"missing.fake", "no such file or directory"},
		{"big.fake", "request: big.fake: 16.0 MiB is larger than 16 MiB"},
		{"zero.fake", "request: zero.fake: outside the workspace (symlink to /dev/zero)"},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var out json.RawMessage
		err := c.Call(ctx, wire.MethodRequest, wire.RequestParams{Path: tt.path, Method: "textDocument/hover", Params: json.RawMessage(`{}`)}, &out)
		cancel()
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.CodeInvalidParams || !strings.Contains(rpcErr.Message, tt.want) {
			t.Errorf("request on %s: %v, %s; want invalid params %q", tt.path, err, out, tt.want)
		}
	}
	for _, st := range e.Manager.Status() {
		if st.Pid != 0 || st.Root != "" {
			t.Errorf("a server was started: %+v", st)
		}
	}
}
