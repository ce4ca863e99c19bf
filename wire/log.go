package wire

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
)

// maxLogSize is the log size past which the log is rotated to <log>.1 (one
// old generation is kept): when a daemon starts, and while it runs
// (logFile).
const maxLogSize = 10 << 20

// OpenLog opens (appending, 0600) the log file and returns a slog logger
// writing text records to it and to also, if not nil. A log over 10 MiB is
// rotated to <file>.1, first and as it grows; a log file deleted or moved
// away is opened again at its path (see logFile). When the file cannot be
// opened the logger writes to also only (or nowhere), and the error says
// why: logging never stops the caller.
func OpenLog(file string, also io.Writer) (*slog.Logger, func(), error) {
	var w io.Writer = io.Discard
	closer := func() {}
	err := os.MkdirAll(filepath.Dir(file), 0o700)
	if err == nil {
		var f *logFile
		if f, err = openLogFile(file); err == nil {
			w, closer = f, func() { f.Close() }
		}
	}
	if err != nil {
		err = fmt.Errorf("opening log file %s: %w", file, err)
	}
	if also != nil {
		w = io.MultiWriter(w, also)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: logLevel()})), closer, err
}

// logLevel reads LSP_HOOK_LOG_LEVEL (debug, info, warn, error); default info.
func logLevel() slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(os.Getenv("LSP_HOOK_LOG_LEVEL"))); err != nil {
		return slog.LevelInfo
	}
	return l
}

// OpenSocketLog opens the default log beside socket (see OpenLog) after
// checking the socket directory is safe; when it is not, the logger
// discards. The hook process logs here, next to its daemon.
func OpenSocketLog(socket string) (*slog.Logger, func()) {
	if CheckSocketPath(socket) != nil || EnsureDir(filepath.Dir(socket)) != nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil)), func() {}
	}
	log, closer, _ := OpenLog(LogPath(socket), nil)
	return log, closer
}

// CrashToLog makes the runtime print its report of a fatal error — an
// unhandled panic, a fatal signal such as SIGQUIT, a runtime throw: the
// message and every goroutine's stack — to the log file as well as to
// stderr (runtime/debug.SetCrashOutput), for the rest of the process. A
// daemon a hook starts has its stderr on the null device
// (StartDaemon), so a daemon that crashed left no trace of why. The file
// is opened as OpenLog opens it (appending, 0600, never through a
// symlink); once the log is rotated the report goes to <file>.1. The
// error names the file when it cannot be opened; nothing is changed then.
func CrashToLog(file string) error {
	f, err := openAppend(file)
	if err != nil {
		return fmt.Errorf("opening log file %s for crash reports: %w", file, err)
	}
	defer f.Close() // SetCrashOutput keeps its own duplicate
	if err := debug.SetCrashOutput(f, debug.CrashOptions{}); err != nil {
		return fmt.Errorf("sending crash reports to %s: %w", file, err)
	}
	return nil
}
