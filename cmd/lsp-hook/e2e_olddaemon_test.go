package main_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/wire"
)

// TestStopGateOlderDaemon: lsp-hook is upgraded mid-session (npm, brew)
// while the daemon of the version before runs, and the next event of the
// session is its end of turn. The Stop hook took a daemon of an older
// protocol for no daemon and allowed the turn in silence, a false allow
// over the errors the session made; a tool hook replaced such a daemon,
// the Stop hook did not. It now replaces it too (wire.Connect asks it to
// shut down; it writes its sessions' record as it stops) and gates the
// turn on the record. The daemon of an older version cannot be run here,
// so it is played: a real daemon's session breaks Greet's callers and is
// stopped, and a scripted daemon of the protocol before — holding the
// socket's lock, answering hello, writing that real record back when
// asked to shut down, as every released version does — takes its place.
// The Stop hook must ask it to shut down and block, naming go build's
// errors.
func TestStopGateOlderDaemon(t *testing.T) {
	w := greetSession(t)
	if r := w.run("", nil, "stop"); r.exit != 0 {
		t.Fatalf("lsp-hook stop: exit %d: %s", r.exit, r.stderr)
	}
	truth := w.callersBroken()
	socket := w.socket()
	record, err := os.ReadFile(wire.SessionsPath(socket))
	if err != nil {
		t.Fatalf("the stopped daemon left no sessions' record: %v", err)
	}
	if err := os.Remove(wire.SessionsPath(socket)); err != nil {
		t.Fatal(err)
	}
	old := serveOlderDaemon(t, socket, w.root, record)
	w.stopBlocks("s", "an upgrade, the daemon of the version before still running", truth)
	if got := old.asked(); !slices.Contains(got, wire.MethodShutdown) {
		t.Errorf("the older daemon was asked %v; want a shutdown", got)
	}
}

// TestSessionStartOlderDaemon: a session starts after an upgrade, the
// daemon of the version before still running. The SessionStart hook
// started a daemon to prewarm, which found the socket's lock taken and
// exited, so the older daemon served on (a tool hook would replace it,
// cold) and nothing prewarmed. The daemon it starts now asks the older
// one to shut down, waits for it (`serve --replace-older`; the hook
// itself returns at once, printing nothing), and prewarms: gopls runs and
// `lsp-hook status` shows this version's daemon with the session.
func TestSessionStartOlderDaemon(t *testing.T) {
	e2e(t)
	requireExe(t, "gopls")
	w := newWorkspaceOf(t, "langs/go", "", []string{"PATH=" + langPath(), "LSP_HOOK_LOG_LEVEL=debug"})
	old := serveOlderDaemon(t, w.socket(), w.root, nil)
	if out := w.lifecycle("s", "SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Fatalf("SessionStart printed %q, want nothing", out)
	}
	if !pollUntil(20*time.Second, func() bool { return len(goplsServers(w.root)) == 1 }) {
		log, _ := w.logSince(0)
		t.Fatalf("no gopls prewarmed after SessionStart met a daemon of an older protocol (it was asked %v); the log:\n%s", old.asked(), indent(log))
	}
	if got := old.asked(); !slices.Contains(got, wire.MethodShutdown) {
		t.Errorf("the older daemon was asked %v; want a shutdown", got)
	}
	if r := w.run("", nil, "status"); r.exit != 0 || !strings.Contains(r.stdout, "version devel") || !regexp.MustCompile(`(?m)^s +claude `).MatchString(r.stdout) {
		t.Errorf("lsp-hook status after the replacement: exit %d\n%s; want this version's daemon, with session s", r.exit, r.stdout)
	}
}

// olderDaemon plays a daemon of the protocol before this one on a
// workspace's socket: it holds the socket's lock, answers hello, and on
// shutdown writes the sessions' record it was given (if any), stops listening and
// lets the lock go, as a released daemon does when a newer client
// replaces it. Every other request is refused.
type olderDaemon struct {
	socket, root string
	record       []byte
	ln           net.Listener
	lock         *os.File

	mu      sync.Mutex
	methods []string
	once    sync.Once
}

// serveOlderDaemon starts an olderDaemon on socket, stopped when the test
// ends.
func serveOlderDaemon(t *testing.T, socket, root string, record []byte) *olderDaemon {
	t.Helper()
	if err := wire.EnsureDir(filepath.Dir(socket)); err != nil {
		t.Fatal(err)
	}
	lock, err := wire.TakeLock(socket)
	if err != nil {
		t.Fatalf("taking the socket's lock: %v", err)
	}
	_ = os.Remove(socket)
	ln, err := net.Listen("unix", socket)
	if err != nil {
		lock.Close()
		t.Fatal(err)
	}
	d := &olderDaemon{socket: socket, root: root, record: record, ln: ln, lock: lock}
	t.Cleanup(d.stop)
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(nc, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(d))
		}
	}()
	return d
}

// Handle implements jsonrpc2.Handler.
func (d *olderDaemon) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	d.mu.Lock()
	d.methods = append(d.methods, req.Method)
	d.mu.Unlock()
	switch req.Method {
	case wire.MethodHello:
		_ = conn.Reply(ctx, req.ID, wire.HelloResult{Version: "0.0.1-older", Protocol: wire.ProtocolVersion - 1, Pid: os.Getpid(), Root: d.root})
	case wire.MethodShutdown:
		_ = conn.Reply(ctx, req.ID, struct{}{})
		if d.record != nil {
			if err := os.WriteFile(wire.SessionsPath(d.socket), d.record, 0o600); err != nil {
				panic(err)
			}
		}
		d.stop()
	default:
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "not in this older protocol: " + req.Method})
	}
}

// stop stops listening and lets the socket's lock go.
func (d *olderDaemon) stop() {
	d.once.Do(func() {
		d.ln.Close()
		d.lock.Close()
	})
}

// asked returns the methods the daemon was asked, in order.
func (d *olderDaemon) asked() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.methods)
}
