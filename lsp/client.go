package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// ErrBroken is returned by a Client whose server process exited or whose
// stream failed; it stays broken until restarted.
var ErrBroken = errors.New("language server is broken")

// ErrLoad is an Outcome's error while the server reports that it cannot
// load the workspace (config.Server.LoadErrorProgress and
// LoadErrorMessages), wrapped with the
// server's message ("go.mod:5:1: usage: require module/path v1.2.3"): the
// answer is partial however fresh, since the server publishes nothing for
// the files it could not load.
var ErrLoad = errors.New("cannot load the workspace")

// errShutDown marks a client we shut down on purpose.
var errShutDown = errors.New("server shut down by lsp-hook")

// Client is one running language server process for one workspace root.
// Its methods are safe for concurrent use.
type Client struct {
	server config.Server
	root   string
	log    *slog.Logger

	child   *proc.Child
	io      *stdio
	conn    *jsonrpc2.Conn
	stderr  *tail
	pkgDirs depDirs       // what the last check saw of the server's DependencyDirs
	exited  chan struct{} // closed when the process has been reaped
	store   *store
	ids     atomic.Uint64 // the last request id picked for conn (call, Shutdown); ids count from 1, per client
	heard   atomic.Int64  // when the server last sent anything: a notification, a request, a pull's answer (Unix ns; heardSince)

	// Set once by initialize, read-only after.
	encoding                        string
	openClose, change, save, saveTx bool
	serverName                      string
	caps                            map[string]json.RawMessage // initialize result's capabilities, by name (request.go)

	// life ends when the client breaks or shuts down; work the client does
	// on its own (pulls) runs under it.
	life context.Context
	stop context.CancelFunc

	regs registrations // dynamic registrations and the static pull source
	ts   tsserverPull  // tsserver.go's pull state (atomic fields)
	deps *ImportIndex  // finds a changed file's importers (dependents.go); inert unless server.OpenDependents

	modMu      sync.Mutex // guards modLinks, modListing
	modLinks   goModLinks // the root's go.mod replace links (gomodules.go)
	modListing bool       // a listing for modLinks runs in the background

	watchMu sync.Mutex    // guards watch
	watch   *Subscription // to the workspace's Watcher; nil when not watching

	companion *companion // the server's companion watch command (companion.go); nil when none

	embed embedReload // Go files whose //go:embed matches changed since the server loaded them (embed.go)

	mu        sync.Mutex // guards docs, err, touched, touchedAt, sends, updating, pending, checking, dirs, watched
	docs      map[string]*document
	err       error                     // why the client is broken; nil while healthy
	touched   bool                      // a change has been answered fresh, by a pass no other text overtook, at least once
	touchedAt uint64                    // the store's arrival number when touched became true (0 before): what was known of other files then was all there was
	sends     uint64                    // texts and watched-file events sent so far: a pass that began before the last may have been cut short
	sentSecs  []int64                   // the last distinct Unix seconds in which a text went out (samesecond.go), oldest first
	changed   uint64                    // sends when the server's view last changed: a new text, a document closed, a watched-file event
	updating  map[string]int            // path → Updates about to sync it (the watcher leaves those alone)
	pending   map[string][]*pendingSend // path → texts Updates have yet to send (sendPending)
	checking  map[string][]span         // path → when checks of it were in flight, as arrival numbers (before.go, noteCheckingLocked)
	told      map[string]told           // URI → what the last check whose answer reaches an agent said of it (before.go, noteDelivered)
	dirs      map[string]bool           // directories a document was opened in (newDirLocked)
	deleted   map[string]uint64         // gone file → the store's arrival number when the server was first told (gone.go, noteDeleted)
	watched   map[string]sentWatch      // URI → the last watched-file event sent for it (baseline.go)
	began     time.Time                 // when the client was made: a directory changed later may be new to the server
	// workspace is the workspace the root is under (set by the Manager
	// before use; "" for a client used alone): notes name files relative
	// to it, and an importer whose own root under it (FindRoot) is another
	// is that root's server's to re-check (crossroot.go), not this one's.
	workspace string
	// ownMu guards ownDirs: directory → whether this server owns its
	// files (ownsFile).
	ownMu   sync.Mutex
	ownDirs map[string]bool

	syncMu sync.Mutex // held while a document's version is bumped and sent, so versions reach the server in order

	pullMu  sync.Mutex // guards pulling
	pulling map[pullKey]*pullInFlight

	progress progress
	files    fileStates // clangd's per-file status (filestatus.go)

	loadMu     sync.Mutex // guards loadFailed
	loadFailed loadFailure

	// betweenReads, nil but in tests, runs in waitFresh between reading
	// the server's work in progress and judging its answers, where a
	// test plays reports arriving between the two reads.
	betweenReads func()
}

// document is an open text document as the server knows it.
type document struct {
	path    string
	langID  string
	version int32
	text    []byte
	modTime time.Time // of the file on disk when text was read from or matched it
	size    int64
	sent    []sentVersion // the versions sent, oldest first, at most sentHistory (freshness.go)
	// unloaded: the server may not have loaded the package of the text
	// sent last when it answers it (a directory new to the server, a
	// build constraint new to it): the answer is re-checked
	// (config.Server.RecheckUnloaded, recheckUnloaded).
	unloaded bool
	// delivered is the newest version a check of the document answered
	// fresh: what the versions after it did to other files has not been
	// told (baseMark).
	delivered int32
}

// Start runs the server's command for root, performs the initialize
// handshake, and returns a ready client. ctx bounds start-up. The process
// runs in its own process group and is killed with it, in the environment
// config.ProgramEnv gives it: lsp-hook's own with server.Env added, and
// GOTOOLCHAIN=local and no GOFLAGS unless trusted
// (config.Config.WorkspaceTrusted).
func Start(ctx context.Context, server config.Server, root string, trusted bool, log *slog.Logger) (*Client, error) {
	if len(server.Command) == 0 {
		return nil, fmt.Errorf("starting %s: no command configured", server.Name)
	}
	exe, err := LookPath(server.Command[0])
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", server.Name, err)
	}
	c := newClient(server, root, log)
	env := config.ProgramEnv(os.Environ(), server.Env, trusted)
	if err := c.spawn(exe, env); err != nil {
		return nil, fmt.Errorf("starting %s for %s: %w", server.Name, root, err)
	}
	if err := c.initialize(ctx); err != nil {
		c.kill()
		return nil, fmt.Errorf("initializing %s for %s: %w%s", server.Name, root, err, c.stderrHint())
	}
	c.companion = startCompanion(c.life, server, root, env, trusted) // stops with c.life
	c.log.Info("server started", "server_pid", c.child.Pid(), "encoding", c.encoding, "server_info", c.serverName,
		"tsserver_pull", c.ts.on.Load())
	return c, nil
}

// newClient returns a client not yet connected to anything.
func newClient(server config.Server, root string, log *slog.Logger) *Client {
	c := &Client{
		server: server, root: root, log: log.With("server", server.Name, "root", root),
		stderr: &tail{max: 8 << 10}, exited: make(chan struct{}), store: newStore(),
		docs: make(map[string]*document), pulling: make(map[pullKey]*pullInFlight), updating: make(map[string]int), pending: make(map[string][]*pendingSend),
		dirs: make(map[string]bool), deleted: make(map[string]uint64), began: time.Now(), deps: NewImportIndex(server, root),
		watched: make(map[string]sentWatch), checking: make(map[string][]span), told: make(map[string]told),
	}
	c.life, c.stop = context.WithCancel(context.Background())
	return c
}

// connect runs a JSON-RPC connection over rwc, answering the server's
// messages with handle.
func (c *Client) connect(rwc io.ReadWriteCloser) {
	c.conn = jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(rwc, reportingCodec{onReadError: c.fail}),
		jsonrpc2.HandlerWithError(c.handle).SuppressErrClosed())
}

// spawn starts the process in env with pipes we own (os.Pipe, so writes
// can carry deadlines) and a jsonrpc2 connection over them. The process is
// a proc.Child: in its own process group (Job Object on Windows), which
// dies with the daemon.
func (c *Client) spawn(exe string, env []string) error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	child := proc.Command(context.Background(), exe, c.server.Command[1:]...)
	cmd := child.Cmd
	cmd.Dir = c.root
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, c.stderr
	cmd.Env = env
	if err := child.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return err
	}
	inR.Close() // the child has its own copies
	outW.Close()
	c.child = child
	c.io = &stdio{r: outR, w: inW, writeTimeout: DefaultWriteTimeout, onWriteError: func(err error) {
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			// A pipe that broke (EPIPE; ERROR_NO_DATA on Windows) is a
			// server dying: its exit status, due in a moment, says why
			// better than the pipe does. A stuck server's deadline is
			// its own reason.
			select {
			case <-c.exited:
			case <-time.After(exitReasonWait):
			}
		}
		c.fail(err)
	}}
	c.connect(c.io)
	go func() {
		err := child.Wait()
		c.fail(fmt.Errorf("server process exited: %v", exitReason(err)))
		close(c.exited)
		c.conn.Close()
	}()
	go func() {
		<-c.conn.DisconnectNotify()
		select { // prefer the process's exit status as the reason
		case <-c.exited:
		case <-time.After(exitReasonWait):
		}
		c.fail(errors.New("connection to server closed"))
	}()
	return nil
}

func exitReason(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// fail marks the client broken with the first reason given; later reasons
// are ignored. Pending and future calls fail at once.
func (c *Client) fail(err error) {
	c.mu.Lock()
	first := c.err == nil
	if first {
		c.err = err
	}
	c.mu.Unlock()
	if first {
		c.stop()
		c.Watch(nil)
		c.log.Warn("server broken", "err", err, "stderr", lastLine(c.stderr.String()))
		go c.conn.Close()
	}
}

// Watch subscribes the client to the workspace's Watcher w (nil ends a
// subscription): from then on FilesChanged gets every batch of changes on
// disk, and every Update first waits until the changes made before it have
// been sent (Subscription.Sync), so an out-of-band write made just before a
// check reaches the server ahead of the checked change. Shutdown, or the
// client breaking, ends the subscription. A Manager calls it once after
// Start.
func (c *Client) Watch(w *Watcher) {
	c.watchMu.Lock()
	defer c.watchMu.Unlock()
	if c.watch != nil {
		c.watch.Close()
		c.watch = nil
	}
	// Shutdown and fail set c.err before they call Watch(nil), so a
	// subscription can never outlive the client.
	if w != nil && c.Err() == nil {
		c.watch = w.Subscribe(c.FilesChanged)
		c.deps.Watch(w)
	} else {
		c.deps.Watch(nil)
	}
}

// syncWatched waits, within ctx, until the changes on disk made before the
// call have been sent to the server, when the client is watching. It
// reports whether that covered every change: a watcher that is complete
// (Watcher.Complete) and synced.
func (c *Client) syncWatched(ctx context.Context) bool {
	c.watchMu.Lock()
	sub := c.watch
	c.watchMu.Unlock()
	if sub == nil {
		return false
	}
	if err := sub.Sync(ctx); err != nil {
		c.log.Debug("syncing watched file changes before a check", "err", err)
		return false
	}
	return sub.w.Complete()
}

// Err returns why the client is broken, or nil while it is healthy.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrBroken, c.err)
}

// Pid returns the server's process ID.
func (c *Client) Pid() int { return c.child.Pid() }

// Root returns the workspace root the server was started for.
func (c *Client) Root() string { return c.root }

// Name returns the server's catalogue name.
func (c *Client) Name() string { return c.server.Name }

// Touched reports whether a change has already been answered fresh, i.e.
// whether the server is warm.
func (c *Client) Touched() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.touched
}

// touchedMark returns the store's arrival number when the server first
// answered a change fresh and whole (Client.touched), 0 while it has not.
func (c *Client) touchedMark() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.touchedAt
}

func (c *Client) stderrHint() string {
	if l := lastLine(c.stderr.String()); l != "" {
		return " (stderr: " + l + ")"
	}
	return ""
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// Shutdown asks the server to exit (shutdown request, then exit
// notification, LSP 3.17 "Shutdown Request") and kills its process group if
// it has not exited after grace. It returns when the process is gone.
func (c *Client) Shutdown(grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if c.Err() == nil {
		// The id is picked as call picks them: the connection's own
		// default could be one a request still pending was given.
		id := jsonrpc2.PickID(jsonrpc2.ID{Num: c.ids.Add(1)})
		if err := c.conn.Call(ctx, "shutdown", nil, nil, id); err == nil {
			_ = c.conn.Notify(ctx, "exit", nil)
		}
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = errShutDown
	}
	c.mu.Unlock()
	c.stop()
	c.Watch(nil)
	c.companion.wait(grace)
	select {
	case <-c.exited:
		c.log.Info("server exited")
	case <-ctx.Done():
		c.log.Warn("server did not exit in time; killing its process group", "grace", grace)
	}
	c.kill()
}

// kill ends the server's process group (proc.Child.Kill: SIGKILL, or
// TerminateJobObject on Windows) and waits for the server.
func (c *Client) kill() {
	if c.child == nil || c.child.Pid() == 0 {
		return
	}
	_ = c.child.Kill()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.log.Error("server process did not exit after SIGKILL", "pid", c.child.Pid())
	}
	c.io.Close()
}

// call sends a request and waits for its result, failing at once if the
// server breaks. When ctx ends first it sends $/cancelRequest (LSP 3.17
// "Cancellation Support").
func (c *Client) call(ctx context.Context, method string, params, result any) error {
	if err := c.Err(); err != nil {
		return err
	}
	id := jsonrpc2.ID{Num: c.ids.Add(1)}
	err := c.conn.Call(ctx, method, params, result, jsonrpc2.PickID(id))
	if ctx.Err() != nil && c.Err() == nil {
		_ = c.conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"id": id.Num})
	}
	if err != nil {
		if b := c.Err(); b != nil {
			return b
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

func (c *Client) notify(method string, params any) error {
	if err := c.Err(); err != nil {
		return err
	}
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		if errors.Is(err, jsonrpc2.ErrClosed) && c.exited != nil {
			// The server died: its exit status, due in a moment, says
			// why better than the closed pipe does (spawn's goroutines).
			select {
			case <-c.exited:
			case <-time.After(exitReasonWait):
			}
		}
		if b := c.Err(); b != nil {
			return b
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// exitReasonWait is how long a failed write to a server whose connection
// closed waits for the process's exit status, the better reason.
const exitReasonWait = 200 * time.Millisecond

// LookPath finds a server executable: on $PATH, else in lsp-hook's own tools
// directories ($XDG_DATA_HOME/lsp-hook/servers/bin), else in Go's install
// directory ($GOBIN, $GOPATH/bin, ~/go/bin) where `go install` puts gopls.
// The error names every place looked in.
func LookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	if strings.Contains(name, "/") {
		return "", fmt.Errorf("%s: not found or not executable", name)
	}
	var dirs []string
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		dirs = append(dirs, filepath.Join(d, "lsp-hook", "servers", "bin"))
	} else if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "share", "lsp-hook", "servers", "bin"))
	}
	if d := os.Getenv("GOBIN"); d != "" {
		dirs = append(dirs, d)
	}
	for _, gp := range filepath.SplitList(os.Getenv("GOPATH")) {
		dirs = append(dirs, filepath.Join(gp, "bin"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on PATH or in %s", name, strings.Join(dirs, ", "))
}

// rawParams is used when a handler needs a request's params.
func rawParams(req *jsonrpc2.Request) json.RawMessage {
	if req.Params == nil {
		return nil
	}
	return *req.Params
}

// noteHeard records that the server sent something now.
func (c *Client) noteHeard() { c.heard.Store(time.Now().UnixNano()) }

// heardSince reports whether the server sent anything — a notification
// (a publication, progress, a log message), a request, or a pull's
// answer — at or after t. A hung server sends nothing (Manager's
// hungChecks).
func (c *Client) heardSince(t time.Time) bool { return c.heard.Load() >= t.UnixNano() }
