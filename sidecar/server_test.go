package sidecar

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/testdaemon"
	"github.com/lsp-hook/lsp-hook/wire"
)

// startServer runs a daemon without language servers for root on a fresh
// socket, and returns the socket.
func startServer(t *testing.T, root string) string {
	t.Helper()
	return serve(t, noServersEngine(root))
}

// noServersEngine is an engine for root that runs no language servers.
func noServersEngine(root string) *engine.Engine {
	cfg := config.Default()
	cfg.LSP.Enabled = false
	return engine.NewEngine(root, cfg, nil, testdaemon.Discard())
}

// serve runs a daemon for e on a fresh socket, shut down when the test
// ends, and returns the socket.
func serve(t *testing.T, e *engine.Engine) string {
	t.Helper()
	_, socket := serveServer(t, e)
	return socket
}

// serveServer is serve, returning the Server too.
func serveServer(t *testing.T, e *engine.Engine) (*Server, string) {
	t.Helper()
	socket := testdaemon.Socket(t)
	return serveAt(t, e, socket), socket
}

// serveAt runs a daemon for e on socket, shut down (and Serve's error
// checked) when the test ends.
func serveAt(t *testing.T, e *engine.Engine, socket string) *Server {
	t.Helper()
	srv := &Server{Engine: e, Version: "test", Log: e.Log}
	testdaemon.Serve(t, srv, socket)
	return srv
}

// refuseRequests is a test client's handler: it answers any request
// from the daemon with method-not-found.
var refuseRequests = jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) {
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "test client handles no requests"}
})

// rawDial connects to the daemon on socket without the client: a bare
// JSON-RPC connection, for requests with ids of the test's choosing. It
// answers any request from the daemon with method-not-found, and closes
// when the test ends.
func rawDial(t *testing.T, socket string) *jsonrpc2.Conn {
	t.Helper()
	nc, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(nc, jsonrpc2.VSCodeObjectCodec{}), refuseRequests)
	t.Cleanup(func() { conn.Close() })
	return conn
}

func TestServerProtocol(t *testing.T) {
	root := testdaemon.ShortDir(t)
	root, _ = filepath.EvalSymlinks(root)
	if err := os.WriteFile(filepath.Join(root, "bad.json"), []byte("{\n  \"a\": 1,\n  \"b\": \n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	socket := startServer(t, root)

	fi, err := os.Stat(socket)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if di, err := os.Stat(filepath.Dir(socket)); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("socket dir mode = %v, %v; want 0700", di.Mode().Perm(), err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := testdaemon.Dial(ctx, t, socket)
	if c.Hello.Protocol != wire.ProtocolVersion || c.Hello.Root != root || c.Hello.Pid != os.Getpid() {
		t.Errorf("hello = %+v", c.Hello)
	}
	var status StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &status); err != nil || status.Socket != socket {
		t.Errorf("status socket = %q, %v; want %q", status.Socket, err, socket)
	}

	var res wire.Result
	content := "[1, 2,,]"
	err = c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{Changes: []wire.Change{
		{Path: "bad.json"},
		{Path: filepath.Join(root, "new.json"), Content: &content, Mode: wire.ModeWrite},
		{Path: "/etc/passwd"},
	}}, &res)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 || res.Files[0].Rel != "bad.json" || res.Files[0].Diagnostics[0].Line != 4 {
		t.Errorf("files = %+v", res.Files)
	}
	if !strings.Contains(res.Lint, `<diagnostics file="new.json">`) || !strings.HasPrefix(res.Lint, "LSP errors detected in these files, please fix:") {
		t.Errorf("lint = %q", res.Lint)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "outside the workspace") {
		t.Errorf("notes = %q", res.Notes)
	}

	err = c.Call(ctx, wire.MethodNotifyChange, wire.NotifyChangeParams{}, &res)
	if err == nil || !strings.Contains(err.Error(), "changes is empty") {
		t.Errorf("empty notify_change error = %v", err)
	}
	if err := c.Call(ctx, "no_such_method", nil, nil); err == nil || !strings.Contains(err.Error(), "unknown method") {
		t.Errorf("unknown method error = %v", err)
	}

	var st StatusResult
	if err := c.Call(ctx, wire.MethodStatus, struct{}{}, &st); err != nil {
		t.Fatal(err)
	}
	if st.Counters[wire.MethodNotifyChange] != 2 || st.Root != root {
		t.Errorf("status = %+v", st)
	}

	if err := c.Call(ctx, wire.MethodShutdown, struct{}{}, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	// The reply comes first; the socket goes a moment later.
	var statErr error
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if _, statErr = os.Stat(socket); errors.Is(statErr, os.ErrNotExist) {
			break
		}
	}
	if !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("socket still there 2s after shutdown: %v", statErr)
	}
}

func TestListenRefusesSecondDaemon(t *testing.T) {
	root := testdaemon.ShortDir(t)
	socket := startServer(t, root)
	second := &Server{Engine: engine.NewEngine(root, config.Default(), nil, testdaemon.Discard()), Log: testdaemon.Discard()}
	if err := second.Listen(socket); !errors.Is(err, wire.ErrAlreadyRunning) {
		t.Fatalf("second Listen = %v, want wire.ErrAlreadyRunning", err)
	}
}

func TestUnsafeSocketDir(t *testing.T) {
	base := testdaemon.ShortDir(t)
	target := filepath.Join(base, "real")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o777)
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	dirMode := func(name string, mode os.FileMode) string {
		d := filepath.Join(base, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return d
	}
	// Another user's directory: as root, one chowned to nobody (65534).
	theirs, theirsSkip := dirMode("theirs", 0o700), ""
	if os.Getuid() != 0 {
		theirsSkip = "making a directory another user owns needs root; the tests run as root in CI"
	} else if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, want string // want "": Listen succeeds
		skip            string
	}{
		{name: "symlink", dir: link, want: "is a symlink"},
		{name: "world writable", dir: open, want: "lets other users in"},
		{name: "not a directory", dir: file, want: "not a directory"},
		{name: "not ours", dir: theirs, want: "owned by uid 65534", skip: theirsSkip},
		{name: "group readable", dir: dirMode("group-r", 0o750), want: "mode -rwxr-x--- lets other users in"},
		{name: "group writable", dir: dirMode("group-w", 0o730), want: "lets other users in"},
		{name: "world traversable", dir: dirMode("world-x", 0o701), want: "lets other users in"},
		{name: "private", dir: dirMode("private", 0o700)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip != "" {
				t.Skip(tt.skip)
			}
			srv := &Server{Engine: engine.NewEngine(base, config.Default(), nil, testdaemon.Discard()), Log: testdaemon.Discard()}
			socket := filepath.Join(tt.dir, "d.sock")
			err := srv.Listen(socket)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Listen = %v", err)
				}
				defer srv.Shutdown()
				if fi, err := os.Lstat(socket); err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
					t.Errorf("socket = %v, %v; want a socket with mode 0600", fi.Mode(), err)
				}
				return
			}
			if !errors.Is(err, wire.ErrUnsafeDir) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Listen = %v, want ErrUnsafeDir with %q", err, tt.want)
			}
			if _, err := os.Lstat(socket); err == nil {
				t.Errorf("a socket was made in the unsafe directory")
			}
		})
	}
}
