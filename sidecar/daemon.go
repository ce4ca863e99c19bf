package sidecar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
	"github.com/lsp-hook/lsp-hook/engine"
	"github.com/lsp-hook/lsp-hook/internal/workspace"
	"github.com/lsp-hook/lsp-hook/lsp"
	"github.com/lsp-hook/lsp-hook/wire"
)

// DaemonOptions configure `lsp-hook serve`.
type DaemonOptions struct {
	Root        string        // workspace root; made absolute and symlink-free
	Socket      string        // "" means SocketPath(Root)
	LogFile     string        // "" means LogPath(Socket)
	IdleTimeout time.Duration // 0 means the config's idle_timeout (default 30 min); <0 never
	Version     string
	// Stderr, when not nil, receives the log too (serve --foreground).
	Stderr io.Writer
	// ErrOut, when not nil, is serve's own stderr: a log file that cannot
	// be written is reported there, once (status reports it too).
	ErrOut io.Writer
	// Ready, when not nil, is called once the socket accepts connections.
	Ready func(socket string)
	// Prewarm starts, once listening, the servers the workspace needs
	// (serve --prewarm: a session's start found no daemon).
	Prewarm bool
	// Session, when its Session is not "", is the agent session whose
	// start started this daemon (serve --session and --agent), and
	// SessionAt when it started (serve --session-start-ms): the daemon
	// records it as session_start would (beginSession), so that the
	// session's first shell hook looks back to its start.
	Session   wire.SessionParams
	SessionAt time.Time
	// ReplaceOlder, when a daemon of an older protocol serves the socket
	// (lsp-hook was upgraded while it ran), asks it to shut down and
	// serves once it has let the socket's lock go, within
	// replaceOlderWait (serve --replace-older: a session's start met
	// one, and must not wait for its replacement). A daemon of this
	// protocol serving the socket is left alone, as without it.
	ReplaceOlder bool
}

// replaceOlderWait bounds how long a daemon started to replace one of an
// older protocol waits for it to stop: its servers stop first.
const replaceOlderWait = 10 * time.Second

// RunDaemon serves the workspace until a shutdown request, SIGTERM/SIGINT,
// ctx's end, or the idle timeout; then it stops every language server and
// removes the socket. It returns ErrAlreadyRunning when another daemon
// serves the socket.
func RunDaemon(ctx context.Context, opts DaemonOptions) error {
	root, err := workspace.Root(opts.Root)
	if err != nil {
		return err
	}
	socket := opts.Socket
	if socket == "" {
		socket = wire.SocketPath(root)
	}
	logFile := opts.LogFile
	if logFile == "" {
		// The log lives beside the socket: check that directory before
		// writing anything into it.
		if err := wire.EnsureDir(filepath.Dir(socket)); err != nil {
			return err
		}
		logFile = wire.LogPath(socket)
	}
	log, closeLog, logErr := wire.OpenLog(logFile, opts.Stderr)
	defer closeLog()
	log = log.With("pid", os.Getpid())
	if logErr != nil && opts.ErrOut != nil {
		fmt.Fprintf(opts.ErrOut, "lsp-hook serve: %v; serving without a log\n", logErr)
	}
	if logErr == nil {
		if err := wire.CrashToLog(logFile); err != nil {
			log.Warn("a crash would leave no report in the log", "err", err)
		}
	}

	// The file watcher's descriptor budget on macOS (kqueue: one per
	// watched file) is half of this limit.
	if nofile, err := lsp.RaiseOpenFileLimit(); err != nil {
		log.Warn("raising the open file limit (RLIMIT_NOFILE)", "nofile", nofile, "err", err)
	} else if nofile > 0 {
		log.Debug("open file limit (RLIMIT_NOFILE)", "nofile", nofile)
	}

	stamp := config.Stamp(root) // before reading: a write while it loads is a change
	cfg, problems := engine.LoadConfig(root)
	for _, p := range problems {
		log.Warn("config problem; using the default for it", "problem", p.Error())
	}
	idle := opts.IdleTimeout
	if idle == 0 {
		idle = cfg.IdleTimeout
	}
	manager := lsp.NewManager(cfg, root, log)
	srv := &Server{
		Engine:      engine.NewEngine(root, cfg, manager, log),
		Version:     opts.Version,
		IdleTimeout: max(idle, 0),
		LogFile:     logFile,
		Log:         log,
		ConfigStamp: stamp,
	}
	if logErr != nil {
		srv.LogError = logErr.Error()
	}
	err = srv.Listen(socket)
	if errors.Is(err, wire.ErrAlreadyRunning) && opts.ReplaceOlder {
		err = replaceOlder(ctx, srv, socket, opts.Version)
	}
	if err != nil {
		if errors.Is(err, wire.ErrAlreadyRunning) {
			log.Info("another daemon serves this socket; exiting", "socket", socket)
		} else {
			log.Error("daemon cannot listen", "socket", socket, "err", err)
		}
		return err
	}
	log.Info("daemon listening", "root", root, "socket", socket, "version", opts.Version, "idle_timeout", idle)
	if opts.Ready != nil {
		opts.Ready(socket)
	}
	if b, err := newBudgetKeeper(srv, resolveBudget(cfg, log)); err != nil {
		log.Warn("not keeping the memory budget", "err", err)
	} else {
		srv.budget = b
		log.Info("memory budget", "budget", config.FormatSize(b.budget), "records", b.dir)
		go b.run(srv.Done())
	}
	if opts.Session.Session != "" {
		srv.beginSession(opts.Session, opts.SessionAt)
	}
	if opts.Prewarm && srv.Engine.Manager != nil {
		go func() { log.Info("prewarming at start", "servers", srv.Engine.Manager.Prewarm(srv.samplePaths())) }()
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		select {
		case sig := <-sigs:
			log.Info("signal; shutting down", "signal", sig.String())
		case <-ctx.Done():
		case <-srv.Done():
		}
		srv.Shutdown()
	}()
	err = srv.Serve()
	srv.Shutdown() // waits for a shutdown begun elsewhere to finish
	if srv.budget != nil {
		<-srv.budget.finished // the record is gone with the daemon
	}
	return err
}

// replaceOlder asks the daemon serving socket to shut down when it speaks
// an older protocol, then listens on the socket (srv.Listen) once that
// daemon has let the socket's lock go, within replaceOlderWait. A daemon
// of this protocol or a newer one, or one that does not answer, is left
// serving: the error is then wire.ErrAlreadyRunning.
func replaceOlder(ctx context.Context, srv *Server, socket, version string) error {
	dctx, cancel := context.WithTimeout(ctx, time.Second)
	c, err := wire.Dial(dctx, socket, version)
	cancel()
	if err != nil {
		return fmt.Errorf("%w (it did not answer: %v)", wire.ErrAlreadyRunning, err)
	}
	if c.Hello.Protocol >= wire.ProtocolVersion {
		c.Close()
		return wire.ErrAlreadyRunning
	}
	srv.Log.Info("replacing the daemon of an older protocol", "socket", socket, "pid", c.Hello.Pid,
		"version", c.Hello.Version, "protocol", c.Hello.Protocol)
	wctx, cancel := context.WithTimeout(ctx, replaceOlderWait)
	defer cancel()
	if err := wire.Retire(wctx, c, socket); err != nil {
		return fmt.Errorf("%w (the daemon of an older protocol did not stop: %v)", wire.ErrAlreadyRunning, err)
	}
	return srv.Listen(socket) // another daemon may have taken the lock first: then ErrAlreadyRunning
}
