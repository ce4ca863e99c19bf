package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/diag"
	"github.com/lsp-hook/lsp-hook/internal/poll"
	"github.com/lsp-hook/lsp-hook/internal/proc"
)

// Client is a connection to a daemon.
type Client struct {
	conn  *jsonrpc2.Conn
	Hello HelloResult   // what the daemon said in hello
	seq   atomic.Uint64 // ids of cancellable calls ("c1", "c2", …)
}

// Dial connects to the daemon on socket and exchanges hello. It fails fast
// when nobody listens (no daemon) and within ctx otherwise.
func Dial(ctx context.Context, socket, version string) (*Client, error) {
	return dial(ctx, socket, version, nil)
}

// Call is a request Connect sends together with hello, without waiting
// for hello's answer first: a hook reaches a running daemon in one round
// trip instead of two (issue 18, "Hook process start"). JSON-RPC 2.0 lets
// a client have several requests outstanding; the daemon answers each on
// its own.
type Call struct {
	Method string
	Params any
	Result any // a pointer the answer is decoded into, as for Client.Call
	// Sent reports that Connect made the call, to a daemon of our protocol
	// that was already listening; Err is then the call's error. A call not
	// sent (no daemon answered, one was started, an older one replaced) is
	// the caller's to make, its params perhaps changed (a cold budget).
	Sent bool
	Err  error
}

// dial is Dial, sending first (when not nil) right after hello. A daemon
// not to use (HelloResult.Current) gets first too; its answer is not read
// (Connect replaces it), and one whose config changed refuses it
// (CodeConfigChanged).
func dial(ctx context.Context, socket, version string, first *Call) (*Client, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, fmt.Errorf("connecting to daemon at %s: %w", socket, err)
	}
	c := &Client{conn: jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(nc, jsonrpc2.VSCodeObjectCodec{}), noRequests{})}
	hello := c.start(ctx, MethodHello, HelloParams{ClientVersion: version, Protocol: ProtocolVersion}, &c.Hello)
	var answer func(context.Context) error
	if first != nil {
		answer = c.start(ctx, first.Method, first.Params, first.Result)
	}
	if err := hello(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("greeting daemon at %s: %w", socket, err)
	}
	if answer != nil && c.Hello.Current() {
		first.Sent, first.Err = true, answer(ctx)
	}
	return c, nil
}

// noRequests refuses anything the daemon might send us: it sends nothing
// but replies.
type noRequests struct{}

// Handle answers a request with MethodNotFound and ignores a notification.
func (noRequests) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if !req.Notif {
		_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "client handles no requests"})
	}
}

// Call sends a request and decodes its result into result; it returns when
// ctx ends, whatever the daemon is doing.
//
// A notify_change (params a NotifyChangeParams) is first checked against
// the daemon's limits: a change whose content is over MaxFileSize, or would
// take the message over MaxMessageSize, is left out and explained in the
// Result's Notes instead (result must then be a *Result; otherwise Call
// fails naming the change). When no change is left the daemon is not asked.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	return c.start(ctx, method, params, result)(ctx)
}

// start sends a request under an id of its own and returns the wait for
// its answer; when ctx ends before the answer, the wait tells the daemon
// to stop the work (cancel_request), in the background, so the caller
// returns at once. A notify_change is held to the daemon's limits first
// (see Call): the notes on the changes left out go to the daemon
// (Skipped), which renders them within its output caps; when no change is
// left, the daemon is not asked and the answer is those notes alone, a
// line each: a change that was not checked must not read as clean.
func (c *Client) start(ctx context.Context, method string, params, result any) (wait func(context.Context) error) {
	if p, ok := params.(NotifyChangeParams); ok && method == MethodNotifyChange {
		if kept, notes := oversized(p); len(notes) > 0 {
			res, ok := result.(*Result)
			switch {
			case !ok:
				return answered(fmt.Errorf("sending notify_change: %s", notes[0]))
			case len(kept) == 0:
				*res = NotesResult(slices.Concat(p.Skipped, notes))
				return answered(nil)
			}
			p.Changes, p.Skipped = kept, slices.Concat(p.Skipped, notes)
			params = p
		}
	}
	id := jsonrpc2.ID{Str: "c" + strconv.FormatUint(c.seq.Add(1), 10), IsString: true}
	w, err := c.conn.DispatchCall(ctx, method, params, jsonrpc2.PickID(id))
	if err != nil {
		return answered(err)
	}
	return func(ctx context.Context) error {
		err := w.Wait(ctx, result)
		if err != nil && ctx.Err() != nil && method != MethodHello {
			go func() { _ = c.conn.Notify(context.Background(), MethodCancelRequest, CancelParams{ID: &id}) }()
		}
		return err
	}
}

// answered is the wait of a request answered without the daemon.
func answered(err error) func(context.Context) error {
	return func(context.Context) error { return err }
}

// NotesResult is the Result of a request that checked nothing but has
// notes to give: its lint block is the notes, a line each with the
// "lsp-hook: " prefix. Something that was not checked must not read as
// clean.
func NotesResult(notes []string) Result {
	lines := make([]string, len(notes))
	for i, n := range notes {
		lines[i] = "lsp-hook: " + n
	}
	return Result{Files: []diag.FileDiagnostics{}, Servers: []ServerResult{}, Notes: notes, Lint: strings.Join(lines, "\n")}
}

// Close closes the connection.
func (c *Client) Close() error { return c.conn.Close() }

// StartOptions say how to start a daemon when none answers.
type StartOptions struct {
	Executable string   // lsp-hook binary; "" means os.Executable()
	Root       string   // workspace root
	Socket     string   // socket path
	Args       []string // extra `serve` flags
	// Wait bounds how long to wait for the new daemon to answer.
	Wait time.Duration
}

// Connect returns a client for the daemon on opts.Socket, starting one
// (detached: its own session, stdio on /dev/null) when none answers, or when
// the one that answers is not to be used (HelloResult.Current: it speaks an
// older protocol, or its config changed since it started; it is asked to
// shut down first). started reports whether a daemon was started.
func Connect(ctx context.Context, version string, opts StartOptions) (c *Client, started bool, err error) {
	return ConnectWith(ctx, version, opts, nil)
}

// ConnectWith is Connect sending first together with hello to a daemon of
// our protocol that is already listening (first.Sent), or right after
// hello to one that another hook started while this one waited for it
// (withFirst); to a daemon it starts, first is not sent: the caller makes
// the call, its params perhaps changed.
func ConnectWith(ctx context.Context, version string, opts StartOptions, first *Call) (c *Client, started bool, err error) {
	c, err = dial(ctx, opts.Socket, version, first)
	if err == nil {
		if c.Hello.Current() {
			return c, false, nil
		}
		_ = c.Call(ctx, MethodShutdown, struct{}{}, nil)
		c.Close()
		waitGone(ctx, opts.Socket)
	}
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	// A daemon could not listen where the socket directory is unsafe or
	// cannot be made: fail now rather than wait for it.
	if err := CheckSocketPath(opts.Socket); err != nil {
		return nil, false, err
	}
	if err := EnsureDir(filepath.Dir(opts.Socket)); err != nil {
		return nil, false, err
	}
	wait := opts.Wait
	if wait <= 0 {
		wait = 5 * time.Second
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	// One hook starts the daemon; the others wait for it and connect as
	// soon as it answers, each on its own, not in turn under the lock: 200
	// hooks on a cold workspace, taking the lock one after another to dial,
	// left the last ones waiting past their 20 s (two loaded cores). Such a
	// connection is made without first (a daemon of an older protocol, being
	// replaced by the lock's holder, must not get the call): it follows once
	// the daemon is known to be ours.
	var early *Client
	unlock, err := lockStart(wctx, opts.Socket, func() bool {
		d, err := Dial(wctx, opts.Socket, version)
		if err != nil {
			return false
		}
		if !d.Hello.Current() {
			d.Close()
			return false
		}
		early = d
		return true
	})
	if err != nil {
		return nil, false, err
	}
	if early != nil {
		return withFirst(ctx, early, first), false, nil
	}
	defer unlock()
	if c, err = Dial(wctx, opts.Socket, version); err == nil {
		if c.Hello.Current() {
			return withFirst(ctx, c, first), false, nil
		}
		c.Close() // an old daemon that another hook is replacing: start ours
	}
	if c, err = awaitDaemonLock(wctx, opts.Socket, version); c != nil || err != nil {
		return c, false, err
	}
	exited, err := StartDaemon(opts)
	if err != nil {
		return nil, false, err
	}
	for b := poll.New(5*time.Millisecond, 100*time.Millisecond); ; {
		c, err = Dial(wctx, opts.Socket, version)
		if err == nil {
			return c, true, nil
		}
		select {
		case <-wctx.Done():
			return nil, true, fmt.Errorf("daemon started but did not answer within %v: %w", wait, err)
		case <-exited:
			// It lost the race to another daemon, which holds the lock and
			// will listen in a moment; or it failed to start (see its
			// log). Give the winner a little longer, then give up.
			exited = nil
			var cancelLost context.CancelFunc
			wctx, cancelLost = context.WithTimeout(wctx, lostRaceWait)
			defer cancelLost()
		case <-time.After(b.Next()):
		}
	}
}

// withFirst makes first (when not nil) on c, a daemon of our protocol
// that this hook found after waiting for another's start, and returns c.
// The answer is awaited under ctx, the hook's whole budget, not the wait
// for the daemon to answer (half of it): the first check of a daemon just
// started may start its servers, and cutting it short left the hook to
// answer in-process that the daemon was unavailable.
func withFirst(ctx context.Context, c *Client, first *Call) *Client {
	if first != nil {
		first.Sent, first.Err = true, c.Call(ctx, first.Method, first.Params, first.Result)
	}
	return c
}

// awaitDaemonLock returns once no daemon holds socket's lock, or a daemon
// of our protocol answers (then c is a client for it). A daemon that holds
// the lock but does not answer is stopping (`lsp-hook trust`, `restart`,
// or a newer client replacing it): it keeps the lock until its servers and
// file watcher are gone, and a daemon started meanwhile would find the
// lock taken and exit. The error is ctx's.
func awaitDaemonLock(ctx context.Context, socket, version string) (c *Client, err error) {
	err = poll.Until(ctx, 5*time.Millisecond, 100*time.Millisecond, func() bool {
		if f, err := TakeLock(socket); err == nil {
			f.Close() // free: the daemon about to start takes it
			return true
		}
		if d, err := Dial(ctx, socket, version); err == nil {
			if d.Hello.Current() {
				c = d
				return true
			}
			d.Close()
		}
		return false
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the stopping daemon on %s to exit: %w", socket, err)
	}
	return c, nil
}

// lostRaceWait is how long Connect keeps trying after the daemon it started
// exited: long enough for the daemon that won the lock to listen.
const lostRaceWait = 2 * time.Second

// StartDaemon starts `lsp-hook serve` for opts.Root detached from the caller:
// a new session (proc.Detach: setsid, or a detached process on Windows),
// stdin/stdout/stderr on /dev/null, so the hook can exit while the daemon
// lives on. It does not wait for it to listen; the returned channel is
// closed if the daemon exits while the caller lives.
func StartDaemon(opts StartOptions) (<-chan struct{}, error) {
	exe := opts.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("finding lsp-hook executable: %w", err)
		}
	}
	args := append([]string{"serve", "--root", opts.Root, "--socket", opts.Socket}, opts.Args...)
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer devnull.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = opts.Root
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
	proc.Detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting daemon %s serve: %w", exe, err)
	}
	// Reap it if it exits while we are still alive (a second daemon losing
	// the lock race, or a failed start); otherwise init adopts it.
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	return exited, nil
}

// Retire asks c's daemon, one a client should not use (HelloResult.Current:
// an older protocol, or a config changed since it started), to shut down,
// closes c, and waits, within ctx, until the daemon has released the
// socket's lock — its servers stopped and its sessions saved for the next
// daemon (which takes the lock to listen, and would exit finding it
// taken). The error is ctx's.
func Retire(ctx context.Context, c *Client, socket string) error {
	_ = c.Call(ctx, MethodShutdown, struct{}{}, nil)
	c.Close()
	err := poll.Until(ctx, 5*time.Millisecond, 100*time.Millisecond, func() bool {
		f, err := TakeLock(socket)
		if err != nil {
			return false
		}
		f.Close() // free: the daemon about to start takes it
		return true
	})
	if err != nil {
		return fmt.Errorf("waiting for the daemon on %s to stop: %w", socket, err)
	}
	return nil
}

// waitGone waits until nothing answers on socket, or ctx ends.
func waitGone(ctx context.Context, socket string) {
	_ = poll.Until(ctx, 5*time.Millisecond, 20*time.Millisecond, func() bool {
		nc, err := net.Dial("unix", socket)
		if err != nil {
			return true
		}
		nc.Close()
		return false
	})
}

// IsNoDaemon reports whether err means nobody is listening on the socket.
func IsNoDaemon(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT)
}

// WaitExit waits until the process pid is gone (the daemon after shutdown:
// its servers are stopped before it exits), or ctx ends. An exited process
// not yet reaped counts as gone (proc.Alive): where PID 1 does not reap, an
// exited daemon stays a zombie.
func WaitExit(ctx context.Context, pid int) error {
	if err := poll.Until(ctx, 5*time.Millisecond, 100*time.Millisecond, func() bool { return !proc.Alive(pid) }); err != nil {
		return fmt.Errorf("daemon pid %d still running: %w", pid, err)
	}
	return nil
}
