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
}

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
	if err := srv.Listen(socket); err != nil {
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
