package sidecar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// Server is the daemon: it serves an Engine on a Unix socket until Shutdown,
// a shutdown request, or IdleTimeout without requests.
type Server struct {
	Engine      *engine.Engine
	Version     string
	IdleTimeout time.Duration // 0: never idle out
	LogFile     string
	LogError    string // why LogFile could not be opened ("" when it is written); shown by status
	Log         *slog.Logger
	// ConfigStamp is the config.Stamp of the Engine's root, taken before
	// its config was loaded; "": the config is not watched.
	ConfigStamp string

	socket string
	ln     *net.UnixListener
	lock   *os.File
	start  time.Time

	budget *budgetKeeper // the memory budget's rounds; nil when not kept (RunDaemon keeps it)

	configStale atomic.Bool // the config changed since ConfigStamp (configChanged)

	inflight atomic.Int64
	lastUse  atomic.Int64 // unix nanoseconds of the last request's end
	counters sync.Map     // method → *atomic.Int64
	hooks    hookMarks    // each agent session's last hook, for changed_files
	sessions sessionState // agent sessions' records, for the Stop gate (sessions.go)
	records  recordKeeper // the sessions' and hook marks' files for the next daemon (records.go)

	mu      sync.Mutex // guards conns and cancels
	conns   map[*jsonrpc2.Conn]bool
	cancels map[*jsonrpc2.Conn]map[jsonrpc2.ID]context.CancelFunc // running requests cancel_request can reach, by connection and id

	done     chan struct{} // closed when Shutdown begins
	stopOnce sync.Once
}

// Listen prepares the socket: a safe 0700 directory, an exclusive lock (one
// daemon per socket), a fresh 0600 socket file.
func (s *Server) Listen(socket string) error {
	s.socket, s.start, s.done, s.conns = socket, time.Now(), make(chan struct{}), make(map[*jsonrpc2.Conn]bool)
	s.cancels = make(map[*jsonrpc2.Conn]map[jsonrpc2.ID]context.CancelFunc)
	s.records.wake, s.records.urgent = make(chan struct{}, 1), make(chan struct{}, 1)
	if err := wire.CheckSocketPath(socket); err != nil {
		return err
	}
	if err := wire.EnsureDir(filepath.Dir(socket)); err != nil {
		return err
	}
	lock, err := wire.TakeLock(socket)
	if err != nil {
		return err
	}
	s.lock = lock
	_ = os.Remove(socket) // a stale socket of a dead daemon: the lock says nobody serves it
	ln, err := listenSocket(socket)
	if err != nil {
		s.releaseLock()
		return err
	}
	ln.SetUnlinkOnClose(true)
	s.ln = ln
	s.lastUse.Store(time.Now().UnixNano())
	s.loadSessions()
	s.loadHookMarks()
	return nil
}

// listenSocket listens on the socket path, which must not exist, the
// socket file private from its first moment: 0600 on unix, inside a
// directory only our user may enter on Windows (listenUnix).
func listenSocket(socket string) (*net.UnixListener, error) { return listenUnix(socket) }

// Serve accepts connections until Shutdown. Peers with another uid are
// refused (checkPeer: SO_PEERCRED on Linux, LOCAL_PEERCRED on macOS; on
// Windows the socket directory's ACL keeps them out).
func (s *Server) Serve() error {
	go s.idleLoop()
	go s.checkpointLoop()
	go s.keepSocket(servedFiles(s.socket)) // listens again if the socket file is deleted or replaced (relisten.go)
	for {
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			select {
			case <-s.done:
				return nil
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return fmt.Errorf("accepting on %s: %w", s.socket, err)
		}
		if err := checkPeer(conn); err != nil {
			s.Log.Warn("refusing connection", "err", err)
			conn.Close()
			continue
		}
		s.serveConn(conn)
	}
}

func (s *Server) serveConn(nc net.Conn) {
	h := jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(s.handleCoded).SuppressErrClosed())
	c := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(nc, wire.BoundedCodec{Log: s.Log}), h)
	s.mu.Lock()
	s.conns[c] = true
	s.mu.Unlock()
	go func() {
		<-c.DisconnectNotify()
		s.mu.Lock()
		delete(s.conns, c)
		var dropped []context.CancelFunc
		for _, cancel := range s.cancels[c] {
			dropped = append(dropped, cancel)
		}
		s.mu.Unlock()
		s.cancelDropped(dropped)
	}()
}

// cancelDropped cancels the requests a closed connection left running
// (track; the protocol doc's "a dropped connection cancels the checks it
// started"): a hook that gave up at its budget stops its servers' work.
// Requests of other connections are untouched. Each such request counts
// as cancelled_disconnect when it ends (track).
func (s *Server) cancelDropped(cancels []context.CancelFunc) {
	if len(cancels) == 0 {
		return
	}
	s.Log.Debug("connection closed; cancelling its requests", "requests", len(cancels))
	for _, cancel := range cancels {
		cancel()
	}
}

func (s *Server) count(name string) {
	v, _ := s.counters.LoadOrStore(name, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

// handleCoded is handle with every error a JSON-RPC error: one that is not
// already (a failure inside the engine) goes out as -32603 internal error
// with its message, where jsonrpc2 would send code 0.
func (s *Server) handleCoded(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	res, err := s.handle(ctx, conn, req)
	var rpcErr *jsonrpc2.Error
	if err != nil && !errors.As(err, &rpcErr) {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
	}
	return res, err
}

// MaxChanges is the most changes one notify_change may carry.
const MaxChanges = 1000

func decodeParams(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalidParams("decoding params: " + err.Error())
	}
	return nil
}

func invalidParams(msg string) *jsonrpc2.Error {
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
}

func (s *Server) status() StatusResult {
	st := StatusResult{
		Running: true, Pid: os.Getpid(), Version: s.Version, UptimeS: int64(time.Since(s.start).Seconds()),
		Root: s.Engine.Root, LogFile: s.LogFile, LogError: s.LogError, Socket: s.socket, Counters: map[string]int64{}, Servers: []ServerStatus{},
		Process: new(ReadProcessStats()), ConfigChanged: s.configChanged(),
	}
	s.counters.Range(func(k, v any) bool {
		st.Counters[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	st.Linters = s.Engine.LinterStatus()
	st.Sessions = s.registry().Summaries()
	st.Untrusted = s.Engine.Untrusted()
	if s.Engine.Manager != nil {
		st.Servers = append(st.Servers, s.Engine.Manager.Status()...)
		st.Watcher = s.Engine.Manager.WatcherStatus()
		if s.budget != nil {
			st.Memory = s.budget.status()
		}
	} else {
		for name := range s.Engine.Config.LSP.Servers {
			st.Servers = append(st.Servers, ServerStatus{Name: name, State: lsp.StateDisabled})
		}
	}
	return st
}

// restart clears the servers p names (lsp.Manager.Restart). An unknown
// server name is an invalid-params error naming the configured ones.
func (s *Server) restart(p wire.RestartParams) (RestartResult, error) {
	res := RestartResult{Restarted: []ServerStatus{}}
	if s.Engine.Manager == nil {
		return res, nil
	}
	before, err := s.Engine.Manager.Restart(p.Server)
	if errors.Is(err, lsp.ErrUnknownServer) {
		return res, invalidParams("restart: " + err.Error())
	}
	if err != nil {
		return res, err
	}
	s.Log.Info("restart", "server", p.Server, "restarted", len(before))
	res.Restarted = append(res.Restarted, before...)
	return res, nil
}

// idleLoop shuts the daemon down after IdleTimeout with no request in
// flight and none finished within it.
func (s *Server) idleLoop() {
	if s.IdleTimeout <= 0 {
		return
	}
	tick := time.NewTicker(min(s.IdleTimeout/4, time.Minute))
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
			idle := time.Since(time.Unix(0, s.lastUse.Load()))
			if s.inflight.Load() == 0 && idle >= s.IdleTimeout {
				s.Log.Info("idle; exiting", "idle", idle.Round(time.Second))
				s.Shutdown()
				return
			}
		}
	}
}

// Shutdown stops accepting, closes connections, stops every language server
// and releases the socket. Safe to call more than once.
func (s *Server) Shutdown() {
	s.stopOnce.Do(func() {
		close(s.done)
		if s.ln != nil {
			s.ln.Close()
		}
		if s.Engine.Manager != nil {
			s.Engine.Manager.Shutdown()
		}
		s.mu.Lock()
		for c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.keepRecords(true)
		s.releaseLock()
		s.Log.Info("daemon stopped")
	})
}

// Done is closed once Shutdown has begun.
func (s *Server) Done() <-chan struct{} { return s.done }

func (s *Server) releaseLock() {
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
}
